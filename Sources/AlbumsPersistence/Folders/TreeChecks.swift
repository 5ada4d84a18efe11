import GRDB

// Every rule of the tree, checked with reads only: a proposal runs these in
// a read transaction (no write lock, a read-only library will do), and a
// write runs the same check and then applies it (TreeChange.swift). Rights
// come first, then the rules that could tell of what the asker cannot see.

extension LibraryReader {
    /// Checks a new album (with `search`, a smart one) where `placement` says.
    ///
    /// - Throws: ``LibraryError``: the name (invalid, taken), the place
    ///   (not found, locked, out of range), rights, a person's smart album limit.
    package func checkAlbumCreation(named name: String, placement: TreePlacement, search: PhotoSearch? = nil) throws -> TreeChange {
        if let search {
            if case .inAlbum(let id) = search.membership { _ = try album(id) }
            try requireRoomForSmartAlbum()
        }
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
        let album = Album(
            id: AlbumID(rawValue: try nextID(in: "album")), name: name, parentID: slot.parent?.id, index: slot.index, isLocked: false,
            revision: 0, itemCount: 0, placeholderCount: 0, isSmart: search != nil, savedSearch: search)
        let place = try slot.parent.map { " in " + LibraryError.quoted(try path(of: $0.id)) } ?? ""
        return TreeChange(
            .createAlbum(album), records: [.album(album, .event(.created))] + rearranging(slot.parent),
            words: "create \(search == nil ? "album" : "smart album") \(LibraryError.quoted(name))\(place)", checkedBy: self)
    }

    /// Checks a new name for an album.
    ///
    /// - Throws: ``LibraryError/invalidAlbumName(_:reason:)``, ``LibraryError/albumNameTaken(_:)``,
    ///   ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkAlbumRename(_ id: AlbumID, to name: String) throws -> TreeChange {
        let album = try album(id)
        try require(.editor, on: album)
        let name = AlbumName.normalized(name)
        try AlbumName.validate(name)
        guard name != album.name else { return unchanged() }
        if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album WHERE name = ?", arguments: [name]) == true {
            throw LibraryError.albumNameTaken(name)
        }
        return TreeChange(
            .renameAlbum(id, to: name), records: [.album(album, .renamed(name))],
            words: "rename album \(LibraryError.quoted(album.name)) to \(LibraryError.quoted(name))", checkedBy: self)
    }

    /// Checks deleting an album with its items; `force` allows pending loads, which it cancels.
    ///
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/albumHasPendingLoads(name:count:)``,
    ///   ``LibraryError/folderLocked(name:)``, ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkAlbumDeletion(_ id: AlbumID, force: Bool) throws -> TreeChange {
        let album = try album(id)
        return TreeChange(
            .delete([.album(id)]), records: try albumDeletionRecords(album, force: force),
            words: "delete album \(LibraryError.quoted(album.name)) (\(LibraryError.counted(album.itemCount, "item")))", checkedBy: self)
    }

    /// Checks moving an album in the tree.
    ///
    /// - Throws: ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/folderNotFound(_:)``,
    ///   ``LibraryError/folderLocked(name:)``, ``LibraryError/nameTakenInFolder(_:folder:)``, ``LibraryError/forbidden(reason:)``.
    package func checkAlbumMove(_ id: AlbumID, to placement: TreePlacement) throws -> TreeChange {
        let album = try album(id)
        return try checkPlacing(.album(album), placement, words: "move album \(LibraryError.quoted(album.name))")
    }

    /// Checks locking (true) or unlocking an album.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkAlbumLock(_ id: AlbumID, _ isLocked: Bool) throws -> TreeChange {
        let album = try album(id)
        try require(.editor, on: album)
        guard album.isLocked != isLocked else { return unchanged() }
        return TreeChange(
            .lockAlbum(id, isLocked), records: [.album(album, .event(isLocked ? .locked : .unlocked))],
            words: "\(isLocked ? "lock" : "unlock") album \(LibraryError.quoted(album.name))", checkedBy: self)
    }

    /// Checks choosing `photo` as an album's cover (nil: its first photo again).
    ///
    /// - Throws: ``LibraryError/photoNotInAlbum(_:album:)``, ``LibraryError/smartAlbumCover(name:)``,
    ///   ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkAlbumCover(_ id: AlbumID, to photo: PhotoID?) throws -> TreeChange {
        let album = try album(id)
        try require(.editor, on: album)
        if album.isSmart { throw LibraryError.smartAlbumCover(name: album.name) }
        if let photo,
            try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album_item WHERE album_id = ? AND photo_id = ?", arguments: [id, photo]) != true
        {
            throw LibraryError.photoNotInAlbum(photo, album: album.name)
        }
        guard photo != album.chosenCoverID else { return unchanged() }
        let words =
            photo.map { "use photo id:\($0) as the cover of album \(LibraryError.quoted(album.name))" }
            ?? "show the first photo as the cover of album \(LibraryError.quoted(album.name))"
        return TreeChange(.setCover(id, photo), records: [.album(album, .event(.coverChanged))], words: words, checkedBy: self)
    }

    /// Checks writing an album's description (nil or only white space
    /// clears it): an editor's to write, a locked album's too (a lock
    /// keeps its items in order, not its words).
    ///
    /// - Throws: ``LibraryError/invalidWords(field:reason:)``, ``LibraryError/albumNotFound(_:)``,
    ///   ``LibraryError/forbidden(reason:)``.
    package func checkAlbumDescription(_ id: AlbumID, to text: String?) throws -> TreeChange {
        let album = try album(id)
        try require(.editor, on: album)
        var edit = ItemMarksEdit()
        edit.caption = .set(text)
        let description: String?
        do {
            guard case .set(let checked) = try edit.checked().caption else { return unchanged() }
            description = checked
        } catch LibraryError.invalidWords(_, let reason) {
            throw LibraryError.invalidWords(field: "description", reason: reason)
        }
        guard description != album.description else { return unchanged() }
        let words = description == nil ? "clear the description of album \(LibraryError.quoted(album.name))"
            : "describe album \(LibraryError.quoted(album.name))"
        return TreeChange(.setDescription(id, description), records: [.album(album, .event(.described))], words: words, checkedBy: self)
    }

    /// Checks making a smart album an ordinary one holding the photos it
    /// shows the principal now, newest first; unchanged for an ordinary album.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)`` (it takes an
    ///   editor; showing others what they cannot see takes its owner), ``LibraryError/albumLocked(name:)``.
    package func checkFreeze(_ id: AlbumID) throws -> TreeChange {
        let album = try album(id)
        try require(.editor, on: album)
        guard album.isSmart else { return unchanged() }
        if album.isLocked { throw LibraryError.albumLocked(name: album.name) }
        let (photos, names) = try photosShown(bySmartAlbum: album)
        return TreeChange(
            .freeze(id, photos: photos, names: names), records: [.album(album, .event(.frozen))],
            words: "make an album of smart album \(LibraryError.quoted(album.name)) (\(LibraryError.counted(photos.count, "photo")))",
            insertions: (id, photos.count), checkedBy: self)
    }

    /// Checks a new folder where `placement` says.
    ///
    /// - Throws: ``LibraryError/invalidFolderName(_:reason:)``, ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``, ``LibraryError/folderLocked(name:)``,
    ///   ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``, ``LibraryError/forbidden(reason:)``.
    package func checkFolderCreation(named name: String, placement: TreePlacement) throws -> TreeChange {
        let name = AlbumName.normalized(name)
        try FolderName.validate(name)
        let slot = try slot(for: placement, moving: nil) { try requireCreating(in: $0) }
        try requireUnlocked(slot.parent)
        try requireFreeName(name, in: slot.parent, besides: nil)
        let folder = Folder(
            id: FolderID(rawValue: try nextID(in: "folder")), name: name, parentID: slot.parent?.id, index: slot.index, isLocked: false,
            revision: 0)
        let path = (try slot.parent.map { try self.path(of: $0.id) + "/" } ?? "") + name
        return TreeChange(
            .createFolder(folder), records: [.folder(folder, .created)] + rearranging(slot.parent),
            words: "create folder \(LibraryError.quoted(path))", checkedBy: self)
    }

    /// Checks a new name for a folder, unique among its siblings.
    ///
    /// - Throws: ``LibraryError/invalidFolderName(_:reason:)``, ``LibraryError/nameTakenInFolder(_:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkFolderRename(_ id: FolderID, to name: String) throws -> TreeChange {
        let folder = try folder(id)
        try require(.editor, on: folder as Folder?)
        let name = AlbumName.normalized(name)
        try FolderName.validate(name)
        guard name != folder.name else { return unchanged() }
        try requireFreeName(name, in: try folder.parentID.map { try self.folder($0) }, besides: .folder(id))
        return TreeChange(
            .renameFolder(id, to: name), records: [.folder(folder, .renamed), .folderName(id, name)],
            words: "rename folder \(LibraryError.quoted(try path(of: id))) to \(LibraryError.quoted(name))", checkedBy: self)
    }

    /// Checks moving a folder, with everything in it, in the tree.
    ///
    /// - Throws: ``LibraryError/folderIntoItself(name:destination:)``, ``LibraryError/folderLocked(name:)``,
    ///   ``LibraryError/nameTakenInFolder(_:folder:)``, ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkFolderMove(_ id: FolderID, to placement: TreePlacement) throws -> TreeChange {
        let folder = try folder(id)
        return try checkPlacing(.folder(folder), placement, words: "move folder \(LibraryError.quoted(try path(of: id)))")
    }

    /// Checks locking (true) or unlocking a folder's list of children.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    package func checkFolderLock(_ id: FolderID, _ isLocked: Bool) throws -> TreeChange {
        let folder = try folder(id)
        try require(.editor, on: folder as Folder?)
        guard folder.isLocked != isLocked else { return unchanged() }
        return TreeChange(
            .lockFolder(id, isLocked), records: [.folder(folder, isLocked ? .locked : .unlocked)],
            words: "\(isLocked ? "lock" : "unlock") folder \(LibraryError.quoted(try path(of: id)))", checkedBy: self)
    }

    /// Checks deleting a folder, what it holds kept or deleted as `contents` says.
    ///
    /// - Throws: ``LibraryError/folderNotEmpty(name:albums:folders:)``, ``LibraryError/folderLocked(name:)``
    ///   (it, its parent, or a folder inside it that would change),
    ///   ``LibraryError/nameTakenInFolder(_:folder:)`` (a child's name taken in the parent),
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/albumHasPendingLoads(name:count:)``, ``LibraryError/forbidden(reason:)``.
    package func checkFolderDeletion(_ id: FolderID, contents: FolderContentsOnDelete, force: Bool) throws -> TreeChange {
        let folder = try folder(id)
        let parent = try folder.parentID.map { try self.folder($0) }
        let folderPath = LibraryError.quoted(try path(of: id))
        try require(.owner, on: folder as Folder?)
        if contents == .moveToParent { try require(.editor, on: parent) }
        try requireUnlocked(parent)
        let children = try self.children(of: id).map(\.row)
        if !children.isEmpty { try requireUnlocked(folder) }
        let work: TreeChange.Work
        var records: [TreeChange.Record]
        let words: String
        switch contents {
        case .refuse:
            if !children.isEmpty {
                let held = try self.contents(of: id)
                throw LibraryError.folderNotEmpty(name: try path(of: id), albums: held.albums, folders: held.folders)
            }
            (work, records, words) = (.delete([.folder(id)]), [.folder(folder, .deleted)], "delete folder \(folderPath)")
        case .moveToParent:
            records = [.folder(folder, .deleted)]
            for child in children {
                switch child {
                case .album(let albumID):
                    let album = try album(albumID)
                    try requireFreeName(album.name, in: parent, besides: child, leaving: id)
                    records.append(.album(album, .event(.moved)))
                case .folder(let folderID):
                    let inner = try self.folder(folderID)
                    try requireFreeName(inner.name, in: parent, besides: child, leaving: id)
                    records.append(.folder(inner, .moved))
                }
            }
            work = .dissolve(id, children: children, parent: parent?.id, index: folder.index)
            words = "delete folder \(folderPath), its contents moved up"
        case .deleteAlbums:
            let held = try self.contents(of: id)
            var rows: [TreeRow] = []
            records = try contentDeletionRecords(of: folder, force: force, rows: &rows) + [.folder(folder, .deleted)]
            work = .delete(rows + [.folder(id)])
            words =
                "delete folder \(folderPath) with \(LibraryError.counted(held.albums, "album"))"
                + (held.folders > 0 ? " in \(LibraryError.counted(held.folders + 1, "folder"))" : "")
        }
        return TreeChange(work, records: records + rearranging(parent), words: words, checkedBy: self)
    }

    // MARK: - The rules shared by several changes

    /// Checks putting an album or a folder where `placement` says: rights
    /// on both sides first, then locks on both sides, names among the new
    /// siblings, and that a folder does not go inside itself. Unchanged
    /// when it would stay where it is.
    private func checkPlacing(_ node: TreeNode, _ placement: TreePlacement, words: String) throws -> TreeChange {
        let row = TreeRow(node)
        let slot = try slot(for: placement, moving: node) { try requireArranging(node, to: $0) }
        let words = "\(words) \(try describe(slot))"
        let oldParent = try node.parentID.map { try folder($0) }
        try requireArranging(node, from: oldParent, to: slot.parent)
        if slot.parent?.id == node.parentID && slot.index == node.index { return unchanged() }
        try requireUnlocked(oldParent)
        if slot.parent?.id != node.parentID {
            try requireUnlocked(slot.parent)
            try requireFreeName(node.name, in: slot.parent, besides: row)
            if case .folder(let moving) = node, let destination = slot.parent {
                if try ancestry(of: destination.id).contains(where: { $0.id == moving.id }) {
                    throw LibraryError.folderIntoItself(name: try path(of: moving.id), destination: try path(of: destination.id))
                }
            }
        }
        var records = rearranging(oldParent)
        if slot.parent?.id != oldParent?.id { records += rearranging(slot.parent) }
        switch node {
        case .album(let album): records.append(.album(album, .event(.moved)))
        case .folder(let folder): records.append(.folder(folder, .moved))
        }
        return TreeChange(.place(row, parent: slot.parent?.id, index: slot.index), records: records, words: words, checkedBy: self)
    }

    /// The records of deleting `album`, checked: its owner's, unlocked, in
    /// an unlocked folder, without pending loads unless `force`.
    private func albumDeletionRecords(_ album: Album, force: Bool) throws -> [TreeChange.Record] {
        try require(.owner, on: album)
        // A smart album is deleted as any album is: only a lock keeps one.
        if album.isLocked { throw LibraryError.albumLocked(name: album.name) }
        let parent = try album.parentID.map { try folder($0) }
        try requireUnlocked(parent)
        if album.placeholderCount > 0 && !force {
            throw LibraryError.albumHasPendingLoads(name: album.name, count: album.placeholderCount)
        }
        return [.album(album, .deleted(try items(in: album.id)))] + rearranging(parent)
    }

    /// The records of deleting everything inside `folder`, deepest first,
    /// each deletion checked; the rows to delete are added to `rows` in order.
    private func contentDeletionRecords(of folder: Folder, force: Bool, rows: inout [TreeRow]) throws -> [TreeChange.Record] {
        var records: [TreeChange.Record] = []
        for (row, _) in try children(of: folder.id).reversed() {
            switch row {
            case .album(let id):
                records += try albumDeletionRecords(try album(id), force: force)
            case .folder(let id):
                let child = try self.folder(id)
                if try !children(of: id).isEmpty { try requireUnlocked(child) }
                records += try contentDeletionRecords(of: child, force: force, rows: &rows)
                records.append(.folder(child, .deleted))
            }
            rows.append(row)
        }
        return records
    }

    /// The record that `parent`'s children changed; the top level has none.
    private func rearranging(_ parent: Folder?) -> [TreeChange.Record] {
        parent.map { [.folder($0, .rearranged)] } ?? []
    }

    private func unchanged() -> TreeChange {
        TreeChange(.nothing, records: [], words: "", checkedBy: self)
    }

    /// The id SQLite gives the next row of `table` (AUTOINCREMENT): past
    /// every id it ever gave.
    private func nextID(in table: String) throws -> Int64 {
        let next = try Int64.fetchOne(
            db,
            sql: """
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), coalesce((SELECT max(id) FROM \(table)), 0)) + 1
                """, arguments: [table])
        return next ?? 1
    }
}
