import GRDB

/// What becomes of what a folder holds when it is deleted.
public enum FolderContentsOnDelete: String, Hashable, Sendable {
    /// Only an empty folder is deleted; one with contents is refused.
    case refuse
    /// Its albums and folders take its place in its parent, in their order.
    case moveToParent = "move"
    /// Its albums and folders are deleted too, at every depth; the photos
    /// stay in the library. Refused if an album is locked or has pending loads.
    case deleteAlbums = "delete"
}

extension LibraryWriter {
    /// Creates an empty folder.
    ///
    /// ```swift
    /// let travel = try library.write { try $0.createFolder(named: "Travel", placement: .into(nil)) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: Unique among the new siblings' names (albums' and folders'),
    ///     with the rules of album names and no '/'; stored in Unicode NFC.
    ///   - placement: Where it goes; `.into(nil)` is the end of the top level.
    /// - Throws: ``LibraryError/invalidFolderName(_:reason:)``, ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``, ``LibraryError/folderLocked(name:)``,
    ///   ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``.
    @discardableResult
    public func createFolder(named name: String, placement: TreePlacement) throws -> Folder {
        let change = try checkFolderCreation(named: name, placement: placement)
        try apply(change)
        guard let created = change.createdFolder else { throw LibraryError.constraintViolated(detail: "a creation that created nothing") }
        let folder = try folder(created.id)
        return Folder(id: folder.id, name: folder.name, parentID: folder.parentID, index: folder.index, isLocked: false, revision: folder.revision + 1)
    }

    /// Gives a folder a new name, unique among its siblings.
    ///
    /// - Throws: ``LibraryError/invalidFolderName(_:reason:)``, ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``.
    public func renameFolder(_ id: FolderID, to name: String) throws {
        try apply(try checkFolderRename(id, to: name))
    }

    /// Moves a folder, with everything in it, in the tree.
    ///
    /// - Throws: ``LibraryError/folderIntoItself(name:destination:)``, ``LibraryError/folderLocked(name:)``
    ///   (the folder it leaves or enters), ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/folderNotFound(_:)``.
    public func moveFolder(_ id: FolderID, to placement: TreePlacement) throws {
        try apply(try checkFolderMove(id, to: placement))
    }

    /// Locks or unlocks a folder. A locked folder refuses every change to
    /// its list of children: nothing enters, leaves or moves inside it.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``.
    public func setFolderLocked(_ id: FolderID, _ isLocked: Bool) throws {
        try apply(try checkFolderLock(id, isLocked))
    }

    /// Deletes a folder; what it holds is kept or deleted as `contents` says.
    /// Photos are never deleted.
    ///
    /// - Parameter force: With ``FolderContentsOnDelete/deleteAlbums``, deletes
    ///   albums with pending loads too, cancelling them.
    /// - Throws: ``LibraryError/folderNotEmpty(name:albums:folders:)``, ``LibraryError/folderLocked(name:)``
    ///   (it, its parent, or a folder inside it that would change),
    ///   ``LibraryError/nameTakenInFolder(_:folder:)`` (a child's name taken in the parent),
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/albumHasPendingLoads(name:count:)``.
    public func deleteFolder(_ id: FolderID, contents: FolderContentsOnDelete, force: Bool = false) throws {
        try apply(try checkFolderDeletion(id, contents: contents, force: force))
    }
}
