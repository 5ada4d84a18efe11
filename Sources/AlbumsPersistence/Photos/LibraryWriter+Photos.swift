import AlbumsImageFacts
import Foundation
import GRDB

extension LibraryWriter {
    /// Adds a photo to the library, or finds the one with the same bytes.
    ///
    /// Importing the same bytes twice yields one photo: the first one's
    /// facts are kept, except its source when the recorded one is gone, and
    /// where a copy is kept when this content's is newer. For a person
    /// (on a server) only a photo they can see is found: bytes the library
    /// holds only where they cannot see become a photo of their own, made
    /// apart (``Photo/isApart``), and nothing of the hidden one changes.
    ///
    /// - Parameter album: The album the photo is for, whose own photo of
    ///   these bytes is preferred (there it would be a duplicate).
    /// - Returns: The photo, and whether this call created it.
    /// - Throws: ``LibraryError/constraintViolated(detail:)`` for facts the
    ///   schema refuses (a digest that is not 32 bytes, a bad media type).
    public func addPhoto(_ content: PhotoContent, for album: AlbumID? = nil) throws -> (photo: Photo, isNew: Bool) {
        let (found, isApart) = try photoToJoin(content.sha256, for: album)
        if let found {
            var existing = found
            if let kept = content.keptIn, kept != found.content.keptIn {
                try db.execute(cachedSQL: "UPDATE photo SET kept_in = ? WHERE id = ?", arguments: [kept, found.id])
                existing = try photo(found.id)
            }
            // A still the library holds without motion, found again as a Live Photo: it gains its motion.
            if existing.content.motion == nil, let motion = content.motion {
                try db.execute(
                    cachedSQL: """
                        UPDATE photo SET motion_sha256 = ?, motion_byte_count = ?, motion_media_type = ?, motion_duration = ?, motion_source_path = ?
                        WHERE id = ?
                        """,
                    arguments: [motion.sha256, motion.byteCount, motion.mediaType, motion.duration, motion.sourcePath, found.id])
                existing = try photo(found.id)
            }
            // The same bytes from a new place, while the recorded source is
            // gone: the new place becomes the source (Documentation/Importing.md, "The files behind the photos": relink on import).
            if existing.content.sourcePath != content.sourcePath && FileSize.of(existing.content.sourcePath) == nil {
                try setSource(of: existing.id, to: content.sourcePath)
                return (try photo(existing.id), false)
            }
            return (existing, false)
        }
        try db.execute(
            cachedSQL: """
                INSERT INTO photo (sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
                    camera_make, camera_model, lens, has_location, original_name, source_path, file_orientation, kept_in, duration,
                    motion_sha256, motion_byte_count, motion_media_type, motion_duration, motion_source_path, is_apart)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [content.sha256, content.byteCount, content.mediaType, content.pixelWidth, content.pixelHeight,
                content.orientation.rawValue, content.capturedAt?.text, content.cameraMake, content.cameraModel, content.lens,
                content.hasLocation, content.originalName, content.sourcePath, content.fileOrientation?.rawValue, content.keptIn,
                content.isVideo ? content.duration : nil, content.motion?.sha256, content.motion?.byteCount, content.motion?.mediaType,
                content.motion?.duration, content.motion?.sourcePath, isApart])
        notePhotosAdded()
        return (try photo(PhotoID(rawValue: db.lastInsertedRowID)), true)
    }

    /// The photo of these bytes that an import joins, or nil and whether the
    /// new one is made apart: the album's own photo of them, else the first
    /// the principal can see; none seen while some exist is a photo apart.
    private func photoToJoin(_ sha256: Data, for album: AlbumID?) throws -> (Photo?, isApart: Bool) {
        let candidates = try photos(sha256: sha256)
        guard !candidates.isEmpty else { return (nil, false) }
        if candidates.count > 1, let album,
            let held = try Int64.fetchOne(
                db, cachedSQL: "SELECT photo_id FROM album_item WHERE album_id = ? AND photo_id IN (SELECT id FROM photo WHERE sha256 = ?)",
                arguments: [album, sha256])
        {
            return (candidates.first { $0.id.rawValue == held }, false)
        }
        for candidate in candidates where try canSee(candidate.id) { return (candidate, false) }
        return (nil, true)
    }
}

extension LibraryWriter {
    /// Records what a newer albums reads from a photo's bytes (its
    /// orientation, capture date, camera, lens and whether it records a
    /// place) and takes it off the list of photos whose facts are outdated.
    ///
    /// Only for facts read from bytes whose SHA-256 is the photo's. A photo
    /// shown as its organizer turned it keeps that turn: the file's
    /// orientation read now is its `file_orientation`.
    public func refreshFacts(of id: PhotoID, to facts: ImageFacts) throws {
        try db.execute(
            cachedSQL: """
                UPDATE photo SET orientation = CASE WHEN file_orientation IS NULL THEN ?1 ELSE orientation END,
                    file_orientation = CASE WHEN file_orientation IS NULL OR orientation = ?1 THEN NULL ELSE ?1 END,
                    captured_at = ?2, camera_make = ?3, camera_model = ?4, lens = ?5, has_location = ?6 WHERE id = ?7
                """,
            arguments: [facts.orientation.rawValue, facts.capturedAt?.text, facts.cameraMake, facts.cameraModel, facts.lens, facts.hasLocation, id])
        // What searches find changed: the timeline and smart albums read again, as after an import.
        notePhotosAdded()
        try markFactsCurrent(of: id)
    }

    /// Takes a photo off the list of photos whose facts are outdated, with
    /// its facts unchanged: its source is gone or holds other bytes.
    public func markFactsCurrent(of id: PhotoID) throws {
        try db.execute(cachedSQL: "DELETE FROM photo_facts_outdated WHERE photo_id = ?", arguments: [id])
    }
}

extension LibraryWriter {
    /// Records where a photo's bytes are now (after ``LibraryReader/photo(_:)``'s
    /// source moved). Only for a file whose SHA-256 is the photo's.
    public func setSource(of id: PhotoID, to path: String) throws {
        try db.execute(cachedSQL: "UPDATE photo SET source_path = ? WHERE id = ?", arguments: [path, id])
    }
}
