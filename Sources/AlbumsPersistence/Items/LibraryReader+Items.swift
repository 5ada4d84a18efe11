import AlbumsImageFacts
import Foundation
import GRDB

extension LibraryReader {
    // Column positions are read by index below: keep the order.
    static let itemColumns = """
        i.id, i.album_id, i.photo_id, i.load_source, i.load_owner_host, i.load_owner_process_id,
        i.load_owner_started_at, i.added_at
        """

    /// Item columns plus the photo's, for listings that show both: the
    /// photo as the item shows it, under the item's name where it has one.
    private static let itemAndPhotoColumns = itemColumns + """
        , p.sha256, p.byte_count, p.media_type, p.pixel_width, p.pixel_height, p.captured_at,
        COALESCE(i.file_name, p.original_name), p.source_path, p.imported_at, p.orientation,
        p.camera_make, p.camera_model, p.lens, p.has_location, p.file_orientation, p.kept_in, p.duration,
        p.motion_sha256, p.motion_byte_count, p.motion_media_type, p.motion_duration, p.motion_source_path, p.is_apart
        """

    /// The photo of a row of ``itemAndPhotoColumns``, by column position.
    private static func photo(fromListing row: Row) -> Photo? {
        guard let id: PhotoID = row[2] else { return nil }
        return Photo(
            id: id,
            content: PhotoContent(
                sha256: row[8], byteCount: row[9], mediaType: row[10], pixelWidth: row[11], pixelHeight: row[12],
                orientation: PhotoOrientation(storedValue: row[17]), capturedAt: (row[13] as String?).flatMap(CaptureDate.init),
                cameraMake: row[18], cameraModel: row[19], lens: row[20], hasLocation: row[21],
                originalName: row[14], sourcePath: row[15],
                fileOrientation: (row[22] as Int?).flatMap(PhotoOrientation.init(rawValue:)), keptIn: row[23], duration: row[24],
                motion: Self.motion(fromListing: row)),
            importedAt: Timestamp.date(row[16]), isApart: row[30])
    }

    /// The motion of a row of ``itemAndPhotoColumns``, by column position.
    private static func motion(fromListing row: Row) -> MotionContent? {
        guard let sha256: Data = row[25], let byteCount: Int64 = row[26], let mediaType: String = row[27], let sourcePath: String = row[29] else { return nil }
        return MotionContent(sha256: sha256, byteCount: byteCount, mediaType: mediaType, duration: row[28], sourcePath: sourcePath)
    }

    /// An item from a row of ``itemColumns``, read by column position: a
    /// listing reads millions of rows, and a lookup by name costs per column.
    static func item(from row: Row, index: Int) -> AlbumItem {
        let content: AlbumItem.Content
        if let photoID: PhotoID = row[2] {
            content = .photo(photoID)
        } else {
            content = .placeholder(
                PendingLoad(
                    source: row[3],
                    owner: LoadOwner(host: row[4], processID: row[5], processStartedAt: row[6]),
                    createdAt: Timestamp.date(row[7])))
        }
        return AlbumItem(id: row[0], albumID: row[1], index: index, content: content)
    }

    /// Calls `body` with each item of an album in order, from `index` on,
    /// reading one row at a time: memory stays flat for any album size.
    ///
    /// - Parameters:
    ///   - album: The album to read.
    ///   - index: The 0-based index to start at; the album's item count gives nothing.
    ///   - body: Returns false to stop early.
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/positionOutOfRange(index:valid:album:)``.
    public func forEachItem(in album: AlbumID, from index: Int = 0, _ body: (AlbumItem) throws -> Bool) throws {
        let album = try self.album(album)
        guard (0...album.itemCount).contains(index) else {
            throw LibraryError.positionOutOfRange(index: index, valid: 0..<album.itemCount + 1, album: album.name)
        }
        guard index < album.itemCount else { return }
        let start = index == 0 ? nil : try AlbumOrder(db: db, albumID: album.id).item(at: index, in: segmentMap(for: album)).placement
        try stream(album.id, from: start, inclusive: true, firstIndex: index, withPhotos: false) { item, _ in try body(item) }
    }

    /// Like ``forEachItem(in:from:_:)``, with each item's photo (nil for a
    /// placeholder) read in the same pass: what a listing shows.
    public func forEachListedItem(in album: AlbumID, from index: Int = 0, _ body: (AlbumItem, Photo?) throws -> Bool) throws {
        let album = try self.album(album)
        guard (0...album.itemCount).contains(index) else {
            throw LibraryError.positionOutOfRange(index: index, valid: 0..<album.itemCount + 1, album: album.name)
        }
        guard index < album.itemCount else { return }
        let start = index == 0 ? nil : try AlbumOrder(db: db, albumID: album.id).item(at: index, in: segmentMap(for: album)).placement
        try stream(album.id, from: start, inclusive: true, firstIndex: index, withPhotos: true, body)
    }

    /// The name an item's photo goes by in its album where it is not the
    /// photo's own (bytes loaded again under another name); nil otherwise.
    public func fileName(of item: AlbumItemID) throws -> String? {
        try String.fetchOne(db, cachedSQL: "SELECT file_name FROM album_item WHERE id = ?", arguments: [item])
    }

    /// The photo in `item`, as the item shows it: under the item's name where it has one.
    public func photo(shownBy item: AlbumItem) throws -> Photo? {
        guard let id = item.photoID else { return nil }
        let photo = try self.photo(id)
        guard let name = try fileName(of: item.id) else { return photo }
        var content = photo.content
        content.originalName = name
        return Photo(id: photo.id, content: content, importedAt: photo.importedAt, isApart: photo.isApart)
    }

    /// Every item of an album, in order.
    public func items(in album: AlbumID) throws -> [AlbumItem] {
        var items: [AlbumItem] = []
        try forEachItem(in: album) { items.append($0); return true }
        return items
    }

    /// The items at `indexes` of an album: one page, by index.
    ///
    /// - Throws: ``LibraryError/positionOutOfRange(index:valid:album:)`` if the
    ///   range reaches past the end.
    public func items(in album: AlbumID, indexes: Range<Int>) throws -> [AlbumItem] {
        let count = try self.album(album).itemCount
        if indexes.upperBound > count {
            throw LibraryError.positionOutOfRange(index: indexes.upperBound - 1, valid: 0..<count, album: try self.album(album).name)
        }
        var items: [AlbumItem] = []
        guard !indexes.isEmpty else { return items }
        try forEachItem(in: album, from: indexes.lowerBound) { item in
            items.append(item)
            return items.count < indexes.count
        }
        return items
    }

    /// Up to `limit` items that follow `item` in its album (nil: from the
    /// start of `album`): one page, by key.
    ///
    /// Pages by key stay correct while the album changes between pages: the
    /// next page starts after the last item seen, wherever it now stands.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)`` if `item` is gone or is not in `album`.
    public func items(in album: AlbumID, after item: AlbumItemID?, limit: Int) throws -> [AlbumItem] {
        var items: [AlbumItem] = []
        guard limit > 0 else { return items }
        let collect: (AlbumItem) -> Bool = { items.append($0); return items.count < limit }
        guard let item else {
            try forEachItem(in: album, collect)
            return items
        }
        guard let placement = try AlbumOrder.placement(of: item, in: db), placement.albumID == album else {
            throw LibraryError.itemNotFound(.item(item))
        }
        let index = try AlbumOrder(db: db, albumID: album).index(of: placement)
        try stream(album, from: placement, inclusive: false, firstIndex: index + 1, withPhotos: false) { item, _ in collect(item) }
        return items
    }

    /// Streams items from `start` (nil: the album's first) in order.
    private func stream(
        _ album: AlbumID, from start: ItemPlacement?, inclusive: Bool, firstIndex: Int, withPhotos: Bool,
        _ body: (AlbumItem, Photo?) throws -> Bool
    ) throws {
        let columns = withPhotos ? Self.itemAndPhotoColumns : Self.itemColumns
        let photoJoin = withPhotos ? "LEFT JOIN photo p ON p.id = i.photo_id" : ""
        var index = firstIndex
        func emit(_ row: Row) throws -> Bool {
            defer { index += 1 }
            return try body(Self.item(from: row, index: index), withPhotos ? Self.photo(fromListing: row) : nil)
        }
        if let start {
            let rest = try Row.fetchCursor(
                db,
                sql: "SELECT \(columns) FROM album_item i \(photoJoin) WHERE i.segment_id = ? AND i.order_key \(inclusive ? ">=" : ">") ? ORDER BY i.order_key",
                arguments: [start.segmentID, start.orderKey])
            while let row = try rest.next() {
                guard try emit(row) else { return }
            }
        }
        // CROSS JOIN keeps segments as the outer loop: rows come in order from
        // the two indexes, with no sort and no temporary table.
        let following = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(columns)
                FROM album_segment s CROSS JOIN album_item i ON i.segment_id = s.id \(photoJoin)
                WHERE s.album_id = ? AND s.order_key > ?
                ORDER BY s.order_key, i.order_key
                """,
            arguments: [album, start?.segmentKey ?? 0])
        while let row = try following.next() {
            guard try emit(row) else { return }
        }
    }

    /// The item at a 0-based index of an album.
    ///
    /// - Throws: ``LibraryError/positionOutOfRange(index:valid:album:)``, ``LibraryError/albumNotFound(_:)``.
    public func item(at index: Int, in album: AlbumID) throws -> AlbumItem {
        try placedItem(at: index, in: try self.album(album)).item
    }

    /// The item at a 0-based index of `album`, with where it stands.
    ///
    /// - Throws: ``LibraryError/positionOutOfRange(index:valid:album:)``.
    package func placedItem(at index: Int, in album: Album) throws -> PlacedItem {
        guard (0..<album.itemCount).contains(index) else {
            throw LibraryError.positionOutOfRange(index: index, valid: 0..<album.itemCount, album: album.name)
        }
        return try AlbumOrder(db: db, albumID: album.id).item(at: index, in: segmentMap(for: album))
    }

    /// The item with identifier `id`, with its index and where it stands.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``.
    package func placedItem(_ id: AlbumItemID) throws -> PlacedItem {
        guard let row = try Row.fetchOne(
            db,
            cachedSQL: """
                SELECT \(Self.itemColumns), s.order_key, i.segment_id, i.order_key
                FROM album_item i JOIN album_segment s ON s.id = i.segment_id WHERE i.id = ?
                """,
            arguments: [id])
        else { throw LibraryError.itemNotFound(.item(id)) }
        let placement = ItemPlacement(albumID: row[1], segmentID: row[9], segmentKey: row[8], orderKey: row[10])
        let index = try AlbumOrder(db: db, albumID: placement.albumID).index(of: placement)
        return PlacedItem(item: Self.item(from: row, index: index), placement: placement)
    }

    /// The item holding `photo` in `album`, with where it stands, if the album has it.
    package func placedItem(holding photo: PhotoID, in album: AlbumID) throws -> PlacedItem? {
        guard let id = try AlbumItemID.fetchOne(
            db, cachedSQL: "SELECT id FROM album_item WHERE album_id = ? AND photo_id = ?", arguments: [album, photo])
        else { return nil }
        return try placedItem(id)
    }

    /// Whether `album` holds `photo`.
    package func contains(_ photo: PhotoID, in album: AlbumID) throws -> Bool {
        try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album_item WHERE album_id = ? AND photo_id = ?", arguments: [album, photo]) ?? false
    }

    /// The item with identifier `id`, with its current index.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``.
    public func item(_ id: AlbumItemID) throws -> AlbumItem {
        try placedItem(id).item
    }

    func item(_ id: AlbumItemID, index: Int) throws -> AlbumItem {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.itemColumns) FROM album_item i WHERE i.id = ?", arguments: [id])
        else { throw LibraryError.itemNotFound(.item(id)) }
        return Self.item(from: row, index: index)
    }

    /// The 0-based index of an item in its album.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``.
    public func index(of item: AlbumItemID) throws -> Int {
        guard let placement = try AlbumOrder.placement(of: item, in: db) else { throw LibraryError.itemNotFound(.item(item)) }
        return try AlbumOrder(db: db, albumID: placement.albumID).index(of: placement)
    }

    /// The item holding `photo` in `album`, if the album has it.
    public func item(holding photo: PhotoID, in album: AlbumID) throws -> AlbumItem? {
        try placedItem(holding: photo, in: album)?.item
    }
}
