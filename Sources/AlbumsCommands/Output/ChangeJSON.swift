import AlbumsTransfer

/// One album's change set as JSON: 1-based positions, as everywhere in the CLI.
struct ChangeJSON: Encodable {
    struct Move: Encodable {
        let from: Int
        let to: Int
    }

    let album: String
    let revision: Int64
    let removed: [Int]
    let inserted: [Int]
    let moved: [Move]
    let updated: [Int]

    init(_ changes: AlbumChangeSet) {
        album = changes.albumName
        revision = changes.revision
        removed = changes.removed.map { $0 + 1 }
        inserted = changes.inserted.map { $0 + 1 }
        moved = changes.moved.map { Move(from: $0.from + 1, to: $0.to + 1) }
        updated = changes.updated.map { $0 + 1 }
    }
}
