import GRDB

extension LibraryWriter {
    /// Creates an empty album.
    ///
    /// ```swift
    /// let trip = try library.write { try $0.createAlbum(named: "Trip", at: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: Unique, not empty or invisible, without control or
    ///     bidirectional control characters, not `id`; stored in Unicode NFC.
    ///   - index: Its 0-based place in the list of albums; nil appends it.
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``,
    ///   ``LibraryError/albumNameTaken(_:)``, ``LibraryError/albumIndexOutOfRange(index:valid:)``.
    @discardableResult
    public func createAlbum(named name: String, at index: Int? = nil) throws -> Album {
        let name = AlbumName.normalized(name)
        try AlbumName.validate(name)
        if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album WHERE name = ?", arguments: [name]) == true {
            throw LibraryError.albumNameTaken(name)
        }
        let count = try albumCount()
        let key = try albumKey(forIndex: index ?? count, count: count, excluding: nil)
        describeChange("create album \(LibraryError.quoted(name))")
        try db.execute(cachedSQL: "INSERT INTO album (name, order_key) VALUES (?, ?)", arguments: [name, key])
        let created = try album(AlbumID(rawValue: db.lastInsertedRowID))
        changes(of: created) { $0.albumEvents.append(.created) }
        // As it stands once committed: its first revision.
        return Album(
            id: created.id, name: created.name, index: created.index, isLocked: created.isLocked, revision: created.revision + 1,
            itemCount: 0, placeholderCount: 0)
    }

    /// Gives an album a new name.
    ///
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``,
    ///   ``LibraryError/albumNameTaken(_:)``, ``LibraryError/albumNotFound(_:)``.
    public func renameAlbum(_ id: AlbumID, to name: String) throws {
        let current = try album(id)
        let name = AlbumName.normalized(name)
        try AlbumName.validate(name)
        guard name != current.name else { return }
        if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album WHERE name = ?", arguments: [name]) == true {
            throw LibraryError.albumNameTaken(name)
        }
        describeChange("rename album \(LibraryError.quoted(current.name)) to \(LibraryError.quoted(name))")
        try db.execute(cachedSQL: "UPDATE album SET name = ? WHERE id = ?", arguments: [name, id])
        changes(of: current) { changes in
            changes.albumName = name
            changes.albumEvents.append(.renamed)
        }
    }

    /// Deletes an album and its items; its photos stay in the library.
    ///
    /// - Parameter force: Needed when the album has pending loads; they are cancelled.
    /// - Throws: ``LibraryError/albumLocked(name:)``,
    ///   ``LibraryError/albumHasPendingLoads(name:count:)``, ``LibraryError/albumNotFound(_:)``.
    public func deleteAlbum(_ id: AlbumID, force: Bool = false) throws {
        let album = try album(id)
        try requireUnlocked(album)
        if album.placeholderCount > 0 && !force {
            throw LibraryError.albumHasPendingLoads(name: album.name, count: album.placeholderCount)
        }
        let items = try items(in: id)
        describeChange("delete album \(LibraryError.quoted(album.name)) (\(Self.counted(items.count, "item")))")
        try db.execute(cachedSQL: "DELETE FROM album WHERE id = ?", arguments: [id])
        changes(of: album) { changes in
            for item in items { changes.recordRemoval(at: item.index, of: item.id) }
            changes.albumEvents.append(.deleted)
        }
    }

    /// Moves an album to another place in the list of albums.
    ///
    /// - Parameter index: The album's 0-based place afterwards.
    /// - Throws: ``LibraryError/albumIndexOutOfRange(index:valid:)``, ``LibraryError/albumNotFound(_:)``.
    public func moveAlbum(_ id: AlbumID, to index: Int) throws {
        let album = try album(id)
        let count = try albumCount()
        guard index != album.index else {
            guard (0..<count).contains(index) else {
                throw LibraryError.albumIndexOutOfRange(index: index, valid: 0..<count)
            }
            return
        }
        let key = try albumKey(forIndex: index, count: count - 1, excluding: id)
        describeChange("move album \(LibraryError.quoted(album.name)) to position \(index + 1)")
        try db.execute(cachedSQL: "UPDATE album SET order_key = ? WHERE id = ?", arguments: [key, id])
        changes(of: album) { $0.albumEvents.append(.moved) }
    }

    /// Locks or unlocks an album. A locked album refuses every change to its items.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func setAlbumLocked(_ id: AlbumID, _ isLocked: Bool) throws {
        let album = try album(id)
        guard album.isLocked != isLocked else { return }
        describeChange("\(isLocked ? "lock" : "unlock") album \(LibraryError.quoted(album.name))")
        try db.execute(cachedSQL: "UPDATE album SET is_locked = ? WHERE id = ?", arguments: [isLocked, id])
        changes(of: album) { $0.albumEvents.append(isLocked ? .locked : .unlocked) }
    }

    /// A key that puts an album at `index` of the list without `excluded`,
    /// respacing every album's key if the gap there is used up (albums are few).
    private func albumKey(forIndex index: Int, count: Int, excluding excluded: AlbumID?) throws -> Int64 {
        guard (0...count).contains(index) else {
            throw LibraryError.albumIndexOutOfRange(index: index, valid: 0..<count + 1)
        }
        func neighbourKeys() throws -> (Int64?, Int64?) {
            let keys = try Int64.fetchAll(
                db, cachedSQL: "SELECT order_key FROM album WHERE id IS NOT ? ORDER BY order_key LIMIT 2 OFFSET ?",
                arguments: [excluded, max(index - 1, 0)])
            return index == 0 ? (nil, keys.first) : (keys.first, keys.dropFirst().first)
        }
        var (lower, upper) = try neighbourKeys()
        if let key = OrderKeySpace.segments.keys(count: 1, after: lower, before: upper)?.first {
            return key
        }
        let ids = try AlbumID.fetchAll(db, cachedSQL: "SELECT id FROM album WHERE id IS NOT ? ORDER BY order_key", arguments: [excluded])
        try db.execute(cachedSQL: "UPDATE album SET order_key = order_key + ?", arguments: [OrderKeySpace.segments.limit])
        for (id, key) in zip(ids, OrderKeySpace.segments.layout(count: ids.count)) {
            try db.execute(cachedSQL: "UPDATE album SET order_key = ? WHERE id = ?", arguments: [key, id])
        }
        (lower, upper) = try neighbourKeys()
        guard let key = OrderKeySpace.segments.keys(count: 1, after: lower, before: upper)?.first else {
            throw LibraryError.corrupt(path: path, detail: "no room in the album order after respacing")
        }
        return key
    }
}
