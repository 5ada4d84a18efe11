import GRDB

/// An album or a folder, by id: a row of the tree.
enum TreeRow: Hashable {
    case album(AlbumID)
    case folder(FolderID)

    init(_ node: TreeNode) {
        switch node {
        case .album(let album): self = .album(album.id)
        case .folder(let folder): self = .folder(folder.id)
        }
    }
}

/// Where a node lands: its new parent and its 0-based place among the
/// parent's children without it.
struct TreeSlot {
    let parent: Folder?
    /// Among the parent's children (without the node moved there).
    let index: Int
    /// For a person at the top level, the place among what they see there.
    var asSeen: Int? = nil
}

extension LibraryReader {
    /// Where `placement` puts `moving` (nil: a new node).
    ///
    /// - Throws: ``LibraryError/albumIndexOutOfRange(index:valid:folder:)``,
    ///   ``LibraryError/folderNotFound(_:)``, ``LibraryError/albumNotFound(_:)``.
    ///
    /// Rights come before the rules of places: `authorizing` is asked about
    /// the parent the slot is in (the principal may put the node there)
    /// before its position is checked, so that a refusal never depends on
    /// what the principal cannot see (how many children a folder has).
    func slot(for placement: TreePlacement, moving: TreeNode?, authorizing: (Folder?) throws -> Void) throws -> TreeSlot {
        func countWithout(_ parent: Folder?) throws -> Int {
            let count = try childCount(of: parent?.id)
            return moving.map { $0.parentID == parent?.id } == true ? count - 1 : count
        }
        switch placement {
        case .into(let reference):
            let parent = try self.parent(reference)
            try authorizing(parent)
            if parent == nil, let seen = try topLevelAsSeen(excluding: moving.map(TreeRow.init)) {
                return try topLevelSlot(at: seen.count, among: seen, moving: moving)
            }
            return TreeSlot(parent: parent, index: try countWithout(parent))
        case .at(let index, let reference):
            let parent = try self.parent(reference)
            try authorizing(parent)
            return try checkedSlot(index, in: parent, moving: moving, count: countWithout)
        case .position(let index):
            let parent = try moving?.parentID.map { try folder($0) }
            try authorizing(parent)
            return try checkedSlot(index, in: parent, moving: moving, count: countWithout)
        case .before(let reference), .after(let reference):
            let neighbour = try treeNode(reference)
            let parent = try neighbour.parentID.map { try folder($0) }
            try authorizing(parent)
            var index = neighbour.index
            if let moving, TreeRow(moving) == TreeRow(neighbour) {
                return TreeSlot(parent: parent, index: index)  // next to itself: where it is
            }
            if let moving, moving.parentID == neighbour.parentID, moving.index < neighbour.index { index -= 1 }
            if case .after = placement { index += 1 }
            if parent == nil, let seen = try topLevelAsSeen(excluding: moving.map(TreeRow.init)),
                let place = seen.firstIndex(where: { $0.row == TreeRow(neighbour) })
            {
                let isAfter = if case .after = placement { true } else { false }
                return try topLevelSlot(at: place + (isAfter ? 1 : 0), among: seen, moving: moving)
            }
            return TreeSlot(parent: parent, index: index)
        }
    }

    private func checkedSlot(_ index: Int, in parent: Folder?, moving: TreeNode?, count countWithout: (Folder?) throws -> Int) throws -> TreeSlot {
        // At the top level, a person's positions count what they see there
        // (a folder's children they see all): neither the valid range nor
        // where a position lands tells them of what they cannot see.
        if parent == nil, let seen = try topLevelAsSeen(excluding: moving.map(TreeRow.init)) {
            guard (0...seen.count).contains(index) else { throw LibraryError.albumIndexOutOfRange(index: index, valid: 0..<seen.count + 1, folder: nil) }
            return try topLevelSlot(at: index, among: seen, moving: moving)
        }
        let count = try countWithout(parent)
        guard (0...count).contains(index) else {
            throw LibraryError.albumIndexOutOfRange(index: index, valid: 0..<count + 1, folder: try parent.map { try path(of: $0.id) })
        }
        return TreeSlot(parent: parent, index: index)
    }

    /// Where place `place` of a person's top level (`seen`, without
    /// `moving`) is at the library's top level: before what they see there
    /// (or the folder hidden from them that holds it); past the last, after
    /// it. A node already at that place as they see it stays where it is,
    /// so that whether anything moved never depends on what they cannot see.
    private func topLevelSlot(at place: Int, among seen: [(row: TreeRow, rootIndex: Int)], moving: TreeNode?) throws -> TreeSlot {
        if let moving, moving.parentID == nil, try topLevelAsSeen(excluding: nil)?.firstIndex(where: { $0.row == TreeRow(moving) }) == place {
            return TreeSlot(parent: nil, index: moving.index, asSeen: place)
        }
        let absolute = place < seen.count ? seen[place].rootIndex : (seen.last.map { $0.rootIndex + 1 } ?? 0)
        return TreeSlot(parent: nil, index: absolute, asSeen: place)
    }

    /// The children of `parent` (nil: the top level) in order, with their keys.
    func children(of parent: FolderID?) throws -> [(row: TreeRow, key: Int64)] {
        try Row.fetchAll(
            db,
            cachedSQL: """
                SELECT 1, id, order_key FROM album WHERE coalesce(parent_id, 0) = ?1
                UNION ALL SELECT 0, id, order_key FROM folder WHERE coalesce(parent_id, 0) = ?1
                ORDER BY 3, 1
                """,
            arguments: [parent?.rawValue ?? 0]
        ).map { row in
            let id: Int64 = row[1]
            return ((row[0] as Int) == 1 ? .album(AlbumID(rawValue: id)) : .folder(FolderID(rawValue: id)), row[2])
        }
    }

    /// Refuses a name that one of `parent`'s children, other than `node`
    /// and `leaving` (a folder being deleted), has.
    func requireFreeName(_ name: String, in parent: Folder?, besides node: TreeRow?, leaving: FolderID? = nil) throws {
        let parentID = parent?.id.rawValue ?? 0
        let album: AlbumID? = if case .album(let id) = node { id } else { nil }
        let folder: FolderID? = if case .folder(let id) = node { id } else { nil }
        let taken = try Bool.fetchOne(
            db,
            cachedSQL: """
                SELECT EXISTS (SELECT 1 FROM folder WHERE coalesce(parent_id, 0) = ?1 AND name = ?2 AND id IS NOT ?3 AND id IS NOT ?5)
                    OR EXISTS (SELECT 1 FROM album WHERE coalesce(parent_id, 0) = ?1 AND name = ?2 AND id IS NOT ?4)
                """,
            arguments: [parentID, name, folder, album, leaving]) ?? false
        if taken { throw LibraryError.nameTakenInFolder(name, folder: try parent.map { try path(of: $0.id) }) }
    }

    /// Refuses a change to the children of a locked folder.
    func requireUnlocked(_ folder: Folder?) throws {
        if let folder, folder.isLocked { throw LibraryError.folderLocked(name: try path(of: folder.id)) }
    }

    /// Words for where a slot is, for the history: "into 'Travel' at position 2".
    func describe(_ slot: TreeSlot) throws -> String {
        let place = try slot.parent.map { "into \(LibraryError.quoted(try path(of: $0.id)))" } ?? "to the top level"
        // A person's place at the top level is theirs alone: the history's readers see other top levels.
        guard slot.asSeen == nil else { return place }
        return "\(place) at position \(slot.index + 1)"
    }
}

extension LibraryWriter {
    /// A key that puts a node at `index` among `parent`'s children without
    /// `excluded`, laying the children's keys out afresh if the gap there is
    /// used up (a parent's children are few next to an album's items).
    func siblingKey(forIndex index: Int, in parent: FolderID?, excluding excluded: TreeRow?) throws -> Int64 {
        guard let key = try siblingKeys(count: 1, forIndex: index, in: parent, excluding: excluded).first else {
            throw LibraryError.corrupt(path: path, detail: "no room among a folder's children after respacing")
        }
        return key
    }

    /// `count` increasing keys for nodes entering at `index` among
    /// `parent`'s children without `excluded`.
    func siblingKeys(count: Int, forIndex index: Int, in parent: FolderID?, excluding excluded: TreeRow?) throws -> [Int64] {
        let excludedAlbum: AlbumID? = if case .album(let id) = excluded { id } else { nil }
        let excludedFolder: FolderID? = if case .folder(let id) = excluded { id } else { nil }
        // Two rows read, not every sibling: a move costs the same beside ten or ten thousand.
        func neighbourKeys() throws -> (Int64?, Int64?) {
            let keys = try Int64.fetchAll(
                db,
                cachedSQL: """
                    SELECT order_key FROM (
                        SELECT 1 AS kind, order_key FROM album WHERE coalesce(parent_id, 0) = ?1 AND id IS NOT ?2
                        UNION ALL SELECT 0, order_key FROM folder WHERE coalesce(parent_id, 0) = ?1 AND id IS NOT ?3)
                    ORDER BY order_key, kind LIMIT 2 OFFSET ?4
                    """,
                arguments: [parent?.rawValue ?? 0, excludedAlbum, excludedFolder, max(index - 1, 0)])
            return index == 0 ? (nil, keys.first) : (keys.first, keys.dropFirst().first)
        }
        var (lower, upper) = try neighbourKeys()
        if let keys = OrderKeySpace.segments.keys(count: count, after: lower, before: upper) { return keys }
        try layOutChildren(of: parent, leavingRoomFor: count, at: index, excluding: excluded)
        (lower, upper) = try neighbourKeys()
        guard let keys = OrderKeySpace.segments.keys(count: count, after: lower, before: upper) else {
            throw LibraryError.corrupt(path: path, detail: "no room among a folder's children after respacing")
        }
        return keys
    }

    /// Lays out the keys of `parent`'s children afresh, evenly spaced, in
    /// their order, and returns how many there are. With `count`, a gap of
    /// that many places is left at `index` (among the children without
    /// `excluded`) for nodes about to enter. Every child is parked first on
    /// a key no row holds, so no two rows ever share a key, even in a
    /// damaged file whose keys left their range (a repair).
    @discardableResult
    func layOutChildren(of parent: FolderID?, leavingRoomFor count: Int = 0, at index: Int = 0, excluding excluded: TreeRow? = nil) throws -> Int {
        let all = try children(of: parent)
        for ((row, _), key) in zip(all, OrderKeySpace.segments.parkingKeys(count: all.count, avoiding: Set(all.map(\.key)))) {
            try setKey(key, of: row)
        }
        let kept = all.filter { $0.row != excluded }.map(\.row)
        // The entering nodes count in the layout, so the gap holds them.
        let layout = OrderKeySpace.segments.layout(count: kept.count + count)
        for (offset, row) in kept.enumerated() {
            try setKey(layout[offset < index ? offset : offset + count], of: row)
        }
        return kept.count
    }

    func setKey(_ key: Int64, of row: TreeRow) throws {
        switch row {
        case .album(let id): try db.execute(cachedSQL: "UPDATE album SET order_key = ? WHERE id = ?", arguments: [key, id])
        case .folder(let id): try db.execute(cachedSQL: "UPDATE folder SET order_key = ? WHERE id = ?", arguments: [key, id])
        }
    }

    /// Puts a row under `parent` (nil: the top level) at `key`.
    func setPlace(of row: TreeRow, parent: FolderID?, key: Int64) throws {
        switch row {
        case .album(let id):
            try db.execute(cachedSQL: "UPDATE album SET parent_id = ?, order_key = ? WHERE id = ?", arguments: [parent, key, id])
        case .folder(let id):
            try db.execute(cachedSQL: "UPDATE folder SET parent_id = ?, order_key = ? WHERE id = ?", arguments: [parent, key, id])
        }
    }

    /// Notes that the children of `parent` changed: a folder's revision and
    /// change; the top level has neither.
    func noteRearranged(_ parent: Folder?) {
        if let parent { changes(ofFolder: parent, .rearranged) }
    }
}
