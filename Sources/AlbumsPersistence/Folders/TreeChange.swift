import GRDB

// The one door for changes to the tree: albums and folders as wholes
// (created, renamed, moved, locked, deleted, given a cover, frozen). A
// change is checked by TreeChecks.swift with every record it will make
// foreseen; the write makes exactly those records, so what a proposal
// foresees is what the write reports, by construction.

/// A change to the tree's albums and folders checked against every rule,
/// and what it will record: made only by ``LibraryReader``'s tree checks,
/// written only by the writer that checked it, before anything else is
/// written (``LibraryWriter/apply(_:)-(TreeChange)``).
package struct TreeChange {
    /// The rows a change writes.
    enum Work {
        case createAlbum(Album)
        case createFolder(Folder)
        case renameAlbum(AlbumID, to: String)
        case renameFolder(FolderID, to: String)
        /// An album or a folder to `index` among `parent`'s children without it.
        case place(TreeRow, parent: FolderID?, index: Int)
        case lockAlbum(AlbumID, Bool)
        case lockFolder(FolderID, Bool)
        case setCover(AlbumID, PhotoID?)
        case setDescription(AlbumID, String?)
        /// A smart album made ordinary, holding `photos` (each under its name in `names`).
        case freeze(AlbumID, photos: [PhotoID], names: [PhotoID: String])
        /// Rows deleted in this order: albums (their items go with them) and folders, deepest first.
        case delete([TreeRow])
        /// A folder deleted, its `children` taking its place at `index` of `parent`.
        case dissolve(FolderID, children: [TreeRow], parent: FolderID?, index: Int)
        case nothing
    }

    /// One note of what a change does, in the order it is made: the change
    /// sets are these notes gathered, by the check and again by the write.
    enum Record {
        case album(Album, AlbumNote)
        case folder(Folder, FolderChange.Event)
        case folderName(FolderID, String)
    }

    /// What a change does to one album, as its change set says it.
    enum AlbumNote {
        case event(AlbumChangeSet.AlbumEvent)
        case renamed(String)
        /// Deleted, with its items, which leave from their indexes.
        case deleted([AlbumItem])

        func note(in changes: inout AlbumChangeSet) {
            switch self {
            case .event(let event):
                changes.albumEvents.append(event)
            case .renamed(let name):
                changes.albumName = name
                changes.albumEvents.append(.renamed)
            case .deleted(let items):
                for item in items { changes.recordRemoval(at: item.index, of: item.id) }
                changes.albumEvents.append(.deleted)
            }
        }
    }

    let work: Work
    let records: [Record]
    /// What the history calls it: "rename album 'Trip' to 'Rome'".
    let words: String
    /// The folders ``words`` names by their paths (of those it changes or
    /// places into), for the history to word it for each reader.
    let mentionedFolders: [HistoryEntry.FolderMention]
    /// The albums' change sets it produces, foreseen by the check; a
    /// frozen album's new items have no id yet and read 0.
    package let foreseenChanges: [AlbumChangeSet]
    /// What it does to folders, each folder once, by id.
    package let foreseenFolderChanges: [FolderChange]
    /// Which reader checked it, and how many rows its connection had changed then.
    let checkedBy: ObjectIdentifier
    let checkedAtChange: Int

    /// Whether it changes nothing (a rename to the same name, a lock of a locked album).
    package var isNoOp: Bool { records.isEmpty }

    /// The album a creation makes, as it will stand once committed (its first revision).
    package var createdAlbum: Album? {
        guard case .createAlbum(let album) = work else { return nil }
        return Album(
            id: album.id, name: album.name, parentID: album.parentID, index: album.index, isLocked: false, revision: album.revision + 1,
            itemCount: 0, placeholderCount: 0, isSmart: album.isSmart, savedSearch: album.savedSearch)
    }

    /// The folder a creation makes, as it will stand once committed (its first revision).
    package var createdFolder: Folder? {
        guard case .createFolder(let folder) = work else { return nil }
        return Folder(
            id: folder.id, name: folder.name, parentID: folder.parentID, index: folder.index, isLocked: false, revision: folder.revision + 1)
    }

    init(_ work: Work, records: [Record], words: String, insertions: (AlbumID, Int)? = nil, checkedBy reader: LibraryReader) {
        self.work = work
        self.records = records
        self.words = words
        mentionedFolders = Self.folders(named: words, among: records, by: reader)
        var albums: [AlbumID: AlbumChangeSet] = [:]
        var folders: [FolderID: FolderChange] = [:]
        for record in records {
            switch record {
            case .album(let album, let note):
                var changes = albums[album.id] ?? AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision + 1)
                note.note(in: &changes)
                albums[album.id] = changes
            case .folder(let folder, let event):
                folders[folder.id, default: FolderChange(folderID: folder.id, name: folder.name, revision: folder.revision + 1)].note(event)
            case .folderName(let folder, let name):
                folders[folder]?.name = name
            }
        }
        if case let (album, count)? = insertions {
            // The new items' ids exist only once written: a proposal names none.
            for index in 0..<count { albums[album]?.recordInsertion(at: index, of: AlbumItemID(rawValue: 0)) }
        }
        foreseenChanges = albums.values.sorted { $0.albumID < $1.albumID }
        foreseenFolderChanges = folders.values.sorted { $0.folderID < $1.folderID }
        checkedBy = ObjectIdentifier(reader)
        checkedAtChange = reader.db.totalChangesCount
    }

    /// The folders of `records` whose path, as the words quote paths,
    /// `words` holds: a folder is named by its path from the top level
    /// (TreeChecks), read here before the change is written.
    private static func folders(named words: String, among records: [Record], by reader: LibraryReader) -> [HistoryEntry.FolderMention] {
        var mentions: [HistoryEntry.FolderMention] = []
        for record in records {
            guard case .folder(let folder, _) = record, !mentions.contains(where: { $0.id == folder.id.rawValue }) else { continue }
            // A folder this change creates has no path yet, and is named by the words alone.
            guard let path = try? reader.path(of: folder.id), words.contains(LibraryError.quoted(path)) else { continue }
            mentions.append(HistoryEntry.FolderMention(id: folder.id.rawValue, path: path))
        }
        return mentions
    }
}

extension LibraryWriter {
    /// Writes a tree change this writer checked, before anything else was
    /// written, as one operation of the history in its words, and records
    /// what its check foresaw.
    ///
    /// - Returns: The change sets recorded (a frozen album's new items
    ///   with their ids) and what it did to folders.
    /// - Throws: ``LibraryError/constraintViolated(detail:)`` for a change
    ///   checked by another reader or before another write (a programming
    ///   error: nothing is written), or a failing file.
    @discardableResult
    package func apply(_ change: TreeChange) throws -> (changes: [AlbumChangeSet], folders: [FolderChange]) {
        guard change.checkedBy == ObjectIdentifier(self), change.checkedAtChange == db.totalChangesCount else {
            throw LibraryError.constraintViolated(detail: "a tree change is written only by the transaction that checked it, before any other write")
        }
        if change.isNoOp { return ([], []) }
        let recorded = try recordingOperation(described: change.words, mentioning: change.mentionedFolders) {
            try write(change.work)
            for record in change.records {
                switch record {
                case .album(let album, let note): changes(of: album) { note.note(in: &$0) }
                case .folder(let folder, let event): changes(ofFolder: folder, event)
                case .folderName(let folder, let name): noteName(name, ofFolder: folder)
                }
            }
            if case .freeze(let id, let photos, let names) = change.work, !photos.isEmpty {
                _ = try executeInsertion(of: photos, named: names, into: try album(id), at: 0)
            }
        }.1
        return (recorded, lastOperationFolderChanges)
    }

    private func write(_ work: TreeChange.Work) throws {
        switch work {
        case .createAlbum(let album):
            // The id the check foresaw: AUTOINCREMENT would give it too, and the proposal named it.
            try db.execute(
                cachedSQL: "INSERT INTO album (id, name, parent_id, order_key, search) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    album.id, album.name, album.parentID, try siblingKey(forIndex: album.index, in: album.parentID, excluding: nil),
                    album.savedSearch?.storedJSON,
                ])
            try grantOwnershipToCreator(.album(album.id))
        case .createFolder(let folder):
            try db.execute(
                cachedSQL: "INSERT INTO folder (id, name, parent_id, order_key) VALUES (?, ?, ?, ?)",
                arguments: [folder.id, folder.name, folder.parentID, try siblingKey(forIndex: folder.index, in: folder.parentID, excluding: nil)])
            try grantOwnershipToCreator(.folder(folder.id))
        case .renameAlbum(let id, let name):
            try db.execute(cachedSQL: "UPDATE album SET name = ? WHERE id = ?", arguments: [name, id])
        case .renameFolder(let id, let name):
            try db.execute(cachedSQL: "UPDATE folder SET name = ? WHERE id = ?", arguments: [name, id])
        case .place(let row, let parent, let index):
            try setPlace(of: row, parent: parent, key: try siblingKey(forIndex: index, in: parent, excluding: row))
        case .lockAlbum(let id, let isLocked):
            try db.execute(cachedSQL: "UPDATE album SET is_locked = ? WHERE id = ?", arguments: [isLocked, id])
        case .lockFolder(let id, let isLocked):
            try db.execute(cachedSQL: "UPDATE folder SET is_locked = ? WHERE id = ?", arguments: [isLocked, id])
        case .setCover(let id, let photo):
            try db.execute(cachedSQL: "UPDATE album SET cover_photo_id = ? WHERE id = ?", arguments: [photo, id])
        case .setDescription(let id, let text):
            try db.execute(cachedSQL: "UPDATE album SET description = ? WHERE id = ?", arguments: [text, id])
        case .freeze(let id, _, _):
            try db.execute(cachedSQL: "UPDATE album SET search = NULL WHERE id = ?", arguments: [id])
        case .delete(let rows):
            for row in rows {
                switch row {
                case .album(let id): try db.execute(cachedSQL: "DELETE FROM album WHERE id = ?", arguments: [id])
                case .folder(let id): try db.execute(cachedSQL: "DELETE FROM folder WHERE id = ?", arguments: [id])
                }
            }
        case .dissolve(let id, let children, let parent, let index):
            // The children take its place, in their order: its key and name
            // free first, its row gone before theirs point elsewhere (checked at commit).
            let keys = try siblingKeys(count: children.count, forIndex: index, in: parent, excluding: .folder(id))
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            try db.execute(cachedSQL: "DELETE FROM folder WHERE id = ?", arguments: [id])
            for (row, key) in zip(children, keys) { try setPlace(of: row, parent: parent, key: key) }
        case .nothing:
            break
        }
    }
}
