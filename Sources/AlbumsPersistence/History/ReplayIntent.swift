import GRDB

/// What an undo or redo would do to the tree and to albums' items, read
/// from the entry's steps before any of them is replayed, so that the
/// replay's rights are checked first, as an operation's are: who asks,
/// what they see, what they may do, and only then the replay's own rules.
struct ReplayIntent {
    /// An album or folder as the replay leaves it.
    struct Placement: Equatable {
        let name: String
        let parentID: FolderID?
        let isLocked: Bool
    }

    /// The albums the replay creates, deletes or changes: each as it leaves
    /// it (nil: gone), from the entry's oldest step of that album.
    private(set) var albums: [AlbumID: Placement?] = [:]
    /// The folders the replay creates, deletes or changes, the same way.
    private(set) var folders: [FolderID: Placement?] = [:]
    /// The albums whose items the replay inserts, removes or moves: where
    /// the items are now, and where they go back to.
    private(set) var albumsOfItems: Set<AlbumID> = []

    /// The intent of replaying steps `first`…`last` backwards.
    init(steps first: Int64, through last: Int64, in db: Database) throws {
        albumsOfItems = try Self.albumsOfItems(steps: first, through: last, in: db)
        // The tree: a handful of rows. The oldest step of a node says how it stood before the entry.
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT action, row_id, name, parent_id, is_locked FROM history_step
                WHERE id BETWEEN ? AND ? AND action BETWEEN ? AND ? ORDER BY id
                """, arguments: [first, last, HistoryReplay.Action.albumInserted.rawValue, HistoryReplay.Action.folderChanged.rawValue])
        for row in rows {
            guard let action = HistoryReplay.Action(rawValue: row["action"]) else { continue }
            let id: Int64 = row["row_id"]
            let placement: Placement? =
                switch action {
                case .albumInserted, .folderInserted: nil
                default: Placement(name: row["name"], parentID: (row["parent_id"] as Int64?).map(FolderID.init(rawValue:)), isLocked: row["is_locked"])
                }
            switch action {
            case .albumInserted, .albumDeleted, .albumChanged:
                if !albums.keys.contains(AlbumID(rawValue: id)) { albums[AlbumID(rawValue: id)] = placement }
            default:
                if !folders.keys.contains(FolderID(rawValue: id)) { folders[FolderID(rawValue: id)] = placement }
            }
        }
    }
}

extension LibraryWriter {
    /// Refuses an undo or redo unless the principal holds the rights of
    /// the operations it amounts to: undoing a creation is a deletion (an
    /// owner's), undoing a move is a move (out of where the node is, into
    /// where it goes back), a rename or a lock an editor's, and items an
    /// editor's of their albums; and an entry they see in the history. The
    /// refusal names only what the principal sees.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``.
    func requireReplaying(_ entry: HistoryEntry, steps first: Int64, through last: Int64, verb: String) throws {
        // The holder and admins replay anything: no steps are read for them.
        guard rights != nil, !principal.holdsEveryRight else { return }
        let intent = try ReplayIntent(steps: first, through: last, in: db)
        let change = verb == "redo" ? "the change you undid last" : "your latest change"
        let hidden = LibraryError.forbidden(reason: "cannot \(verb) \(change): it changed albums or folders you may not change")
        // An entry naming an album they cannot see is not theirs to replay,
        // nor one to folders alone (an admin's); an album it names that is
        // gone comes back only where they may create it (checked below).
        guard !entry.albums.isEmpty else { throw hidden }
        let visible = try visibleAlbumIDs() ?? []
        for mention in entry.albums where !visible.contains(mention.id) {
            if try exists(mention.id) { throw hidden }
        }
        do {
            for album in intent.albumsOfItems.sorted() where try exists(album) {
                try require(.editor, on: try self.album(album))
            }
            for (id, after) in intent.albums.sorted(by: { $0.key < $1.key }) {
                let now = try exists(id) ? try album(id) : nil
                try requireReplaying(now.map(TreeNode.album), to: after, hidden: hidden, in: intent)
            }
            for (id, after) in intent.folders.sorted(by: { $0.key < $1.key }) {
                let now = try exists(id) ? try folder(id) : nil
                try requireReplaying(now.map(TreeNode.folder), to: after, hidden: hidden, in: intent)
            }
        } catch LibraryError.albumNotFound, LibraryError.folderNotFound {
            throw hidden
        } catch LibraryError.forbidden(let reason) where reason != hidden.forbiddenReason {
            throw LibraryError.forbidden(reason: "cannot \(verb) \(change): \(reason)")
        }
    }

    private func exists(_ album: AlbumID) throws -> Bool {
        try Row.fetchOne(db, cachedSQL: "SELECT 1 FROM album WHERE id = ?", arguments: [album]) != nil
    }

    private func exists(_ folder: FolderID) throws -> Bool {
        try Row.fetchOne(db, cachedSQL: "SELECT 1 FROM folder WHERE id = ?", arguments: [folder]) != nil
    }

    /// The rights of putting `node` (nil: it does not exist now) as `after` says (nil: gone).
    private func requireReplaying(_ node: TreeNode?, to after: ReplayIntent.Placement?, hidden: LibraryError, in intent: ReplayIntent) throws {
        switch (node, after) {
        case (nil, nil):
            return
        case (nil, let after?):
            // A creation: the folder it comes back into must be one they add to.
            guard try roleAfterReplay(of: after.parentID, intent: intent) ?? .viewer >= .editor else { throw hidden }
        case (let node?, nil):
            try requireRole(.owner, on: node)
        case (let node?, let after?):
            let (name, isLocked) = node.nameAndLock
            if after.name != name || after.isLocked != isLocked { try requireRole(.editor, on: node) }
            if after.parentID != node.parentID || (after.name == name && after.isLocked == isLocked) {
                let origin = try node.parentID.map { try folder($0) }
                if let destination = after.parentID, try !exists(destination) {
                    // Into a folder the replay brings back: as a creation there.
                    if try roleOf(node) != .owner { try require(.editor, on: origin) }
                    guard try roleAfterReplay(of: destination, intent: intent) ?? .viewer >= .editor else { throw hidden }
                } else {
                    try requireArranging(node, from: origin, to: try after.parentID.map { try folder($0) })
                }
            }
        }
    }

    private func roleOf(_ node: TreeNode) throws -> Role? {
        switch node {
        case .album(let album): try role(on: album)
        case .folder(let folder): try role(on: folder)
        }
    }

    private func requireRole(_ needed: Role, on node: TreeNode) throws {
        switch node {
        case .album(let album): try require(needed, on: album)
        case .folder(let folder): try require(needed, on: folder as Folder?)
        }
    }

    /// The principal's role in `folder` as the replay leaves the tree (nil
    /// folder: the top level, an admin's): a folder the replay brings back
    /// has lost its own grants, so its role is the one above it.
    private func roleAfterReplay(of folder: FolderID?, intent: ReplayIntent, depth: Int = 0) throws -> Role? {
        guard let folder, depth < 1_000 else { return nil }
        if let placement = intent.folders[folder] {
            guard let placement else { return nil }
            return try roleAfterReplay(of: placement.parentID, intent: intent, depth: depth + 1)
        }
        return try exists(folder) ? try role(on: try self.folder(folder)) : nil
    }
}

private extension TreeNode {
    var nameAndLock: (String, Bool) {
        switch self {
        case .album(let album): (album.name, album.isLocked)
        case .folder(let folder): (folder.name, folder.isLocked)
        }
    }
}

private extension LibraryError {
    var forbiddenReason: String? {
        if case .forbidden(let reason) = self { reason } else { nil }
    }
}

extension ReplayIntent {
    /// The albums whose items steps `first`…`last` insert, remove or move:
    /// where the items were, and where they are now. One query whatever
    /// their number (an undone import may have millions).
    static func albumsOfItems(steps first: Int64, through last: Int64, in db: Database) throws -> Set<AlbumID> {
        Set(
            try AlbumID.fetchAll(
                db,
                sql: """
                    SELECT album_id FROM history_step WHERE id BETWEEN ?1 AND ?2 AND action IN (2, 3) AND album_id IS NOT NULL
                    UNION SELECT album_id FROM album_item
                        WHERE id IN (SELECT row_id FROM history_step WHERE id BETWEEN ?1 AND ?2 AND action IN (1, 3))
                    """, arguments: [first, last]))
    }
}
