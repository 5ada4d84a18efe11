import AlbumsPersistence
import AlbumsTransfer

/// What `import` and `pending resume` print with --json.
struct LoadReportJSON: Encodable {
    struct Imported: Encodable {
        let source: String
        let photo_id: Int64
        /// Null if another process has since moved the item out or removed it.
        @KeptNull var position: Int?
        let new_photo: Bool
    }

    struct Duplicate: Encodable {
        let source: String
        let photo_id: Int64
    }

    struct Problem: Encodable {
        let source: String
        let reason: String
    }

    @KeptNull var album: String?
    let imported: [Imported]
    let already_in_album: [Duplicate]
    let skipped: [Problem]
    let failed: [Problem]
    let cancelled: [String]
    let changes: [ChangeJSON]
}
