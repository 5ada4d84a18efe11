import GRDB

// Changes to items: the writes below resolve ids, check them as every
// change to items is checked (ItemChange.swift, the rules of ItemRules.swift)
// and write. The executions at the end act on a checked change's items,
// writing without looking again, and record the change sets of what they
// wrote; they are this module's alone.

extension LibraryWriter {
    // MARK: - Checked writes

    /// Puts photos into an album as new items, contiguously and in the order given.
    ///
    /// ```swift
    /// try library.write { try $0.insertPhotos([sunrise.id, beach.id], into: trip.id, at: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - photos: Distinct photos, none already in the album.
    ///   - album: The destination, not locked.
    ///   - index: Where the first one stands afterwards (0…item count); nil appends.
    /// - Returns: The new items' identifiers, in order.
    /// - Throws: ``LibraryError/forbidden(reason:)`` unless the principal edits the album,
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/photoAlreadyInAlbum(_:album:)``,
    ///   ``LibraryError/photoNotFound(_:)``, ``LibraryError/positionOutOfRange(index:valid:album:)``.
    @discardableResult
    public func insertPhotos(_ photos: [PhotoID], into album: AlbumID, at index: Int? = nil) throws -> [AlbumItemID] {
        let destination = try self.album(album)
        try requireChangeable(destination)
        var arriving = Set<PhotoID>()
        for photo in photos {
            _ = try self.photo(photo)
            try requireRoom(for: photo, in: destination, arriving: &arriving)
        }
        let index = index ?? destination.itemCount
        try requireLandingIndex(index, in: destination, staying: destination.itemCount)
        return try recordingOperation(described: "add \(LibraryError.counted(photos.count, "photo")) to \(LibraryError.quoted(destination.name)) at position \(index + 1)") {
            try executeInsertion(of: photos, into: destination, at: index)
        }.0
    }

    /// Takes items out of their albums; their photos stay in the library.
    /// Removing a placeholder cancels its load.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/albumLocked(name:)``.
    package func removeItems(_ items: [AlbumItemID]) throws {
        try apply(try checkRemoval(of: try distinctItems(items)))
    }

    /// Moves items, from any albums, to stand contiguously and in the order
    /// given in `album`. Within one album this is a reorder.
    ///
    /// - Parameters:
    ///   - items: Distinct items.
    ///   - album: The destination, not locked, holding none of the moving
    ///     photos except those that move within it.
    ///   - index: Where the first one stands afterwards, counted in the
    ///     album without the moving items (0…that count); nil appends.
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/photoAlreadyInAlbum(_:album:)``,
    ///   ``LibraryError/positionOutOfRange(index:valid:album:)``.
    package func moveItems(_ items: [AlbumItemID], to album: AlbumID, at index: Int? = nil) throws {
        let found = try distinctItems(items)
        let destination = try self.album(album)
        let staying = destination.itemCount - found.filter { $0.item.albumID == album }.count
        try apply(try checkTransfer(of: found, photos: found.compactMap(\.item.photoID), copying: false, to: destination, at: index ?? staying))
    }

    /// Exchanges the places of two items, in one album or across two.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/photoAlreadyInAlbum(_:album:)``.
    package func swapItems(_ first: AlbumItemID, _ second: AlbumItemID) throws {
        let found = try distinctItems([first, second])
        try apply(try checkSwap(found[0], found[1]))
    }

    /// Puts an album's items in a new order, such as a sort produces.
    ///
    /// - Parameter order: Every item of the album, each once, in the new order.
    /// - Throws: ``LibraryError/forbidden(reason:)`` unless the principal edits the album,
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/itemNotFound(_:)`` if `order` is not exactly the album's items.
    public func rearrangeItems(in album: AlbumID, order: [AlbumItemID]) throws {
        let album = try self.album(album)
        try rearrangeItems(of: album, order: order, described: "reorder \(LibraryError.quoted(album.name))")
    }

    /// ``rearrangeItems(in:order:)`` of an album read already, as one
    /// operation of the history in `words` ("sort 'Trip' by name"):
    /// the change sets it recorded.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``, ``LibraryError/albumLocked(name:)``,
    ///   ``LibraryError/duplicateItem(_:)``, ``LibraryError/itemNotFound(_:)``.
    @discardableResult
    package func rearrangeItems(of album: Album, order: [AlbumItemID], described words: String) throws -> [AlbumChangeSet] {
        try apply(try checkRearrangement(of: album, order: order, words: words))
    }

    // MARK: - Executions

    /// Inserts photos at `index` of `album`, each under its name in `names`
    /// (an item's own, see ``LibraryReader/fileName(of:)``) or its photo's;
    /// the caller has checked the rules.
    func executeInsertion(
        of photos: [PhotoID], named names: [PhotoID: String] = [:], marked marks: [PhotoID: ItemMarks] = [:], into album: Album, at index: Int
    ) throws -> [AlbumItemID] {
        try insertRows(photos.map { .newPhoto($0, name: names[$0], marks: marks[$0] ?? .none) }, into: album, at: index, placeholders: 0)
    }

    /// Inserts placeholders at `index` of `album`; the caller has checked the rules.
    func executePlaceholderInsertion(of loads: [PendingLoad], into album: Album, at index: Int) throws -> [AlbumItemID] {
        try insertRows(loads.map { .newPlaceholder($0) }, into: album, at: index, placeholders: loads.count)
    }

    /// Moves resolved items to stand from `index` of `destination` (counted
    /// without them), in order. `albums` holds every album involved.
    func executeMove(of items: [PlacedItem], to destination: Album, at index: Int, albums: [AlbumID: Album]) throws {
        guard !items.isEmpty else { return }
        var sources: [AlbumItemID: ItemPlacement] = [:]
        for placed in items { sources[placed.item.id] = placed.placement }
        let sourceIndexes = items.filter { $0.item.albumID == destination.id }.map(\.item.index).sorted()
        var counts = SegmentCounts()
        _ = try AlbumOrder(db: db, albumID: destination.id).place(
            items.map { .existing($0.item.id) }, at: index, map: segmentMap(for: destination), sources: sources,
            sourceIndexes: sourceIndexes, counts: &counts)
        try apply(counts)
        for (offset, placed) in items.enumerated() {
            let item = placed.item
            if item.albumID == destination.id {
                changes(of: destination) { $0.recordMove(from: item.index, to: index + offset, of: item.id) }
                continue
            }
            let source = albums[item.albumID]!
            let placeholder = item.isPlaceholder ? 1 : 0
            // Summed in the writer, and written once at commit.
            adjustCounts(of: source.id, items: -1, placeholders: -placeholder)
            adjustCounts(of: destination.id, items: 1, placeholders: placeholder)
            changes(of: source) { $0.recordRemoval(at: item.index, of: item.id) }
            changes(of: destination) { $0.recordInsertion(at: index + offset, of: item.id) }
        }
    }

    /// Exchanges the places of two resolved items.
    func executeSwap(_ first: PlacedItem, _ second: PlacedItem, albums: [AlbumID: Album]) throws {
        let (a, b) = (first.item, second.item)
        // Park one so the other can take its key without a UNIQUE clash.
        try db.execute(
            cachedSQL: "UPDATE album_item SET order_key = ? WHERE id = ?",
            arguments: [OrderKeySpace.items.parked(first.placement.orderKey), a.id])
        for (id, target) in [(b.id, first.placement), (a.id, second.placement)] {
            try db.execute(
                cachedSQL: "UPDATE album_item SET album_id = ?, segment_id = ?, order_key = ? WHERE id = ?",
                arguments: [target.albumID, target.segmentID, target.orderKey, id])
        }
        let albumA = albums[a.albumID]!
        let albumB = albums[b.albumID]!
        if a.albumID == b.albumID {
            changes(of: albumA) { changes in
                changes.recordMove(from: a.index, to: b.index, of: a.id)
                changes.recordMove(from: b.index, to: a.index, of: b.id)
            }
            return
        }
        if a.isPlaceholder != b.isPlaceholder {
            let delta = a.isPlaceholder ? 1 : -1
            adjustCounts(of: b.albumID, items: 0, placeholders: delta)
            adjustCounts(of: a.albumID, items: 0, placeholders: -delta)
        }
        changes(of: albumA) { changes in
            changes.recordRemoval(at: a.index, of: a.id)
            changes.recordInsertion(at: a.index, of: b.id)
        }
        changes(of: albumB) { changes in
            changes.recordRemoval(at: b.index, of: b.id)
            changes.recordInsertion(at: b.index, of: a.id)
        }
    }

    /// Deletes resolved items' rows. `albums` holds their albums.
    ///
    /// - Parameter tidiesSegments: Whether segments left empty or small are
    ///   dropped or merged. A load's own failure does not: its row changes
    ///   stay out of the history, and undo must find every segment and key
    ///   the history names where it was.
    func executeRemoval(of items: [PlacedItem], albums: [AlbumID: Album], tidiesSegments: Bool = true) throws {
        var counts = SegmentCounts()
        for placed in items {
            let item = placed.item
            try db.execute(cachedSQL: "DELETE FROM album_item WHERE id = ?", arguments: [item.id])
            counts.add(-1, to: placed.placement.segmentID, in: item.albumID)
            adjustCounts(of: item.albumID, items: -1, placeholders: item.isPlaceholder ? -1 : 0)
            changes(of: albums[item.albumID]!) { $0.recordRemoval(at: item.index, of: item.id) }
        }
        try apply(counts, tidying: tidiesSegments)
    }

    /// Lays `album` out in `order` (every item once); `current` is its order now.
    func executeRearrangement(of album: Album, from current: [AlbumItem], to order: [AlbumItemID]) throws {
        try AlbumOrder(db: db, albumID: album.id).rearrange(order)
        noteRestructured(album.id)
        let oldIndexes = Dictionary(uniqueKeysWithValues: current.map { ($0.id, $0.index) })
        changes(of: album) { changes in
            for (newIndex, id) in order.enumerated() where oldIndexes[id] != newIndex {
                changes.recordMove(from: oldIndexes[id]!, to: newIndex, of: id)
            }
        }
    }

    // MARK: - Helpers

    /// The items, in the order given, refusing unknown and repeated ones.
    func distinctItems(_ ids: [AlbumItemID]) throws -> [PlacedItem] {
        var seen = Set<AlbumItemID>()
        return try ids.map { id in
            guard seen.insert(id).inserted else { throw LibraryError.duplicateItem(.item(id)) }
            return try placedItem(id)
        }
    }

    /// The albums holding `items`, by id.
    func albumsOf(_ items: [PlacedItem]) throws -> [AlbumID: Album] {
        var albums: [AlbumID: Album] = [:]
        for placed in items where albums[placed.item.albumID] == nil {
            albums[placed.item.albumID] = try album(placed.item.albumID)
        }
        return albums
    }

    private func insertRows(_ entries: [PlacementEntry], into album: Album, at index: Int, placeholders: Int) throws -> [AlbumItemID] {
        guard !entries.isEmpty else { return [] }
        var counts = SegmentCounts()
        let created = try AlbumOrder(db: db, albumID: album.id).place(
            entries, at: index, map: segmentMap(for: album), sources: [:], sourceIndexes: [], counts: &counts)
        try apply(counts)
        adjustCounts(of: album.id, items: created.count, placeholders: placeholders)
        changes(of: album) { changes in
            for (offset, id) in created.enumerated() { changes.recordInsertion(at: index + offset, of: id) }
        }
        return created
    }

    /// The albums' quoted names, by name, for the history's words.
    package static func names(of albums: some Sequence<Album>) -> String {
        albums.map(\.name).sorted().map(LibraryError.quoted).joined(separator: ", ")
    }

}
