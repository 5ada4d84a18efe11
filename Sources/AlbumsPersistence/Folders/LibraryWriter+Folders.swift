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
        let name = AlbumName.normalized(name)
        try FolderName.validate(name)
        let slot = try slot(for: placement, moving: nil) { try requireCreating(in: $0) }
        try requireUnlocked(slot.parent)
        try requireFreeName(name, in: slot.parent, besides: nil)
        let key = try siblingKey(forIndex: slot.index, in: slot.parent?.id, excluding: nil)
        try db.execute(
            cachedSQL: "INSERT INTO folder (name, parent_id, order_key) VALUES (?, ?, ?)", arguments: [name, slot.parent?.id, key])
        let id = FolderID(rawValue: db.lastInsertedRowID)
        try grantOwnershipToCreator(.folder(id))
        let created = try folder(id)
        describeChange("create folder \(LibraryError.quoted(try path(of: created.id)))")
        changes(ofFolder: created, .created)
        noteRearranged(slot.parent)
        return Folder(
            id: created.id, name: created.name, parentID: created.parentID, index: created.index, isLocked: false,
            revision: created.revision + 1)
    }

    /// Gives a folder a new name, unique among its siblings.
    ///
    /// - Throws: ``LibraryError/invalidFolderName(_:reason:)``, ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``.
    public func renameFolder(_ id: FolderID, to name: String) throws {
        let folder = try folder(id)
        try require(.editor, on: folder as Folder?)
        let name = AlbumName.normalized(name)
        try FolderName.validate(name)
        guard name != folder.name else { return }
        let parent = try folder.parentID.map { try self.folder($0) }
        try requireFreeName(name, in: parent, besides: .folder(id))
        describeChange("rename folder \(LibraryError.quoted(try path(of: id))) to \(LibraryError.quoted(name))")
        try db.execute(cachedSQL: "UPDATE folder SET name = ? WHERE id = ?", arguments: [name, id])
        changes(ofFolder: folder, .renamed)
        noteName(name, ofFolder: id)
    }

    /// Moves a folder, with everything in it, in the tree.
    ///
    /// - Throws: ``LibraryError/folderIntoItself(name:destination:)``, ``LibraryError/folderLocked(name:)``
    ///   (the folder it leaves or enters), ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/folderNotFound(_:)``.
    public func moveFolder(_ id: FolderID, to placement: TreePlacement) throws {
        let folder = try folder(id)
        let slot = try slot(for: placement, moving: .folder(folder)) { try requireArranging(.folder(folder), to: $0) }
        let words = "move folder \(LibraryError.quoted(try path(of: id))) \(try describe(slot))"
        guard try place(.folder(folder), at: slot) else { return }
        describeChange(words)
        changes(ofFolder: folder, .moved)
    }

    /// Locks or unlocks a folder. A locked folder refuses every change to
    /// its list of children: nothing enters, leaves or moves inside it.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``.
    public func setFolderLocked(_ id: FolderID, _ isLocked: Bool) throws {
        let folder = try folder(id)
        try require(.editor, on: folder as Folder?)
        guard folder.isLocked != isLocked else { return }
        describeChange("\(isLocked ? "lock" : "unlock") folder \(LibraryError.quoted(try path(of: id)))")
        try db.execute(cachedSQL: "UPDATE folder SET is_locked = ? WHERE id = ?", arguments: [isLocked, id])
        changes(ofFolder: folder, isLocked ? .locked : .unlocked)
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
        let folder = try folder(id)
        let parent = try folder.parentID.map { try self.folder($0) }
        let folderPath = try path(of: id)
        try require(.owner, on: folder as Folder?)
        if contents == .moveToParent { try require(.editor, on: parent) }
        try requireUnlocked(parent)
        let children = try self.children(of: id)
        if !children.isEmpty { try requireUnlocked(folder) }
        switch contents {
        case .refuse:
            if !children.isEmpty {
                let held = try self.contents(of: id)
                throw LibraryError.folderNotEmpty(name: folderPath, albums: held.albums, folders: held.folders)
            }
            describeChange("delete folder \(LibraryError.quoted(folderPath))")
            try dropRow(of: folder)
        case .moveToParent:
            describeChange("delete folder \(LibraryError.quoted(folderPath)), its contents moved up")
            // They take its place, in their order: its key and name free first,
            // its row gone before theirs point elsewhere (checked at commit).
            let nodes: [TreeNode] = try children.map { row, _ in
                switch row {
                case .album(let album): .album(try self.album(album))
                case .folder(let child): .folder(try self.folder(child))
                }
            }
            for node in nodes { try requireFreeName(node.name, in: parent, besides: TreeRow(node), leaving: id) }
            let keys = try siblingKeys(count: children.count, forIndex: folder.index, in: parent?.id, excluding: .folder(id))
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try dropRow(of: folder)
            for (node, key) in zip(nodes, keys) {
                try setPlace(of: TreeRow(node), parent: parent?.id, key: key)
                switch node {
                case .album(let album): changes(of: album) { $0.albumEvents.append(.moved) }
                case .folder(let child): changes(ofFolder: child, .moved)
                }
            }
        case .deleteAlbums:
            let held = try self.contents(of: id)
            describeChange(
                "delete folder \(LibraryError.quoted(folderPath)) with \(LibraryError.counted(held.albums, "album"))"
                    + (held.folders > 0 ? " in \(LibraryError.counted(held.folders + 1, "folder"))" : ""))
            try deleteContents(of: folder, force: force)
            try dropRow(of: folder)
        }
        noteRearranged(parent)
    }

    /// Deletes a folder's own row, and says so.
    private func dropRow(of folder: Folder) throws {
        try db.execute(cachedSQL: "DELETE FROM folder WHERE id = ?", arguments: [folder.id])
        changes(ofFolder: folder, .deleted)
    }

    /// Deletes every album and folder inside `folder`, deepest first.
    private func deleteContents(of folder: Folder, force: Bool) throws {
        for (row, _) in try children(of: folder.id).reversed() {
            switch row {
            case .album(let id):
                try deleteAlbum(id, force: force)
            case .folder(let id):
                let child = try self.folder(id)
                if try !self.children(of: id).isEmpty { try requireUnlocked(child) }
                try deleteContents(of: child, force: force)
                try dropRow(of: child)
            }
        }
    }
}
