import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire

/// What `import` and `pending resume` print with --json.
struct LoadReportJSON: Encodable {
    struct Imported: Encodable {
        let source: String
        let photoID: Int64
        /// Null if another process has since moved the item out or removed it.
        @KeptNull var position: Int?
        let newPhoto: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case source
            case photoID = "photo_id"
            case position
            case newPhoto = "new_photo"
        }
    }

    struct Duplicate: Encodable {
        let source: String
        let photoID: Int64

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case source
            case photoID = "photo_id"
        }
    }

    struct Problem: Encodable {
        let source: String
        let reason: String
    }

    @KeptNull var album: String?
    let imported: [Imported]
    let alreadyInAlbum: [Duplicate]
    let skipped: [Problem]
    let failed: [Problem]
    let cancelled: [String]
    /// Loads whose copy the library's place did not take: their placeholders keep their slots.
    var waiting: [Problem] = []
    let changes: [ChangeJSON]

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case album
        case imported
        case alreadyInAlbum = "already_in_album"
        case skipped
        case failed
        case cancelled
        case waiting
        case changes
    }
}
