import AlbumsPersistence

/// An item as `list` and `show` print it with --json, and the API serves it.
package struct ItemJSON: Encodable, Sendable {
    let position: Int
    let item_id: Int64
    @KeptNull var photo_id: Int64?
    @KeptNull var placeholder_id: Int64?
    @KeptNull var file: String?
    @KeptNull var media_type: String?
    @KeptNull var pixel_width: Int?
    @KeptNull var pixel_height: Int?
    /// EXIF's 1–8; null for placeholders.
    @KeptNull var orientation: Int?
    @KeptNull var display_width: Int?
    @KeptNull var display_height: Int?
    @KeptNull var captured_at: String?
    @KeptNull var byte_count: Int64?
    @KeptNull var sha256: String?
    @KeptNull var source: String?
    @KeptNull var stale: Bool?

    package init(_ item: AlbumItem, photo: Photo?) {
        position = item.index + 1
        item_id = item.id.rawValue
        photo_id = item.photoID?.rawValue
        placeholder_id = item.isPlaceholder ? item.id.rawValue : nil
        file = photo?.content.originalName
        media_type = photo?.content.mediaType
        pixel_width = photo?.content.pixelWidth
        pixel_height = photo?.content.pixelHeight
        orientation = photo?.content.orientation.rawValue
        display_width = photo?.content.displayWidth
        display_height = photo?.content.displayHeight
        captured_at = photo?.content.capturedAt?.text
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

/// An album as `album list` and `list` print it with --json, and the API serves it.
package struct AlbumJSON: Encodable, Sendable {
    /// Never reused, and kept through renames.
    let id: Int64
    let name: String
    let position: Int
    let count: Int
    let pending: Int
    let revision: Int64
    let locked: Bool

    package init(_ album: Album) {
        id = album.id.rawValue
        name = album.name
        position = album.index + 1
        count = album.itemCount
        pending = album.placeholderCount
        revision = album.revision
        locked = album.isLocked
    }
}

/// What a write prints with --json.
package struct WriteJSON: Encodable, Sendable {
    let changes: [ChangeJSON]
    let dry_run: Bool
    /// move, copy, no_op.
    let verdict: String

    package init(changes: [ChangeJSON], dry_run: Bool, verdict: String) {
        self.changes = changes
        self.dry_run = dry_run
        self.verdict = verdict
    }
}
