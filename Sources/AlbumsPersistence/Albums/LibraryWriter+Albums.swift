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
        try insertAlbum(try checkAlbumCreation(named: name, placement: placement))
    }

    /// Writes a checked creation; the album as it stands once committed.
    func insertAlbum(_ change: TreeChange) throws -> Album {
        try apply(change)
        guard let created = change.createdAlbum else { throw LibraryError.constraintViolated(detail: "a creation that created nothing") }
        let album = try album(created.id)
        return Album(
            id: album.id, name: album.name, parentID: album.parentID, index: album.index, isLocked: album.isLocked,
            revision: album.revision + 1, itemCount: 0, placeholderCount: 0, isSmart: album.isSmart, savedSearch: album.savedSearch)
    }

    /// Gives an album a new name.
    ///
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``,
    ///   ``LibraryError/albumNameTaken(_:)``, ``LibraryError/albumNotFound(_:)``.
    public func renameAlbum(_ id: AlbumID, to name: String) throws {
        try apply(try checkAlbumRename(id, to: name))
    }

    /// Deletes an album and its items; its photos stay in the library.
    ///
    /// - Parameter force: Needed when the album has pending loads; they are cancelled.
    /// - Throws: ``LibraryError/albumLocked(name:)``,
    ///   ``LibraryError/albumHasPendingLoads(name:count:)``, ``LibraryError/albumNotFound(_:)``.
    public func deleteAlbum(_ id: AlbumID, force: Bool = false) throws {
        try apply(try checkAlbumDeletion(id, force: force))
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
        try apply(try checkAlbumMove(id, to: placement))
    }

    /// Locks or unlocks an album. A locked album refuses every change to its items.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func setAlbumLocked(_ id: AlbumID, _ isLocked: Bool) throws {
        try apply(try checkAlbumLock(id, isLocked))
    }
}
