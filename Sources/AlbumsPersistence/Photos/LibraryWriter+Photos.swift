import GRDB

extension LibraryWriter {
    /// Adds a photo to the library, or finds the one with the same bytes.
    ///
    /// Importing the same bytes twice yields one photo: the first one's
    /// facts are kept.
    ///
    /// - Returns: The photo, and whether this call created it.
    /// - Throws: ``LibraryError/constraintViolated(detail:)`` for facts the
    ///   schema refuses (a digest that is not 32 bytes, a bad media type).
    public func addPhoto(_ content: PhotoContent) throws -> (photo: Photo, isNew: Bool) {
        if let existing = try photo(sha256: content.sha256) {
            return (existing, false)
        }
        try db.execute(
            cachedSQL: """
                INSERT INTO photo (sha256, byte_count, media_type, pixel_width, pixel_height, captured_at,
                    original_name, source_path)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [content.sha256, content.byteCount, content.mediaType, content.pixelWidth, content.pixelHeight,
                content.capturedAt, content.originalName, content.sourcePath])
        return (try photo(PhotoID(rawValue: db.lastInsertedRowID)), true)
    }
}
