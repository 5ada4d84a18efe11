import Synchronization

/// An album's segments in order, with the index of each one's first item:
/// the segment holding an index is found by binary search, with no query.
///
/// Reading it costs one indexed scan of the album's segment rows (a few
/// hundred at a million items). A ``Library`` keeps the maps it read,
/// keyed by album revision, so that the operations of a live UI (a
/// proposal on every pointer movement, then the drop) find positions in
/// microseconds at any album size.
package struct SegmentMap: Sendable {
    /// The album revision the map was read at.
    let revision: Int64
    let segments: [Segment]
    /// `firstIndexes[i]` is the album index of `segments[i]`'s first item.
    let firstIndexes: [Int]
    let itemCount: Int

    init(revision: Int64, segments: [Segment]) {
        self.revision = revision
        self.segments = segments
        var firstIndexes: [Int] = []
        firstIndexes.reserveCapacity(segments.count)
        var total = 0
        for segment in segments {
            firstIndexes.append(total)
            total += segment.itemCount
        }
        self.firstIndexes = firstIndexes
        self.itemCount = total
    }

    /// The map after a transaction that changed only segment counts, at
    /// the revision it committed; nil if `deltas` name a segment this map
    /// does not have or empty one (the segments themselves changed).
    func applying(_ deltas: [Int64: Int]) -> SegmentMap? {
        var segments = self.segments
        var remaining = deltas
        for index in segments.indices {
            guard let delta = remaining.removeValue(forKey: segments[index].id) else { continue }
            segments[index].itemCount += delta
            if segments[index].itemCount <= 0 { return nil }
        }
        guard remaining.isEmpty else { return nil }
        return SegmentMap(revision: revision + 1, segments: segments)
    }

    /// The segment holding a valid `index`, and the index's offset in it.
    func segment(containing index: Int) -> (segment: Segment, offset: Int)? {
        guard index >= 0, index < itemCount else { return nil }
        // The last segment whose first index is at most `index`.
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstIndexes[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (segments[low], index - firstIndexes[low])
    }

    /// How many items stand in the segments before the one with `orderKey`.
    func itemsBefore(segmentKey orderKey: Int64) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].orderKey < orderKey { low = middle + 1 } else { high = middle }
        }
        guard low < segments.count, segments[low].orderKey == orderKey else { return nil }
        return firstIndexes[low]
    }
}

/// The segment maps a library has read, by album; an entry serves only
/// while its album is at the revision it was read at (every committed
/// change to an album's items raises its revision, in any process).
final class SegmentMapCache: Sendable {
    /// Albums whose maps are kept; an app shows a few at a time.
    static let capacity = 32
    private let maps = Mutex<[AlbumID: SegmentMap]>([:])

    func map(for album: AlbumID, revision: Int64) -> SegmentMap? {
        maps.withLock { $0[album] }.flatMap { $0.revision == revision ? $0 : nil }
    }

    func store(_ map: SegmentMap, for album: AlbumID) {
        maps.withLock { maps in
            if maps.count >= Self.capacity, maps[album] == nil, let evicted = maps.keys.first { maps[evicted] = nil }
            maps[album] = map
        }
    }
}
