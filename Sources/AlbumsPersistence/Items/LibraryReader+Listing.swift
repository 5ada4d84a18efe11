import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// One row of an album listing, read in place from SQLite's row buffer:
/// no Swift value is made for a column unless it is asked for. Valid only
/// inside the closure it is passed to.
///
/// `albums list --json` prints a hundred thousand of these in about the
/// time `sqlite3 -json` takes for the same columns (BENCHMARKS.md).
package struct ListingRow: ~Copyable {
    package enum Column: Int32 {
        case itemID = 0, photoID, loadSource, loadOwnerHost, loadOwnerProcessID, loadOwnerStartedAt
        case originalName, mediaType, pixelWidth, pixelHeight, capturedAt, byteCount, sha256, sourcePath, orientation
        /// What is written on the item (``ItemMarks``); keywords as the file keeps them, a JSON array.
        case title, caption, isFavorite, rating, keywords
        /// A video's length in seconds, a real number; NULL for a still.
        case duration
        /// A Live Photo's motion's length in seconds; NULL otherwise. `isLive`: 1 for a Live Photo.
        case motionDuration, isLive
    }

    fileprivate let statement: OpaquePointer
    /// The 0-based index of the item in its album.
    package let index: Int

    package func isNull(_ column: Column) -> Bool {
        sqlite3_column_type(statement, column.rawValue) == SQLITE_NULL
    }

    package func int64(_ column: Column) -> Int64 {
        sqlite3_column_int64(statement, column.rawValue)
    }

    package func double(_ column: Column) -> Double {
        sqlite3_column_double(statement, column.rawValue)
    }

    /// The column's bytes (UTF-8 text or a blob), nil for NULL.
    package func bytes(_ column: Column) -> UnsafeBufferPointer<UInt8>? {
        guard !isNull(column) else { return nil }
        let start = sqlite3_column_type(statement, column.rawValue) == SQLITE_BLOB
            ? sqlite3_column_blob(statement, column.rawValue).map { UnsafeRawPointer($0) }
            : sqlite3_column_text(statement, column.rawValue).map { UnsafeRawPointer($0) }
        let count = Int(sqlite3_column_bytes(statement, column.rawValue))
        return UnsafeBufferPointer(start: start?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The column as a String, nil for NULL.
    package func string(_ column: Column) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The process that owns the load, for a row that holds a placeholder.
    package var loadOwner: LoadOwner? {
        guard isNull(.photoID), let host = string(.loadOwnerHost) else { return nil }
        return LoadOwner(
            host: host, processID: Int32(truncatingIfNeeded: int64(.loadOwnerProcessID)),
            processStartedAt: string(.loadOwnerStartedAt))
    }
}

extension LibraryReader {
    /// Calls `body` with each item of an album, in order, as a raw row of
    /// the item's and its photo's columns: the fast path of a listing that
    /// prints every item.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, or a failing file.
    package func forEachListingRow(in album: Album, _ body: (borrowing ListingRow) throws -> Void) throws {
        // CROSS JOIN keeps segments as the outer loop: rows come in order from
        // the two indexes, with no sort and no temporary table.
        let statement = try db.makeStatement(
            sql: """
                SELECT i.id, i.photo_id, i.load_source, i.load_owner_host, i.load_owner_process_id, i.load_owner_started_at,
                    COALESCE(i.file_name, p.original_name), p.media_type, p.pixel_width, p.pixel_height, p.captured_at, p.byte_count, p.sha256, p.source_path,
                    p.orientation, i.title, i.caption, i.is_favorite, i.rating, i.keywords, p.duration,
                    p.motion_duration, p.motion_sha256 IS NOT NULL
                FROM album_segment s CROSS JOIN album_item i ON i.segment_id = s.id LEFT JOIN photo p ON p.id = i.photo_id
                WHERE s.album_id = ?
                ORDER BY s.order_key, i.order_key
                """)
        try statement.setArguments([album.id])
        let handle = statement.sqliteStatement
        var index = 0
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            try body(ListingRow(statement: handle, index: index))
            index += 1
        }
    }
}
