import Foundation
import GRDB

extension LibraryReader {
    static func photo(from row: Row) -> Photo {
        Photo(
            id: row["id"],
            content: PhotoContent(
                sha256: row["sha256"], byteCount: row["byte_count"], mediaType: row["media_type"],
                pixelWidth: row["pixel_width"], pixelHeight: row["pixel_height"], capturedAt: row["captured_at"],
                originalName: row["original_name"], sourcePath: row["source_path"]),
            importedAt: Timestamp.date(row["imported_at"]))
    }

    /// The photo with identifier `id`.
    ///
    /// - Throws: ``LibraryError/photoNotFound(_:)``.
    public func photo(_ id: PhotoID) throws -> Photo {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM photo WHERE id = ?", arguments: [id]) else {
            throw LibraryError.photoNotFound(id)
        }
        return Self.photo(from: row)
    }

    /// The photo whose bytes have this SHA-256, if the library has it.
    public func photo(sha256: Data) throws -> Photo? {
        try Row.fetchOne(db, cachedSQL: "SELECT * FROM photo WHERE sha256 = ?", arguments: [sha256]).map(Self.photo(from:))
    }

    /// The number of photos in the library.
    public func photoCount() throws -> Int {
        try Int.fetchOne(db, cachedSQL: "SELECT count(*) FROM photo") ?? 0
    }
}
