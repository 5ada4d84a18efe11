import GRDB

extension LibraryWriter {
    /// Makes `kind` the place new copies of originals go, reusing the
    /// library's record of it if it was chosen before. Copies already kept
    /// stay where they are until they are moved (``keep(_:in:)``).
    ///
    /// Outside the history: it changes no album, and undoing it would
    /// strand copies.
    ///
    /// - Returns: The place, now current.
    /// - Throws: ``LibraryError/forbidden(reason:)``, ``LibraryError/constraintViolated(detail:)``
    ///   for a place the schema refuses (a relative folder, an endpoint that is no URL).
    @discardableResult
    public func chooseStoragePlace(_ kind: StoragePlace.Kind) throws -> StoragePlace {
        try requireKeepingOriginals()
        let (kindName, location, endpoint, region, prefix): (String, String, String?, String?, String) =
            switch kind {
            case .folder(let path): ("folder", path, nil, nil, "")
            case .bucket(let bucket): ("bucket", bucket.name, bucket.endpoint, bucket.region, bucket.prefix)
            }
        if let current = try currentStoragePlace(), current.kind == kind { return current }
        // Chosen again: the old record moves to the front, so its copies count as current.
        let old = try StoragePlaceID.fetchOne(
            db, sql: "SELECT id FROM storage_place WHERE kind = ? AND location = ? AND endpoint IS ? AND region IS ? AND prefix = ?",
            arguments: [kindName, location, endpoint, region, prefix])
        try db.execute(
            sql: "INSERT INTO storage_place (kind, location, endpoint, region, prefix) VALUES (?, ?, ?, ?, ?)",
            arguments: [kindName, location, endpoint, region, prefix])
        let id = StoragePlaceID(rawValue: db.lastInsertedRowID)
        if let old {
            try db.execute(sql: "UPDATE photo SET kept_in = ? WHERE kept_in = ?", arguments: [id, old])
            try db.execute(sql: "DELETE FROM storage_place WHERE id = ?", arguments: [old])
        }
        guard let place = try currentStoragePlace() else { throw LibraryError.constraintViolated(detail: "storage place \(id) vanished") }
        return place
    }

    /// Records that `place` holds a verified copy of `photo`'s bytes.
    ///
    /// - Throws: ``LibraryError/photoNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    public func keep(_ photo: PhotoID, in place: StoragePlaceID) throws {
        try requireKeepingOriginals()
        _ = try self.photo(photo)
        try db.execute(cachedSQL: "UPDATE photo SET kept_in = ? WHERE id = ?", arguments: [place, photo])
    }
}
