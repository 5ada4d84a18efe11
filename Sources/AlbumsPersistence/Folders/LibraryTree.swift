import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// An album or a folder, as it stands in the library's tree.
public enum TreeNode: Hashable, Sendable {
    /// An album of the tree.
    case album(Album)
    /// A folder of the tree.
    case folder(Folder)

    /// The folder holding it; nil at the top level.
    public var parentID: FolderID? {
        switch self {
        case .album(let album): album.parentID
        case .folder(let folder): folder.parentID
        }
    }

    /// 0-based place among its parent's children.
    public var index: Int {
        switch self {
        case .album(let album): album.index
        case .folder(let folder): folder.index
        }
    }

    /// The album's or folder's name.
    public var name: String {
        switch self {
        case .album(let album): album.name
        case .folder(let folder): folder.name
        }
    }
}

/// One line of the tree read whole: a node and how deep it stands (0 at the top level).
public struct TreeEntry: Hashable, Sendable {
    /// The album or folder.
    public let node: TreeNode
    /// How deep it stands: 0 at the top level, 1 in a top-level folder, …
    public let depth: Int
}

/// How the children of one parent are ordered: by key, and a folder before
/// an album of the same key (which albums never writes; a damaged file
/// still reads in one order).
enum TreeOrder {
    static func precedes(_ a: (key: Int64, isAlbum: Bool), _ b: (key: Int64, isAlbum: Bool)) -> Bool {
        a.key != b.key ? a.key < b.key : (!a.isAlbum && b.isAlbum)
    }
}

extension LibraryReader {
    /// The whole tree in order: each folder followed by its children, depth first.
    ///
    /// One read, whatever the size of the tree; a folder that a damaged
    /// file leaves unreachable from the top level is not listed (albums
    /// check reports it).
    public func tree() throws -> [TreeEntry] {
        try seenByPrincipal(try wholeTree())
    }

    /// The principal's top level as they see it (``tree()``'s entries at
    /// depth 0), each with the index at the library's top level of where it
    /// stands: itself, or the folder they cannot see that holds it. Without
    /// `excluded` (a node being moved), which is counted nowhere. Nil for
    /// whoever sees the whole tree.
    ///
    /// Positions a person gives at the top level count these, never what
    /// they cannot see: a place among them is found at the library's top
    /// level before the one that stands there.
    func topLevelAsSeen(excluding excluded: TreeRow?) throws -> [(row: TreeRow, rootIndex: Int)]? {
        guard rights != nil, let albums = try visibleAlbumIDs(), let folders = try visibleFolderIDs() else { return nil }
        var seen: [(row: TreeRow, rootIndex: Int)] = []
        var rootIndex = -1
        var skippingBelow: Int?  // the depth of the excluded node while its contents go by
        for entry in try wholeTree() {
            if let depth = skippingBelow {
                if entry.depth > depth { continue }
                skippingBelow = nil
            }
            let row = TreeRow(entry.node)
            if row == excluded {
                skippingBelow = entry.depth
                continue
            }
            if entry.depth == 0 { rootIndex += 1 }
            // What stands in a folder they see stands there, not at their top level.
            if let parent = entry.node.parentID, folders.contains(parent) { continue }
            let isSeen =
                switch row {
                case .album(let id): albums.contains(id)
                case .folder(let id): folders.contains(id)
                }
            if isSeen { seen.append((row, rootIndex)) }
        }
        return seen
    }

    /// Every album and folder, depth first in the tree's order, whoever asks.
    private func wholeTree() throws -> [TreeEntry] {
        struct Child {
            let key: Int64
            let node: TreeNode
            let isAlbum: Bool
        }
        var children: [Int64: [Child]] = [:]
        // One statement, read in place from SQLite's row buffer: a tree of
        // ten thousand albums is listed in about the time sqlite3 takes.
        let statement = try db.makeStatement(
            sql: """
                SELECT 1, id, name, parent_id, order_key, is_locked, revision, item_count, placeholder_count, cover_photo_id, search, description,
                    video_count
                FROM album
                UNION ALL SELECT 0, id, name, parent_id, order_key, is_locked, revision, 0, 0, NULL, NULL, NULL, 0 FROM folder
                """)
        let handle = statement.sqliteStatement
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let isAlbum = sqlite3_column_int64(handle, 0) == 1
            let id = sqlite3_column_int64(handle, 1)
            let name = sqlite3_column_text(handle, 2).map { String(cString: $0) } ?? ""
            let parent = sqlite3_column_type(handle, 3) == SQLITE_NULL ? nil : FolderID(rawValue: sqlite3_column_int64(handle, 3))
            let key = sqlite3_column_int64(handle, 4)
            let isLocked = sqlite3_column_int64(handle, 5) != 0
            let revision = sqlite3_column_int64(handle, 6)
            let node: TreeNode = isAlbum
                ? .album(current(Album(
                    id: AlbumID(rawValue: id), name: name, parentID: parent, index: 0, isLocked: isLocked, revision: revision,
                    itemCount: Int(sqlite3_column_int64(handle, 7)), placeholderCount: Int(sqlite3_column_int64(handle, 8)),
                    videoCount: Int(sqlite3_column_int64(handle, 12)), chosenCoverID: sqlite3_column_type(handle, 9) == SQLITE_NULL ? nil : PhotoID(rawValue: sqlite3_column_int64(handle, 9)),
                    isSmart: sqlite3_column_type(handle, 10) != SQLITE_NULL,
                    savedSearch: sqlite3_column_text(handle, 10).flatMap { PhotoSearch(storedJSON: String(cString: $0)) },
                    description: sqlite3_column_text(handle, 11).map { String(cString: $0) })))
                : .folder(Folder(id: FolderID(rawValue: id), name: name, parentID: parent, index: 0, isLocked: isLocked, revision: revision))
            children[parent?.rawValue ?? 0, default: []].append(Child(key: key, node: node, isAlbum: isAlbum))
        }
        var entries: [TreeEntry] = []
        // Depth first without recursion: per level, the children still to
        // visit (reversed) and the index the next one takes.
        var stack: [(children: [Child], depth: Int, next: Int)] = []
        func push(_ parent: Int64, depth: Int) {
            guard let list = children.removeValue(forKey: parent) else { return }
            stack.append((list.sorted { TreeOrder.precedes(($0.key, $0.isAlbum), ($1.key, $1.isAlbum)) }.reversed(), depth, 0))
        }
        push(0, depth: 0)
        while let level = stack.indices.last {
            guard let child = stack[level].children.popLast() else {
                stack.removeLast()
                continue
            }
            let (depth, index) = (stack[level].depth, stack[level].next)
            stack[level].next += 1
            switch child.node {
            case .album(let album):
                entries.append(TreeEntry(node: .album(album.placed(at: index)), depth: depth))
            case .folder(let folder):
                entries.append(TreeEntry(node: .folder(folder.placed(at: index)), depth: depth))
                push(folder.id.rawValue, depth: depth + 1)
            }
        }
        return entries
    }

    /// The tree as the principal sees it: only what they may see; what they
    /// see in a folder they cannot see stands at their top level, in the
    /// tree's order.
    private func seenByPrincipal(_ entries: [TreeEntry]) throws -> [TreeEntry] {
        guard rights != nil, let albums = try visibleAlbumIDs(), let folders = try visibleFolderIDs() else { return entries }
        var depths: [FolderID: Int] = [:]
        var nextIndex: [FolderID?: Int] = [:]
        var seen: [TreeEntry] = []
        for entry in entries {
            let parent = entry.node.parentID.flatMap { depths[$0] == nil ? nil : $0 }
            let depth = parent.map { depths[$0]! + 1 } ?? 0
            let index = nextIndex[parent, default: 0]
            switch entry.node {
            case .album(let album) where albums.contains(album.id):
                seen.append(TreeEntry(node: .album(album.placed(at: index, in: parent)), depth: depth))
            case .folder(let folder) where folders.contains(folder.id):
                seen.append(TreeEntry(node: .folder(folder.placed(at: index, in: parent)), depth: depth))
                depths[folder.id] = depth
            default:
                continue
            }
            nextIndex[parent] = index + 1
        }
        return seen
    }
}

extension [TreeEntry] {
    /// Each folder's path from the top level ("Travel/2026"), for a tree in
    /// its order (a folder comes before what it holds).
    public func folderPaths() -> [FolderID: String] {
        var paths: [FolderID: String] = [:]
        for entry in self {
            guard case .folder(let folder) = entry.node else { continue }
            paths[folder.id] = folder.parentID.flatMap { paths[$0] }.map { $0 + "/" + folder.name } ?? folder.name
        }
        return paths
    }
}

extension Album {
    func placed(at index: Int) -> Album {
        placed(at: index, in: parentID)
    }

}

extension Folder {
    func placed(at index: Int) -> Folder {
        placed(at: index, in: parentID)
    }

    func placed(at index: Int, in parent: FolderID?) -> Folder {
        Folder(id: id, name: name, parentID: parent, index: index, isLocked: isLocked, revision: revision)
    }
}
