/// What one operation did to one album, in the index spaces of PhotoKit's
/// `PHFetchResultChangeDetails`, so a table or collection view can animate
/// it in one batch update:
///
/// - ``removed``: indexes in the album before the change;
/// - ``inserted``: indexes after the removals are applied (that is, in the
///   album after the change);
/// - ``updated``: indexes after removals and insertions (placeholders whose
///   load committed: same slot, new content);
/// - ``moved``: from an index before the change to an index after it.
///
/// Each index comes with the item it is about (``removedItems``,
/// ``insertedItems``, ``updatedItems``, ``Move/item``), so a view keyed by
/// item id can follow the change without reloading.
///
/// Apply removals, then insertions, then updates, then moves; every item
/// not named keeps its relative order (``applied(to:inserting:)`` does
/// exactly this). A transferred item that stays in its album is always
/// reported as a move, even when its index happens not to change, so that
/// the items around it fill the remaining slots correctly.
public struct AlbumChangeSet: Hashable, Sendable {
    /// An item that stayed in the album and changed place.
    public struct Move: Hashable, Sendable {
        /// Its 0-based index before the change.
        public let from: Int
        /// Its 0-based index after the change.
        public let to: Int
        /// The item that moved.
        public let item: AlbumItemID

        /// A move of `item` from index `from` to index `to`.
        public init(from: Int, to: Int, item: AlbumItemID) {
            self.from = from
            self.to = to
            self.item = item
        }
    }

    /// What happened to the album itself, beside its items.
    public enum AlbumEvent: String, Hashable, Sendable, CaseIterable {
        /// The album was created, renamed, deleted, moved in the tree, locked or unlocked.
        case created, renamed, deleted, moved, locked, unlocked
        /// A cover was chosen for the album, or the choice undone (it
        /// shows its first photo again). A cover cleared because its photo
        /// left is seen in that removal or move, with no event of its own.
        case coverChanged = "cover_changed"
        /// A smart album became an ordinary one, holding what it showed.
        case frozen
        /// The album's description was written, changed or cleared.
        case described
    }

    /// The album changed: its id follows it through renames.
    public let albumID: AlbumID
    /// The album's name after the change.
    public package(set) var albumName: String
    /// The album's revision once the change is committed.
    public let revision: Int64
    /// Ascending indexes before the change.
    public private(set) var removed: [Int] = []
    /// The item that stood at each index of ``removed``.
    public private(set) var removedItems: [AlbumItemID] = []
    /// Ascending indexes after the change.
    public private(set) var inserted: [Int] = []
    /// The item that stands at each index of ``inserted``.
    public private(set) var insertedItems: [AlbumItemID] = []
    /// By ascending ``Move/from``.
    public private(set) var moved: [Move] = []
    /// Ascending indexes after the change.
    public private(set) var updated: [Int] = []
    /// The item at each index of ``updated``.
    public private(set) var updatedItems: [AlbumItemID] = []
    /// Changes to the album itself (created, renamed, …), in the order they happened.
    public package(set) var albumEvents: [AlbumEvent] = []

    /// An empty change set of an album, at the revision the change gives it.
    public init(albumID: AlbumID, albumName: String, revision: Int64) {
        self.albumID = albumID
        self.albumName = albumName
        self.revision = revision
    }

    /// Whether no item changed place or content.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    // MARK: - Recording

    package mutating func recordRemoval(at index: Int, of item: AlbumItemID) {
        Self.insertSorted(index, item, into: &removed, &removedItems)
    }

    package mutating func recordInsertion(at index: Int, of item: AlbumItemID) {
        Self.insertSorted(index, item, into: &inserted, &insertedItems)
    }

    package mutating func recordUpdate(at index: Int, of item: AlbumItemID) {
        Self.insertSorted(index, item, into: &updated, &updatedItems)
    }

    package mutating func recordMove(from: Int, to: Int, of item: AlbumItemID) {
        let move = Move(from: from, to: to, item: item)
        if let last = moved.last, last.from > from {
            moved.insert(move, at: moved.firstIndex { $0.from > from }!)
        } else {
            moved.append(move)
        }
    }

    /// Keeps `indexes` ascending with `items` beside them; appends are the usual case.
    private static func insertSorted(_ index: Int, _ item: AlbumItemID, into indexes: inout [Int], _ items: inout [AlbumItemID]) {
        guard let last = indexes.last, last > index else {
            indexes.append(index)
            items.append(item)
            return
        }
        let position = indexes.firstIndex { $0 > index }!
        indexes.insert(index, at: position)
        items.insert(item, at: position)
    }

    // MARK: - Replaying

    /// The album's new order, from its old order and the inserted elements.
    ///
    /// - Parameters:
    ///   - old: The elements before the change.
    ///   - newElement: The element inserted at an index of the new order.
    /// - Returns: The elements after the change, or nil if this change set
    ///   does not fit `old` (its indexes are out of range or collide).
    public func applied<Element>(to old: [Element], inserting newElement: (Int) -> Element) -> [Element]? {
        let removedIndexes = Set(removed)
        let movedFrom = Set(moved.map(\.from))
        guard removedIndexes.count == removed.count, movedFrom.count == moved.count,
            removedIndexes.isDisjoint(with: movedFrom),
            removedIndexes.allSatisfy(old.indices.contains), movedFrom.allSatisfy(old.indices.contains)
        else { return nil }
        var result = [Element?](repeating: nil, count: old.count - removed.count + inserted.count)
        for move in moved {
            guard result.indices.contains(move.to), result[move.to] == nil else { return nil }
            result[move.to] = old[move.from]
        }
        for index in inserted {
            guard result.indices.contains(index), result[index] == nil else { return nil }
            result[index] = newElement(index)
        }
        var survivors = old.indices.lazy.filter { !removedIndexes.contains($0) && !movedFrom.contains($0) }.map { old[$0] }.makeIterator()
        for index in result.indices where result[index] == nil {
            guard let survivor = survivors.next() else { return nil }
            result[index] = survivor
        }
        guard survivors.next() == nil else { return nil }
        return result.map { $0! }
    }
}
