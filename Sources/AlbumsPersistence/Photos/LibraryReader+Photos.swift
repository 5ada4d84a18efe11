import AlbumsImageFacts
import Foundation
import GRDB

extension LibraryReader {
    static func photo(from row: Row) -> Photo {
        Photo(
            id: row["id"],
            content: PhotoContent(
                sha256: row["sha256"], byteCount: row["byte_count"], mediaType: row["media_type"],
                pixelWidth: row["pixel_width"], pixelHeight: row["pixel_height"],
                orientation: PhotoOrientation(storedValue: row["orientation"]),
                capturedAt: (row["captured_at"] as String?).flatMap(CaptureDate.init),
                cameraMake: row["camera_make"], cameraModel: row["camera_model"], lens: row["lens"], hasLocation: row["has_location"] ?? false,
                originalName: row["original_name"], sourcePath: row["source_path"],
                fileOrientation: (row["file_orientation"] as Int?).flatMap(PhotoOrientation.init(rawValue:)), keptIn: row["kept_in"],
                duration: row["duration"], motion: motion(from: row)),
            importedAt: Timestamp.date(row["imported_at"]), isApart: row["is_apart"] ?? false)
    }

    /// A Live Photo's motion from a row of the photo table; nil for a photo without one.
    static func motion(from row: Row) -> MotionContent? {
        guard let sha256: Data = row["motion_sha256"], let byteCount: Int64 = row["motion_byte_count"], let mediaType: String = row["motion_media_type"],
            let sourcePath: String = row["motion_source_path"]
        else { return nil }
        return MotionContent(sha256: sha256, byteCount: byteCount, mediaType: mediaType, duration: row["motion_duration"], sourcePath: sourcePath)
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

    /// The first photo whose bytes have this SHA-256, if the library has
    /// one: the one importing them finds. Others are photos made apart (``Photo/isApart``).
    public func photo(sha256: Data) throws -> Photo? {
        try Row.fetchOne(db, cachedSQL: "SELECT * FROM photo WHERE sha256 = ? ORDER BY id LIMIT 1", arguments: [sha256]).map(Self.photo(from:))
    }

    /// The photos whose bytes have this SHA-256, by id.
    public func photos(sha256: Data) throws -> [Photo] {
        try Row.fetchAll(db, cachedSQL: "SELECT * FROM photo WHERE sha256 = ? ORDER BY id", arguments: [sha256]).map(Self.photo(from:))
    }

    /// Photos whose orientation and capture date were read by an albums
    /// older than this file's schema (migration 0003), by id: they are
    /// read again from their sources (`refreshOutdatedFacts`, in the
    /// transfer module).
    public func photosWithOutdatedFacts(limit: Int = Int.max) throws -> [Photo] {
        try Row.fetchAll(
            db, sql: "SELECT p.* FROM photo_facts_outdated o JOIN photo p ON p.id = o.photo_id ORDER BY o.photo_id LIMIT ?",
            arguments: [limit]
        ).map(Self.photo(from:))
    }

    /// Whether an upgrade left notes for a person (``Library/takeUpgradeNotes()``).
    public func hasUpgradeNotes() throws -> Bool {
        try Bool.fetchOne(db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM upgrade_note)") ?? false
    }

    /// Every photo in the library, by id.
    public func photos() throws -> [Photo] {
        try Row.fetchAll(db, sql: "SELECT * FROM photo ORDER BY id").map(Self.photo(from:))
    }

    /// Whether any photo's facts wait to be read again (see ``photosWithOutdatedFacts(limit:)``).
    public func hasPhotosWithOutdatedFacts() throws -> Bool {
        try Bool.fetchOne(db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM photo_facts_outdated)") ?? false
    }

    /// The number of photos in the library.
    public func photoCount() throws -> Int {
        try Int.fetchOne(db, cachedSQL: "SELECT count(*) FROM photo") ?? 0
    }
}

extension LibraryReader {
    /// Whether the library holds any video (`albums serve` warns when it cannot make their renditions).
    public func holdsVideos() throws -> Bool {
        try Bool.fetchOne(db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM photo WHERE media_type GLOB 'video/?*')") ?? false
    }
}
