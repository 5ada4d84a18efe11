import Foundation

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// An SQLite file opened read-only and immutable: SQLite takes no lock,
/// reads no WAL and creates no `-wal` or `-shm` file, so looking at a file
/// leaves its folder exactly as it was, even on read-only media.
///
/// Only sound when no other connection is writing and the file has no WAL
/// content waiting to be checkpointed; callers check the latter first.
/// GRDB opens files by path only, so this uses SQLite's C API for the
/// `immutable=1` URI parameter.
final class ImmutableDatabaseFile {
    private var connection: OpaquePointer?
    let path: String

    /// The `file:` URI that opens `path` immutable. GRDB opens it too, on
    /// SQLite builds with URI filenames on (SQLITE_USE_URI, as Debian's).
    static func uri(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? path
        return "file:\(encoded)?immutable=1"
    }

    init(path: String) throws(LibraryError) {
        self.path = path
        let code = sqlite3_open_v2(Self.uri(path), &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            sqlite3_close(connection)
            connection = nil
            throw .ioFailure(path: path, detail: message)
        }
    }

    deinit {
        sqlite3_close(connection)
    }

    /// The rows of a query, each column as an Int64, a String or nil.
    func rows(_ sql: String) throws(LibraryError) -> [[Any?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else { throw failure() }
        defer { sqlite3_finalize(statement) }
        var rows: [[Any?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure() }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column -> Any? in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: sqlite3_column_int64(statement, column)
                    case SQLITE_NULL: nil
                    default: sqlite3_column_text(statement, column).map { String(cString: $0) }
                    }
                })
        }
    }

    private func failure() -> LibraryError {
        let code = sqlite3_errcode(connection)
        let message = String(cString: sqlite3_errmsg(connection))
        switch code {
        case SQLITE_CORRUPT: return .corrupt(path: path, detail: message)
        case SQLITE_NOTADB: return .notADatabase(path: path, reason: "SQLite does not recognise it as a database")
        default: return .ioFailure(path: path, detail: message)
        }
    }
}
