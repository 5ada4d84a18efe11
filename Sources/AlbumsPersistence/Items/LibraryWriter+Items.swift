import GRDB

extension LibraryWriter {
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
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/photoAlreadyInAlbum(_:album:)``,
    ///   ``LibraryError/photoNotFound(_:)``, ``LibraryError/indexOutOfRange(index:valid:album:)``.
    @discardableResult
    public func insertPhotos(_ photos: [PhotoID], into album: AlbumID, at index: Int? = nil) throws -> [AlbumItemID] {
        let destination = try unlockedAlbum(album)
        var seen = Set<PhotoID>()
        for photo in photos {
            _ = try self.photo(photo)
            guard seen.insert(photo).inserted, try item(holding: photo, in: album) == nil else {
                throw LibraryError.photoAlreadyInAlbum(photo, album: destination.name)
            }
        }
        return try place(photos.map { .newPhoto($0) }, into: destination, at: index, moving: [:])
    }

    /// Takes items out of their albums; their photos stay in the library.
    /// Removing a placeholder cancels its load.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/albumLocked(name:)``.
    public func removeItems(_ items: [AlbumItemID]) throws {
        let found = try distinctItems(items)
        for albumID in Set(found.map(\.albumID)) { _ = try unlockedAlbum(albumID) }
        try deleteRows(found)
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
    ///   ``LibraryError/indexOutOfRange(index:valid:album:)``.
    public func moveItems(_ items: [AlbumItemID], to album: AlbumID, at index: Int? = nil) throws {
        let found = try distinctItems(items)
        let destination = try unlockedAlbum(album)
        for albumID in Set(found.map(\.albumID)) { _ = try unlockedAlbum(albumID) }
        var arriving = Set<PhotoID>()
        for item in found where item.albumID != album {
            // Two moving items of one photo would put it twice in the album, too.
            if let photo = item.photoID, try self.item(holding: photo, in: album) != nil || !arriving.insert(photo).inserted {
                throw LibraryError.photoAlreadyInAlbum(photo, album: destination.name)
            }
        }
        var sources: [AlbumItemID: ItemPlacement] = [:]
        for item in found {
            sources[item.id] = try AlbumOrder.placement(of: item.id, in: db)
        }
        _ = try place(found.map { .existing($0.id) }, into: destination, at: index, moving: sources)
        for item in found where item.albumID != album {
            try adjustCounts(of: item.albumID, items: -1, placeholders: item.isPlaceholder ? -1 : 0)
            try adjustCounts(of: album, items: 1, placeholders: item.isPlaceholder ? 1 : 0)
            markChanged(item.albumID)
        }
    }

    /// Exchanges the places of two items, in one album or across two.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/albumLocked(name:)``, ``LibraryError/photoAlreadyInAlbum(_:album:)``.
    public func swapItems(_ first: AlbumItemID, _ second: AlbumItemID) throws {
        let found = try distinctItems([first, second])
        let (a, b) = (found[0], found[1])
        let albumA = try unlockedAlbum(a.albumID)
        let albumB = try unlockedAlbum(b.albumID)
        if a.albumID != b.albumID {
            if let photo = a.photoID, try item(holding: photo, in: b.albumID) != nil {
                throw LibraryError.photoAlreadyInAlbum(photo, album: albumB.name)
            }
            if let photo = b.photoID, try item(holding: photo, in: a.albumID) != nil {
                throw LibraryError.photoAlreadyInAlbum(photo, album: albumA.name)
            }
        }
        guard let placementA = try AlbumOrder.placement(of: a.id, in: db),
            let placementB = try AlbumOrder.placement(of: b.id, in: db)
        else { throw LibraryError.itemNotFound(a.id) }
        // Park one so the other can take its key without a UNIQUE clash.
        try db.execute(
            cachedSQL: "UPDATE album_item SET order_key = ? WHERE id = ?",
            arguments: [OrderKeySpace.items.parked(placementA.orderKey), a.id])
        for (id, target) in [(b.id, placementA), (a.id, placementB)] {
            try db.execute(
                cachedSQL: "UPDATE album_item SET album_id = ?, segment_id = ?, order_key = ? WHERE id = ?",
                arguments: [target.albumID, target.segmentID, target.orderKey, id])
        }
        if a.albumID != b.albumID, a.isPlaceholder != b.isPlaceholder {
            let delta = a.isPlaceholder ? 1 : -1
            try adjustCounts(of: b.albumID, items: 0, placeholders: delta)
            try adjustCounts(of: a.albumID, items: 0, placeholders: -delta)
        }
        markChanged(a.albumID)
        markChanged(b.albumID)
    }

    /// Puts an album's items in a new order, such as a sort produces.
    ///
    /// - Parameter order: Every item of the album, each once, in the new order.
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/duplicateItem(_:)``,
    ///   ``LibraryError/itemNotFound(_:)`` if `order` is not exactly the album's items.
    public func rearrangeItems(in album: AlbumID, order: [AlbumItemID]) throws {
        let album = try unlockedAlbum(album)
        let current = try AlbumItemID.fetchAll(db, cachedSQL: "SELECT id FROM album_item WHERE album_id = ?", arguments: [album.id])
        var seen = Set<AlbumItemID>()
        for id in order where !seen.insert(id).inserted { throw LibraryError.duplicateItem(id) }
        if let stranger = order.first(where: { !Set(current).contains($0) }) { throw LibraryError.itemNotFound(stranger) }
        if let missing = current.first(where: { !seen.contains($0) }) { throw LibraryError.itemNotFound(missing) }
        try AlbumOrder(db: db, albumID: album.id).rearrange(order)
        markChanged(album.id)
    }

    // MARK: - Helpers

    func unlockedAlbum(_ id: AlbumID) throws -> Album {
        let album = try album(id)
        if album.isLocked { throw LibraryError.albumLocked(name: album.name) }
        return album
    }

    /// The items, in the order given, refusing unknown and repeated ones.
    /// Their `index` is not looked up (it costs a count), and reads -1.
    func distinctItems(_ ids: [AlbumItemID]) throws -> [AlbumItem] {
        var seen = Set<AlbumItemID>()
        return try ids.map { id in
            guard seen.insert(id).inserted else { throw LibraryError.duplicateItem(id) }
            return try item(id, index: -1)
        }
    }

    func place(
        _ entries: [PlacementEntry], into album: Album, at index: Int?, moving sources: [AlbumItemID: ItemPlacement]
    ) throws -> [AlbumItemID] {
        let staying = album.itemCount - sources.values.filter { $0.albumID == album.id }.count
        let index = index ?? staying
        guard (0...staying).contains(index) else {
            throw LibraryError.indexOutOfRange(index: index, valid: 0..<staying + 1, album: album.name)
        }
        guard !entries.isEmpty else { return [] }
        var counts = SegmentCounts()
        let created = try AlbumOrder(db: db, albumID: album.id).place(entries, at: index, sources: sources, counts: &counts)
        try counts.apply(in: db)
        let newPlaceholders = entries.filter { if case .newPlaceholder = $0 { true } else { false } }.count
        try adjustCounts(of: album.id, items: created.count, placeholders: newPlaceholders)
        markChanged(album.id)
        return created
    }

    func deleteRows(_ items: [AlbumItem]) throws {
        var counts = SegmentCounts()
        for item in items {
            guard let placement = try AlbumOrder.placement(of: item.id, in: db) else { throw LibraryError.itemNotFound(item.id) }
            try db.execute(cachedSQL: "DELETE FROM album_item WHERE id = ?", arguments: [item.id])
            counts.add(-1, to: placement.segmentID, in: item.albumID)
            try adjustCounts(of: item.albumID, items: -1, placeholders: item.isPlaceholder ? -1 : 0)
            markChanged(item.albumID)
        }
        try counts.apply(in: db)
    }

    func adjustCounts(of album: AlbumID, items: Int, placeholders: Int) throws {
        guard items != 0 || placeholders != 0 else { return }
        try db.execute(
            cachedSQL: "UPDATE album SET item_count = item_count + ?, placeholder_count = placeholder_count + ? WHERE id = ?",
            arguments: [items, placeholders, album])
    }
}
