import GRDB

/// Where an item stands in its album's physical order.
package struct ItemPlacement: Hashable, Sendable {
    var albumID: AlbumID
    var segmentID: Int64
    var segmentKey: Int64
    var orderKey: Int64
}

/// An item with its index and where it stands: what a plan resolves a
/// reference to, and what the writer then acts on without looking again.
package struct PlacedItem: Hashable, Sendable {
    package let item: AlbumItem
    let placement: ItemPlacement
}

/// A contiguous run of an album's items.
struct Segment: Hashable, Sendable {
    let id: Int64
    let orderKey: Int64
    var itemCount: Int
}

/// What to place at a spot of an album: an item that moves there, or a new row.
enum PlacementEntry {
    case existing(AlbumItemID)
    /// A photo under its item's name (nil: its own), carrying `marks`.
    case newPhoto(PhotoID, name: String?, marks: ItemMarks = .none)
    case newPlaceholder(PendingLoad)
}

/// The order of one album's items, as segments of gapped keys.
///
/// An album's order is `(segment.order_key, album_item.order_key)`. Each
/// segment holds at most ``maximumSegmentItemCount`` items and knows its
/// count, so the item at an index, or the index of an item, is found by
/// summing segment counts and then counting inside one segment: work in
/// the number of segments plus one segment's size, never the album's size.
///
/// Placing k items writes k item rows and the counts of the segments they
/// leave and enter. Only when a gap between keys is used up, or a segment
/// overflows, are one segment's rows relaid out (at most
/// ``maximumSegmentItemCount`` rows) — the local rebalancing that keeps
/// keys short under any insertion pattern.
struct AlbumOrder {
    static let maximumSegmentItemCount = 2048
    /// The size of the segments a relayout cuts an overflowing run into.
    static let splitSegmentItemCount = 1024
    /// A segment smaller than this after a removal is merged into a neighbour.
    static let mergeSegmentItemCount = 32

    let db: Database
    let albumID: AlbumID

    // MARK: - Reading

    /// The album's segments in order.
    func segments() throws -> [Segment] {
        try Row.fetchAll(
            db, cachedSQL: "SELECT id, order_key, item_count FROM album_segment WHERE album_id = ? ORDER BY order_key",
            arguments: [albumID]
        ).map { Segment(id: $0[0], orderKey: $0[1], itemCount: $0[2]) }
    }

    /// Where an item stands, or nil if there is no such item.
    static func placement(of item: AlbumItemID, in db: Database) throws -> ItemPlacement? {
        try Row.fetchOne(
            db,
            cachedSQL: """
                SELECT i.album_id, i.segment_id, s.order_key, i.order_key
                FROM album_item i JOIN album_segment s ON s.id = i.segment_id
                WHERE i.id = ?
                """,
            arguments: [item]
        ).map { ItemPlacement(albumID: $0[0], segmentID: $0[1], segmentKey: $0[2], orderKey: $0[3]) }
    }

    /// The 0-based index of the item at `placement`: the items of the
    /// segments before its own (from `map` when given), plus those before
    /// it in its segment.
    func index(of placement: ItemPlacement, map: SegmentMap? = nil) throws -> Int {
        if let before = map?.itemsBefore(segmentKey: placement.segmentKey) {
            let inSegment = try Int.fetchOne(
                db, cachedSQL: "SELECT count(*) FROM album_item WHERE segment_id = ? AND order_key < ?",
                arguments: [placement.segmentID, placement.orderKey]) ?? 0
            return before + inSegment
        }
        return try Int.fetchOne(
            db,
            cachedSQL: """
                SELECT (SELECT coalesce(sum(item_count), 0) FROM album_segment
                        WHERE album_id = ? AND order_key < ?)
                     + (SELECT count(*) FROM album_item WHERE segment_id = ? AND order_key < ?)
                """,
            arguments: [albumID, placement.segmentKey, placement.segmentID, placement.orderKey]
        ) ?? 0
    }

    /// The item at a valid 0-based `index`: the segment from `map`, then a
    /// count inside that one segment.
    func item(at index: Int, in map: SegmentMap) throws -> PlacedItem {
        guard let (segment, offset) = map.segment(containing: index) else {
            throw LibraryError.corrupt(path: db.filePath, detail: "album \(albumID) has no item at index \(index) of \(map.itemCount)")
        }
        return try item(atOffset: offset, in: segment, index: index)
    }

    /// The first item after `placement` in the album's order that is not in
    /// `skipping`, or nil at the end: a keyset step, cheap wherever it is.
    func item(after placement: ItemPlacement, skipping: Set<AlbumItemID>) throws -> ItemPlacement? {
        let limit = skipping.count + 1
        let inSegment = try Row.fetchAll(
            db, cachedSQL: "SELECT id, order_key FROM album_item WHERE segment_id = ? AND order_key > ? ORDER BY order_key LIMIT ?",
            arguments: [placement.segmentID, placement.orderKey, limit])
        if let row = inSegment.first(where: { !skipping.contains($0[0]) }) {
            return ItemPlacement(albumID: albumID, segmentID: placement.segmentID, segmentKey: placement.segmentKey, orderKey: row[1])
        }
        let following = try Row.fetchAll(
            db,
            cachedSQL: """
                SELECT i.id, i.segment_id, s.order_key, i.order_key
                FROM album_segment s CROSS JOIN album_item i ON i.segment_id = s.id
                WHERE s.album_id = ? AND s.order_key > ? ORDER BY s.order_key, i.order_key LIMIT ?
                """,
            arguments: [albumID, placement.segmentKey, limit])
        return following.first { !skipping.contains($0[0]) }.map {
            ItemPlacement(albumID: albumID, segmentID: $0[1], segmentKey: $0[2], orderKey: $0[3])
        }
    }

    private func item(atOffset offset: Int, in segment: Segment, index: Int) throws -> PlacedItem {
        // Count from the nearer end of the segment.
        let fromStart = offset <= segment.itemCount / 2
        let row = try Row.fetchOne(
            db,
            cachedSQL: fromStart
                ? "SELECT \(LibraryReader.itemColumns), i.order_key FROM album_item i WHERE i.segment_id = ? ORDER BY i.order_key ASC LIMIT 1 OFFSET ?"
                : "SELECT \(LibraryReader.itemColumns), i.order_key FROM album_item i WHERE i.segment_id = ? ORDER BY i.order_key DESC LIMIT 1 OFFSET ?",
            arguments: [segment.id, fromStart ? offset : segment.itemCount - 1 - offset])
        guard let row else {
            throw LibraryError.corrupt(path: db.filePath, detail: "segment \(segment.id) holds fewer items than it counts")
        }
        return PlacedItem(
            item: LibraryReader.item(from: row, index: index),
            placement: ItemPlacement(albumID: albumID, segmentID: segment.id, segmentKey: segment.orderKey, orderKey: row[8]))
    }

    // MARK: - Placing

    /// Places `entries` contiguously so that the first stands at `index` of
    /// the album's list as it is without the items the entries move.
    ///
    /// - Parameters:
    ///   - entries: What to place, in order.
    ///   - index: A 0-based index in the album without the moving items;
    ///     the caller has checked it.
    ///   - map: The album's segment map now, moving items included.
    ///   - sources: Where each moving item (every `.existing` entry) stands now.
    ///   - sourceIndexes: The ascending indexes of the moving items that are in this album.
    ///   - counts: Collects the segment count changes; the caller applies them.
    /// - Returns: The ids of the rows the `.new…` entries created, in order.
    func place(
        _ entries: [PlacementEntry], at index: Int, map: SegmentMap, sources: [AlbumItemID: ItemPlacement],
        sourceIndexes: [Int], counts: inout SegmentCounts
    ) throws -> [AlbumItemID] {
        guard !entries.isEmpty else { return [] }
        let itemCount = map.itemCount
        for placement in sources.values {
            counts.add(-1, to: placement.segmentID, in: placement.albumID)
        }
        let remainingCount = itemCount - sourceIndexes.count

        // The neighbours among the items that stay: their index in the full list
        // skips the moving items that stand before them.
        func fullIndex(_ remainingIndex: Int) -> Int {
            var index = remainingIndex
            for sourceIndex in sourceIndexes {
                if sourceIndex <= index { index += 1 } else { break }
            }
            return index
        }
        // The right neighbour is a keyset step from the left one; only moving items lie between.
        let before = index > 0 ? try item(at: fullIndex(index - 1), in: map).placement : nil
        let after: ItemPlacement?
        if index >= remainingCount {
            after = nil
        } else if let before {
            after = try item(after: before, skipping: Set(sources.keys))
        } else {
            after = try item(at: fullIndex(index), in: map).placement
        }

        var writer = PlacementWriter(db: db, albumID: albumID, sources: sources)
        let target = try chooseTarget(before: before, after: after, entryCount: entries.count, counts: counts)
        switch target {
        case .inside(let segment, let lower, let upper):
            if let keys = OrderKeySpace.items.keys(count: entries.count, after: lower, before: upper) {
                for (entry, key) in zip(entries, keys) {
                    try writer.write(entry, segmentID: segment.id, orderKey: key, counts: &counts)
                }
            } else {
                try relayOut(segment, splicing: entries, after: lower, writer: &writer, counts: &counts)
            }
        case .relayout(let segment, let splicePoint):
            try relayOut(segment, splicing: entries, after: splicePoint, writer: &writer, counts: &counts)
        case .newSegments(let lowerSegmentID, let upperSegmentID):
            let chunks = Self.chunks(of: entries.count)
            let segmentIDs = try insertSegments(count: chunks.count, between: lowerSegmentID, and: upperSegmentID)
            var entryIterator = entries.makeIterator()
            for (segmentID, chunkSize) in zip(segmentIDs, chunks) {
                for key in OrderKeySpace.items.layout(count: chunkSize) {
                    try writer.write(entryIterator.next()!, segmentID: segmentID, orderKey: key, counts: &counts)
                }
            }
        }
        return writer.createdIDs
    }

    private enum Target {
        /// Between two keys of a segment that has room.
        case inside(Segment, lower: Int64?, upper: Int64?)
        /// A full segment to relay out, the entries after the key `splicePoint` (nil: first).
        case relayout(Segment, splicePoint: Int64?)
        /// Fresh segments between two segments (nil: an end of the album).
        case newSegments(lower: Int64?, upper: Int64?)
    }

    private func chooseTarget(before: ItemPlacement?, after: ItemPlacement?, entryCount: Int, counts: SegmentCounts) throws -> Target {
        func segment(_ id: Int64) throws -> Segment {
            let row = try Row.fetchOne(db, cachedSQL: "SELECT id, order_key, item_count FROM album_segment WHERE id = ?", arguments: [id])!
            return Segment(id: row[0], orderKey: row[1], itemCount: row[2] + counts.delta(for: id))
        }
        func hasRoom(_ segment: Segment) -> Bool {
            segment.itemCount + entryCount <= Self.maximumSegmentItemCount
        }
        switch (before, after) {
        case (nil, nil):
            // Nothing stays in the album; any segments left hold only moving items.
            guard let first = try segments().first else { return .newSegments(lower: nil, upper: nil) }
            let segment = try segment(first.id)
            return hasRoom(segment) ? .inside(segment, lower: nil, upper: nil) : .newSegments(lower: first.id, upper: nil)
        case (let before?, nil):
            let segment = try segment(before.segmentID)
            return hasRoom(segment) ? .inside(segment, lower: before.orderKey, upper: nil) : .newSegments(lower: segment.id, upper: nil)
        case (nil, let after?):
            let segment = try segment(after.segmentID)
            return hasRoom(segment) ? .inside(segment, lower: nil, upper: after.orderKey) : .newSegments(lower: nil, upper: segment.id)
        case (let before?, let after?) where before.segmentID == after.segmentID:
            let segment = try segment(before.segmentID)
            return hasRoom(segment)
                ? .inside(segment, lower: before.orderKey, upper: after.orderKey)
                : .relayout(segment, splicePoint: before.orderKey)
        case (let before?, let after?):
            // At a boundary between segments: end the earlier or start the later.
            let earlier = try segment(before.segmentID)
            let later = try segment(after.segmentID)
            if hasRoom(earlier), earlier.itemCount <= later.itemCount || !hasRoom(later) {
                return .inside(earlier, lower: before.orderKey, upper: nil)
            }
            if hasRoom(later) {
                return .inside(later, lower: nil, upper: after.orderKey)
            }
            return .newSegments(lower: earlier.id, upper: later.id)
        }
    }

    /// Makes room in `segment` for the entries after the key `splicePoint`
    /// (nil: before every item), when its gap there is used up or it is full.
    ///
    /// A small segment is laid out afresh whole. A larger one is split at the
    /// splice point: the shorter side moves, with the entries, into fresh
    /// segments of fresh keys, and the longer side stays as it is. An
    /// adversary inserting again and again at one spot therefore pays for
    /// the few items it recently put there, not for the whole segment.
    private func relayOut(
        _ segment: Segment, splicing entries: [PlacementEntry], after splicePoint: Int64?,
        writer: inout PlacementWriter, counts: inout SegmentCounts
    ) throws {
        let staying = try Row.fetchAll(
            db, cachedSQL: "SELECT id, order_key FROM album_item WHERE segment_id = ? ORDER BY order_key", arguments: [segment.id]
        ).compactMap { row -> (id: AlbumItemID, key: Int64)? in
            let id: AlbumItemID = row[0]
            return writer.sources[id] == nil ? (id, row[1]) : nil
        }
        let splitIndex = splicePoint.map { point in staying.firstIndex { $0.key > point } ?? staying.count } ?? 0
        let head = staying[..<splitIndex]
        let tail = staying[splitIndex...]
        let moving: ArraySlice<(id: AlbumItemID, key: Int64)>
        let sequence: [PlacementEntry]
        let (lowerID, upperID): (Int64?, Int64?)
        if staying.count + entries.count <= Self.mergeSegmentItemCount * 2 {
            // Small: everything moves to one fresh segment taking this one's place.
            moving = staying[...]
            sequence = head.map { .existing($0.id) } + entries + tail.map { .existing($0.id) }
            (lowerID, upperID) = (segment.id, try neighbourSegmentID(of: segment, following: true))
        } else if head.count <= tail.count {
            moving = head
            sequence = head.map { .existing($0.id) } + entries
            (lowerID, upperID) = (try neighbourSegmentID(of: segment, following: false), segment.id)
        } else {
            moving = tail
            sequence = entries + tail.map { .existing($0.id) }
            (lowerID, upperID) = (segment.id, try neighbourSegmentID(of: segment, following: true))
        }
        for item in moving {
            writer.sources[item.id] = ItemPlacement(albumID: albumID, segmentID: segment.id, segmentKey: segment.orderKey, orderKey: item.key)
            counts.add(-1, to: segment.id, in: albumID)
        }
        let chunks = sequence.count <= Self.maximumSegmentItemCount ? [sequence.count] : Self.chunks(of: sequence.count)
        let segmentIDs = try insertSegments(count: chunks.count, between: lowerID, and: upperID)
        var entryIterator = sequence.makeIterator()
        for (segmentID, chunkSize) in zip(segmentIDs, chunks) {
            for key in OrderKeySpace.items.layout(count: chunkSize) {
                try writer.write(entryIterator.next()!, segmentID: segmentID, orderKey: key, counts: &counts)
            }
        }
    }

    private func neighbourSegmentID(of segment: Segment, following: Bool) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: following
                ? "SELECT id FROM album_segment WHERE album_id = ? AND order_key > ? ORDER BY order_key ASC LIMIT 1"
                : "SELECT id FROM album_segment WHERE album_id = ? AND order_key < ? ORDER BY order_key DESC LIMIT 1",
            arguments: [albumID, segment.orderKey])
    }

    /// Lays the album's items out afresh in `order`, which holds each of
    /// them exactly once: fresh segments of fresh keys, the old ones dropped.
    /// Writes every item, as any whole reordering must.
    func rearrange(_ order: [AlbumItemID]) throws {
        let old = try segments()
        let oldSegments = old.map(\.id)
        // Old segments move out of the new ones' way, one by one to free
        // parking keys: a repair may meet keys already beyond the range in use.
        let parking = OrderKeySpace.segments.parkingKeys(count: old.count, avoiding: Set(old.map(\.orderKey)))
        for (segment, key) in zip(old, parking) {
            try db.execute(cachedSQL: "UPDATE album_segment SET order_key = ? WHERE id = ?", arguments: [key, segment.id])
        }
        let chunks = Self.chunks(of: order.count)
        var items = order.makeIterator()
        for (segmentKey, chunkSize) in zip(OrderKeySpace.segments.layout(count: chunks.count), chunks) {
            try db.execute(
                cachedSQL: "INSERT INTO album_segment (album_id, order_key, item_count) VALUES (?, ?, ?)",
                arguments: [albumID, segmentKey, chunkSize])
            let segmentID = db.lastInsertedRowID
            for key in OrderKeySpace.items.layout(count: chunkSize) {
                try db.execute(
                    cachedSQL: "UPDATE album_item SET segment_id = ?, order_key = ? WHERE id = ?", arguments: [segmentID, key, items.next()!])
            }
        }
        for segmentID in oldSegments {
            try db.execute(cachedSQL: "DELETE FROM album_segment WHERE id = ?", arguments: [segmentID])
        }
    }

    /// Sizes of the segments `count` items are cut into.
    static func chunks(of count: Int) -> [Int] {
        let chunkCount = max(1, (count + splitSegmentItemCount - 1) / splitSegmentItemCount)
        return (0..<chunkCount).map { count / chunkCount + ($0 < count % chunkCount ? 1 : 0) }
    }

    /// Creates `count` empty segments between two segments (nil: an end of
    /// the album), respacing the album's segment keys if the gap is used up.
    private func insertSegments(count: Int, between lowerID: Int64?, and upperID: Int64?) throws -> [Int64] {
        func key(of id: Int64?) throws -> Int64? {
            try id.flatMap { try Int64.fetchOne(db, cachedSQL: "SELECT order_key FROM album_segment WHERE id = ?", arguments: [$0]) }
        }
        var keys = OrderKeySpace.segments.keys(count: count, after: try key(of: lowerID), before: try key(of: upperID))
        if keys == nil {
            try respaceSegments(leavingRoomFor: count, after: lowerID)
            keys = OrderKeySpace.segments.keys(count: count, after: try key(of: lowerID), before: try key(of: upperID))
        }
        guard let keys else {
            throw LibraryError.corrupt(path: db.filePath, detail: "album \(albumID) has no room for another segment")
        }
        return try keys.map { key in
            try db.execute(
                cachedSQL: "INSERT INTO album_segment (album_id, order_key, item_count) VALUES (?, ?, 0)", arguments: [albumID, key])
            return db.lastInsertedRowID
        }
    }

    /// Spreads the album's segment keys evenly, leaving `room` free slots
    /// after the segment `after` (nil: at the start). Writes one row per segment.
    private func respaceSegments(leavingRoomFor room: Int, after segmentID: Int64?) throws {
        let ids = try segments().map(\.id)
        let gapIndex = segmentID.flatMap { ids.firstIndex(of: $0).map { $0 + 1 } } ?? 0
        var keys = OrderKeySpace.segments.layout(count: ids.count + room)
        keys.removeSubrange(gapIndex..<gapIndex + room)
        try db.execute(
            cachedSQL: "UPDATE album_segment SET order_key = order_key + ? WHERE album_id = ?",
            arguments: [OrderKeySpace.segments.limit, albumID])
        for (id, key) in zip(ids, keys) {
            try db.execute(cachedSQL: "UPDATE album_segment SET order_key = ? WHERE id = ?", arguments: [key, id])
        }
    }
}

/// Writes placed entries, parking a moving item whose old key is in the way.
private struct PlacementWriter {
    let db: Database
    let albumID: AlbumID
    /// Where the moving items stood before, removed as each is written.
    var sources: [AlbumItemID: ItemPlacement]
    private var occupants: [SlotKey: AlbumItemID] = [:]
    private(set) var createdIDs: [AlbumItemID] = []

    private struct SlotKey: Hashable {
        let segmentID: Int64
        let orderKey: Int64
    }

    init(db: Database, albumID: AlbumID, sources: [AlbumItemID: ItemPlacement]) {
        self.db = db
        self.albumID = albumID
        self.sources = sources
        for (id, placement) in sources {
            occupants[SlotKey(segmentID: placement.segmentID, orderKey: placement.orderKey)] = id
        }
    }

    mutating func write(_ entry: PlacementEntry, segmentID: Int64, orderKey: Int64, counts: inout SegmentCounts) throws {
        let slot = SlotKey(segmentID: segmentID, orderKey: orderKey)
        if let occupant = occupants.removeValue(forKey: slot) {
            if case .existing(let id) = entry, id == occupant {
                // Already there.
            } else {
                try db.execute(
                    cachedSQL: "UPDATE album_item SET order_key = ? WHERE id = ?",
                    arguments: [OrderKeySpace.items.parked(orderKey), occupant])
            }
        }
        counts.add(1, to: segmentID, in: albumID)
        switch entry {
        case .existing(let id):
            if let old = sources.removeValue(forKey: id) {
                occupants.removeValue(forKey: SlotKey(segmentID: old.segmentID, orderKey: old.orderKey))
            }
            try db.execute(
                cachedSQL: "UPDATE album_item SET album_id = ?, segment_id = ?, order_key = ? WHERE id = ?",
                arguments: [albumID, segmentID, orderKey, id])
        case .newPhoto(let photoID, let name, let marks) where marks.isEmpty:
            try db.execute(
                cachedSQL: "INSERT INTO album_item (album_id, segment_id, order_key, photo_id, file_name) VALUES (?, ?, ?, ?, ?)",
                arguments: [albumID, segmentID, orderKey, photoID, name])
            createdIDs.append(AlbumItemID(rawValue: db.lastInsertedRowID))
        case .newPhoto(let photoID, let name, let marks):
            var arguments: StatementArguments = [albumID, segmentID, orderKey, photoID, name]
            arguments += marks.columnValues
            try db.execute(
                cachedSQL: """
                    INSERT INTO album_item (album_id, segment_id, order_key, photo_id, file_name, \(ItemMarks.columns))
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: arguments)
            createdIDs.append(AlbumItemID(rawValue: db.lastInsertedRowID))
        case .newPlaceholder(let load):
            try db.execute(
                cachedSQL: """
                    INSERT INTO album_item (album_id, segment_id, order_key, load_source, load_owner_host,
                        load_owner_process_id, load_owner_started_at, added_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [albumID, segmentID, orderKey, load.source, load.owner.host, load.owner.processID,
                    load.owner.processStartedAt, Timestamp.text(load.createdAt)])
            createdIDs.append(AlbumItemID(rawValue: db.lastInsertedRowID))
        }
    }
}
