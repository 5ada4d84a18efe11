import GRDB

extension LibraryReader {
    /// A folder's place among its siblings: albums before it have a lower
    /// key; a folder sorts before an album of the same key (see ``TreeOrder``).
    static let folderColumns = """
        f.id, f.name, f.parent_id, f.is_locked, f.revision,
        (SELECT count(*) FROM album b WHERE coalesce(b.parent_id, 0) = coalesce(f.parent_id, 0) AND b.order_key < f.order_key)
        + (SELECT count(*) FROM folder g WHERE coalesce(g.parent_id, 0) = coalesce(f.parent_id, 0) AND g.order_key < f.order_key) AS position
        """

    static func folder(from row: Row) -> Folder {
        Folder(
            id: row["id"], name: row["name"], parentID: row["parent_id"], index: row["position"], isLocked: row["is_locked"],
            revision: row["revision"])
    }

    /// The folder with identifier `id`.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``.
    public func folder(_ id: FolderID) throws -> Folder {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.folderColumns) FROM folder f WHERE f.id = ?", arguments: [id])
        else { throw LibraryError.folderNotFound(.id(id)) }
        return Self.folder(from: row)
    }

    /// The folder a reference names.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``.
    /// A folder the principal cannot see is not found, as if it did not exist.
    public func folder(_ reference: FolderReference) throws -> Folder {
        let found: Folder
        switch reference {
        case .id(let id):
            found = try folder(id)
        case .path(let path):
            guard let id = try folderID(atPath: path) else { throw LibraryError.folderNotFound(.path(path)) }
            found = try folder(id)
        }
        guard try rights == nil || role(on: found) != nil else { throw LibraryError.folderNotFound(reference) }
        return found
    }

    /// The folder a reference names, nil for the top level.
    func parent(_ reference: FolderReference?) throws -> Folder? {
        try reference.map { try folder($0) }
    }

    /// The folder at a path of names from the top level ("Travel/2026"), if any.
    /// Names are compared in Unicode NFC, as album names are.
    ///
    /// A principal who does not see every folder names folders by their
    /// paths in the tree as they see it (a folder shared with them inside
    /// one they cannot see stands at their top level): a path through a
    /// folder they cannot see names nothing, exactly as a path that does not exist.
    func folderID(atPath path: String) throws -> FolderID? {
        let names = path.split(separator: "/", omittingEmptySubsequences: true).map { AlbumName.normalized(String($0)) }
        guard !names.isEmpty, !names.contains(where: { $0.unicodeScalars.contains(where: \.isControlCharacter) }) else { return nil }
        if let seen = try pathsAsSeen() {
            let wanted = names.joined(separator: "/")
            return seen.first { $0.value == wanted }?.key
        }
        var parent: FolderID?
        for name in names {
            guard let id = try FolderID.fetchOne(
                db, cachedSQL: "SELECT id FROM folder WHERE coalesce(parent_id, 0) = ? AND name = ?",
                arguments: [parent?.rawValue ?? 0, name])
            else { return nil }
            parent = id
        }
        return parent
    }

    /// The path of a folder from the top level: "Travel/2026". For a
    /// principal who does not see every folder, its path in the tree as
    /// they see it; a folder they cannot see is not named.
    public func path(of folder: FolderID) throws -> String {
        if let seen = try pathsAsSeen() { return seen[folder] ?? Self.unseenFolder }
        return try ancestry(of: folder).map(\.name).joined(separator: "/")
    }

    /// What a message says in place of a folder its reader cannot see.
    static let unseenFolder = "a folder not shared with you"

    /// The folders' paths in the tree as the principal sees it; nil when
    /// they see every folder (the holder, admins).
    private func pathsAsSeen() throws -> [FolderID: String]? {
        guard rights != nil, !principal.holdsEveryRight else { return nil }
        return try tree().folderPaths()
    }

    /// The path of an album: its folders' names and its own, "Travel/2026/Lisbon".
    public func path(of album: Album) throws -> String {
        guard let parent = album.parentID else { return album.name }
        return try path(of: parent) + "/" + album.name
    }

    /// A folder and the folders above it, from the top level down.
    func ancestry(of folder: FolderID) throws -> [(id: FolderID, name: String)] {
        var chain: [(id: FolderID, name: String)] = []
        var next: FolderID? = folder
        while let id = next {
            guard let row = try Row.fetchOne(db, cachedSQL: "SELECT name, parent_id FROM folder WHERE id = ?", arguments: [id]) else {
                throw LibraryError.folderNotFound(.id(id))
            }
            chain.append((id, row[0]))
            next = row[1]
            // A cycle is damage albums check reports; never loop on it.
            if chain.count > 10_000 || chain.dropLast().contains(where: { $0.id == id }) {
                throw LibraryError.corrupt(path: path, detail: "folder \(folder) is inside itself")
            }
        }
        return chain.reversed()
    }

    /// Every folder, in the tree's order (each folder before its children).
    public func folders() throws -> [Folder] {
        try tree().compactMap { if case .folder(let folder) = $0.node { folder } else { nil } }
    }

    /// Counts of what a folder holds: its albums and folders, at every depth.
    public func contents(of folder: FolderID) throws -> (albums: Int, folders: Int) {
        let row = try Row.fetchOne(
            db,
            cachedSQL: """
                WITH RECURSIVE inside(id) AS (
                    SELECT id FROM folder WHERE parent_id = ?1
                    UNION ALL SELECT f.id FROM folder f JOIN inside ON f.parent_id = inside.id
                )
                SELECT (SELECT count(*) FROM album WHERE parent_id = ?1 OR parent_id IN inside), (SELECT count(*) FROM inside)
                """,
            arguments: [folder])
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// The number of albums and folders a folder holds directly (nil: the top level).
    func childCount(of parent: FolderID?) throws -> Int {
        try Int.fetchOne(
            db,
            cachedSQL: "SELECT (SELECT count(*) FROM album WHERE coalesce(parent_id, 0) = ?1) + (SELECT count(*) FROM folder WHERE coalesce(parent_id, 0) = ?1)",
            arguments: [parent?.rawValue ?? 0]) ?? 0
    }

    /// The album or folder a tree reference names.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/folderNotFound(_:)``.
    public func treeNode(_ reference: TreeNodeReference) throws -> TreeNode {
        switch reference {
        case .album(let album): return .album(try self.album(album))
        case .folder(let folder): return .folder(try self.folder(folder))
        case .named(let name):
            do {
                return .album(try album(named: name))
            } catch LibraryError.albumNotFound {
                if let id = try folderID(atPath: name) { return .folder(try folder(id)) }
                throw LibraryError.albumNotFound(.named(name))
            }
        }
    }
}
