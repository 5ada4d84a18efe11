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
    ///   - index: Its 0-based place at the top level; nil appends it.
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``,
    ///   ``LibraryError/albumNameTaken(_:)``, ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``.
    @discardableResult
    public func createAlbum(named name: String, at index: Int? = nil) throws -> Album {
        try createAlbum(named: name, placement: index.map { .position($0) } ?? .into(nil))
    }

    /// Creates an empty album where `placement` says, in a folder or at the top level.
    ///
    /// ```swift
    /// try library.write { try $0.createAlbum(named: "Lisbon", placement: .into(.path("Travel/2026"))) }
    /// ```
    ///
    /// - Throws: as ``createAlbum(named:at:)``, and ``LibraryError/folderNotFound(_:)``,
    ///   ``LibraryError/nameTakenInFolder(_:folder:)``, ``LibraryError/folderLocked(name:)``.
    @discardableResult
    public func createAlbum(named name: String, placement: TreePlacement) throws -> Album {
        try insertAlbum(named: name, placement: placement, search: nil)
    }

    /// A new album, or with `search` a smart one (``createSmartAlbum(named:placement:search:)``).
    func insertAlbum(named name: String, placement: TreePlacement, search: PhotoSearch?) throws -> Album {
        let name = AlbumName.normalized(name)
        try AlbumName.validate(name)
        // Who may create there first; then the library's rules, the unique name first among them.
        let slot = try slot(for: placement, moving: nil) { parent in
            try requireCreating(in: parent)
            if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album WHERE name = ?", arguments: [name]) == true {
                throw LibraryError.albumNameTaken(name)
            }
        }
        try requireUnlocked(slot.parent)
        try requireFreeName(name, in: slot.parent, besides: nil)
        let key = try siblingKey(forIndex: slot.index, in: slot.parent?.id, excluding: nil)
        let kind = search == nil ? "album" : "smart album"
        describeChange("create \(kind) \(LibraryError.quoted(name))\(slot.parent == nil ? "" : " in " + LibraryError.quoted(try path(of: slot.parent!.id)))")
        try db.execute(
            cachedSQL: "INSERT INTO album (name, parent_id, order_key, search) VALUES (?, ?, ?, ?)",
            arguments: [name, slot.parent?.id, key, search?.storedJSON])
        let id = AlbumID(rawValue: db.lastInsertedRowID)
        try grantOwnershipToCreator(.album(id))
        let created = try album(id)
        changes(of: created) { $0.albumEvents.append(.created) }
        noteRearranged(slot.parent)
        // As it stands once committed: its first revision.
        return Album(
            id: created.id, name: created.name, parentID: created.parentID, index: created.index, isLocked: created.isLocked,
            revision: created.revision + 1, itemCount: 0, placeholderCount: 0, isSmart: search != nil, savedSearch: search)
    }

    /// Gives an album a new name.
    ///
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``,
    ///   ``LibraryError/albumNameTaken(_:)``, ``LibraryError/albumNotFound(_:)``.
    public func renameAlbum(_ id: AlbumID, to name: String) throws {
        let current = try album(id)
        try require(.editor, on: current)
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
        try require(.owner, on: album)
        // A smart album is deleted as any album is: only a lock keeps one.
        if album.isLocked { throw LibraryError.albumLocked(name: album.name) }
        let parent = try album.parentID.map { try folder($0) }
        try requireUnlocked(parent)
        if album.placeholderCount > 0 && !force {
            throw LibraryError.albumHasPendingLoads(name: album.name, count: album.placeholderCount)
        }
        let items = try items(in: id)
        describeChange("delete album \(LibraryError.quoted(album.name)) (\(LibraryError.counted(items.count, "item")))")
        try db.execute(cachedSQL: "DELETE FROM album WHERE id = ?", arguments: [id])
        changes(of: album) { changes in
            for item in items { changes.recordRemoval(at: item.index, of: item.id) }
            changes.albumEvents.append(.deleted)
        }
        noteRearranged(parent)
    }

    /// Moves an album to another place among its parent's children.
    ///
    /// - Parameter index: The album's 0-based place afterwards.
    /// - Throws: ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/albumNotFound(_:)``,
    ///   ``LibraryError/folderLocked(name:)``.
    public func moveAlbum(_ id: AlbumID, to index: Int) throws {
        try moveAlbum(id, to: .position(index))
    }

    /// Moves an album in the tree: into a folder or to the top level, at a
    /// place or next to an album or folder.
    ///
    /// ```swift
    /// try library.write { try $0.moveAlbum(lisbon.id, to: .into(.path("Travel/2026"))) }
    /// ```
    ///
    /// - Throws: ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/folderNotFound(_:)``,
    ///   ``LibraryError/folderLocked(name:)`` (the folder it leaves or enters),
    ///   ``LibraryError/nameTakenInFolder(_:folder:)`` (a folder of its name there).
    public func moveAlbum(_ id: AlbumID, to placement: TreePlacement) throws {
        let album = try album(id)
        let slot = try slot(for: placement, moving: .album(album)) { try requireArranging(.album(album), to: $0) }
        let words = "move album \(LibraryError.quoted(album.name)) \(try describe(slot))"
        guard try place(.album(album), at: slot) else { return }
        describeChange(words)
        changes(of: album) { $0.albumEvents.append(.moved) }
    }

    /// Locks or unlocks an album. A locked album refuses every change to its items.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func setAlbumLocked(_ id: AlbumID, _ isLocked: Bool) throws {
        let album = try album(id)
        try require(.editor, on: album)
        guard album.isLocked != isLocked else { return }
        describeChange("\(isLocked ? "lock" : "unlock") album \(LibraryError.quoted(album.name))")
        try db.execute(cachedSQL: "UPDATE album SET is_locked = ? WHERE id = ?", arguments: [isLocked, id])
        changes(of: album) { $0.albumEvents.append(isLocked ? .locked : .unlocked) }
    }
}
