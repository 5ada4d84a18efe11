import GRDB

/// Changes to segment counts gathered during one change, applied once.
///
/// Applying them also tidies the segments the change touched: an emptied
/// segment is dropped, and one left smaller than
/// ``AlbumOrder/mergeSegmentItemCount`` moves its few rows into a neighbour,
/// so long runs of removals do not leave an album of tiny segments.
struct SegmentCounts {
    private var deltas: [Int64: Int] = [:]
    private var albums: [Int64: AlbumID] = [:]

    mutating func add(_ delta: Int, to segmentID: Int64, in albumID: AlbumID) {
        deltas[segmentID, default: 0] += delta
        albums[segmentID] = albumID
    }

    func delta(for segmentID: Int64) -> Int { deltas[segmentID] ?? 0 }

    /// The count changes, by album and segment.
    var deltasByAlbum: [AlbumID: [Int64: Int]] {
        var byAlbum: [AlbumID: [Int64: Int]] = [:]
        for (segmentID, delta) in deltas { byAlbum[albums[segmentID]!, default: [:]][segmentID] = delta }
        return byAlbum
    }

    /// Writes the counts, then, when `tidying`, drops or merges the segments
    /// left empty or small.
    ///
    /// - Returns: The albums whose segments were dropped or merged.
    @discardableResult
    func apply(in db: Database, tidying: Bool = true) throws -> Set<AlbumID> {
        var restructured = Set<AlbumID>()
        for (segmentID, delta) in deltas where delta != 0 {
            try db.execute(
                cachedSQL: "UPDATE album_segment SET item_count = item_count + ? WHERE id = ?", arguments: [delta, segmentID])
        }
        guard tidying else { return restructured }
        // Only a segment that shrank can have become empty or too small.
        for segmentID in deltas.keys.sorted() where deltas[segmentID]! < 0 {
            guard let count = try Int.fetchOne(db, cachedSQL: "SELECT item_count FROM album_segment WHERE id = ?", arguments: [segmentID])
            else { continue }
            if count == 0 {
                // Empty by its count; ON DELETE CASCADE would take any row
                // still pointing at it, so only a consistent count gets here.
                try db.execute(cachedSQL: "DELETE FROM album_segment WHERE id = ?", arguments: [segmentID])
                restructured.insert(albums[segmentID]!)
            } else if count < AlbumOrder.mergeSegmentItemCount, let albumID = albums[segmentID] {
                if try Self.merge(segmentID: segmentID, count: count, albumID: albumID, in: db) { restructured.insert(albumID) }
            }
        }
        return restructured
    }

    /// Moves a small segment's rows to the end of the previous segment or the
    /// start of the next, if either has room, and drops it.
    /// - Returns: Whether it merged the segment.
    private static func merge(segmentID: Int64, count: Int, albumID: AlbumID, in db: Database) throws -> Bool {
        guard let key = try Int64.fetchOne(db, cachedSQL: "SELECT order_key FROM album_segment WHERE id = ?", arguments: [segmentID])
        else { return false }
        let neighbours = [
            (sql: "SELECT id, item_count FROM album_segment WHERE album_id = ? AND order_key < ? ORDER BY order_key DESC LIMIT 1", isPrevious: true),
            (sql: "SELECT id, item_count FROM album_segment WHERE album_id = ? AND order_key > ? ORDER BY order_key ASC LIMIT 1", isPrevious: false),
        ]
        for neighbour in neighbours {
            guard let row = try Row.fetchOne(db, cachedSQL: neighbour.sql, arguments: [albumID, key]) else { continue }
            let neighbourID: Int64 = row[0]
            let neighbourCount: Int = row[1]
            guard neighbourCount + count <= AlbumOrder.maximumSegmentItemCount else { continue }
            let boundary = try Int64.fetchOne(
                db,
                sql: "SELECT \(neighbour.isPrevious ? "max" : "min")(order_key) FROM album_item WHERE segment_id = ?",
                arguments: [neighbourID])
            let keys = neighbour.isPrevious
                ? OrderKeySpace.items.keys(count: count, after: boundary, before: nil)
                : OrderKeySpace.items.keys(count: count, after: nil, before: boundary)
            guard let keys else { continue }
            let ids = try AlbumItemID.fetchAll(
                db, cachedSQL: "SELECT id FROM album_item WHERE segment_id = ? ORDER BY order_key", arguments: [segmentID])
            for (id, newKey) in zip(ids, keys) {
                try db.execute(
                    cachedSQL: "UPDATE album_item SET segment_id = ?, order_key = ? WHERE id = ?", arguments: [neighbourID, newKey, id])
            }
            try db.execute(cachedSQL: "UPDATE album_segment SET item_count = item_count + ? WHERE id = ?", arguments: [count, neighbourID])
            try db.execute(cachedSQL: "DELETE FROM album_segment WHERE id = ?", arguments: [segmentID])
            return true
        }
        return false
    }
}
