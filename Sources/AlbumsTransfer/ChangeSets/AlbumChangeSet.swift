import AlbumsPersistence

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
/// Apply removals, then insertions, then updates, then moves; every item
/// not named keeps its relative order (``applied(to:inserting:)`` does
/// exactly this). A transferred item that stays in its album is always
/// reported as a move, even when its index happens not to change, so that
/// the items around it fill the remaining slots correctly.
public struct AlbumChangeSet: Hashable, Sendable {
    public struct Move: Hashable, Sendable {
        public let from: Int
        public let to: Int
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    public let albumID: AlbumID
    public let albumName: String
    /// The album's revision once the change is committed.
    public let revision: Int64
    public internal(set) var removed: [Int] = []
    public internal(set) var inserted: [Int] = []
    public internal(set) var moved: [Move] = []
    public internal(set) var updated: [Int] = []

    public init(
        albumID: AlbumID, albumName: String, revision: Int64, removed: [Int] = [], inserted: [Int] = [],
        moved: [Move] = [], updated: [Int] = []
    ) {
        self.albumID = albumID
        self.albumName = albumName
        self.revision = revision
        self.removed = removed
        self.inserted = inserted
        self.moved = moved
        self.updated = updated
    }

    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

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
