import AlbumsPersistence

/// An item as `list` and `show` print it with --json.
struct ItemJSON: Encodable {
    let position: Int
    let item_id: Int64
    let photo_id: Int64?
    let placeholder_id: Int64?
    let file: String?
    let media_type: String?
    let pixel_width: Int?
    let pixel_height: Int?
    let captured_at: String?
    let byte_count: Int64?
    let sha256: String?
    let source: String?
    let stale: Bool?

    init(_ item: AlbumItem, photo: Photo?) {
        position = item.index + 1
        item_id = item.id.rawValue
        photo_id = item.photoID?.rawValue
        placeholder_id = item.isPlaceholder ? item.id.rawValue : nil
        file = photo?.content.originalName
        media_type = photo?.content.mediaType
        pixel_width = photo?.content.pixelWidth
        pixel_height = photo?.content.pixelHeight
        captured_at = photo?.content.capturedAt
        byte_count = photo?.content.byteCount
        sha256 = photo?.content.sha256Hex
        switch item.content {
        case .placeholder(let load):
            source = load.source
            stale = load.owner.isGone
        case .photo:
            source = photo?.content.sourcePath
            stale = nil
        }
    }
}

extension ItemJSON {
    enum CodingKeys: String, CodingKey {
        case position, item_id, photo_id, placeholder_id, file, media_type, pixel_width, pixel_height
        case captured_at, byte_count, sha256, source, stale
    }

    /// Every key, null included: scripts may rely on `photo_id` and
    /// `placeholder_id` being present in every item.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(item_id, forKey: .item_id)
        try container.encode(photo_id, forKey: .photo_id)
        try container.encode(placeholder_id, forKey: .placeholder_id)
        try container.encode(file, forKey: .file)
        try container.encode(media_type, forKey: .media_type)
        try container.encode(pixel_width, forKey: .pixel_width)
        try container.encode(pixel_height, forKey: .pixel_height)
        try container.encode(captured_at, forKey: .captured_at)
        try container.encode(byte_count, forKey: .byte_count)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(source, forKey: .source)
        try container.encode(stale, forKey: .stale)
    }
}

/// An album as `album list` and `list` print it with --json.
struct AlbumJSON: Encodable {
    let name: String
    let position: Int
    let count: Int
    let pending: Int
    let revision: Int64
    let locked: Bool

    init(_ album: Album) {
        name = album.name
        position = album.index + 1
        count = album.itemCount
        pending = album.placeholderCount
        revision = album.revision
        locked = album.isLocked
    }
}

/// What a write prints with --json.
struct WriteJSON: Encodable {
    let changes: [ChangeJSON]
    let dry_run: Bool
    /// move, copy, no_op.
    let verdict: String
}
