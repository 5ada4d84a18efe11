import AlbumsPersistence
import AlbumsTransfer

/// What `import` and `pending resume` print with --json.
struct LoadReportJSON: Encodable {
    struct Imported: Encodable {
        let source: String
        let photo_id: Int64
        let position: Int?
        let new_photo: Bool

        // Spelled out: the synthesized encoding drops a nil position, and
        // scripts read it as null.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(photo_id, forKey: .photo_id)
            try container.encode(position, forKey: .position)
            try container.encode(new_photo, forKey: .new_photo)
        }

        enum CodingKeys: String, CodingKey { case source, photo_id, position, new_photo }
    }

    struct Duplicate: Encodable {
        let source: String
        let photo_id: Int64
    }

    struct Problem: Encodable {
        let source: String
        let reason: String
    }

    let album: String?
    let imported: [Imported]
    let already_in_album: [Duplicate]
    let skipped: [Problem]
    let failed: [Problem]
    let cancelled: [String]
    let changes: [ChangeJSON]

    enum CodingKeys: String, CodingKey { case album, imported, already_in_album, skipped, failed, cancelled, changes }

    /// Every key, `album` null for an import into the library alone.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(album, forKey: .album)
        try container.encode(imported, forKey: .imported)
        try container.encode(already_in_album, forKey: .already_in_album)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(failed, forKey: .failed)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(changes, forKey: .changes)
    }
}
