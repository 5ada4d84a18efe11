import AlbumsPersistence

/// One album's change set as JSON: 1-based positions, as everywhere in the
/// CLI and the server's API, each list beside the item ids it is about.
package struct ChangeJSON: Encodable, Sendable {
    package struct Move: Encodable, Sendable {
        let from: Int
        let to: Int
        let itemID: Int64

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case from
            case to
            case itemID = "item_id"
        }
    }

    let album: String
    /// The album's id: names change (a rename, an undone rename), ids never do.
    let albumID: Int64
    let albumEvents: [String]
    let revision: Int64
    let removed: [Int]
    let removedItems: [Int64]
    let inserted: [Int]
    let insertedItems: [Int64]
    let moved: [Move]
    let updated: [Int]
    let updatedItems: [Int64]

    package init(_ changes: AlbumChangeSet) {
        album = changes.albumName
        albumID = changes.albumID.rawValue
        albumEvents = changes.albumEvents.map(\.rawValue)
        revision = changes.revision
        removed = changes.removed.map { $0 + 1 }
        removedItems = changes.removedItems.map(\.rawValue)
        inserted = changes.inserted.map { $0 + 1 }
        insertedItems = changes.insertedItems.map(\.rawValue)
        moved = changes.moved.map { Move(from: $0.from + 1, to: $0.to + 1, itemID: $0.item.rawValue) }
        updated = changes.updated.map { $0 + 1 }
        updatedItems = changes.updatedItems.map(\.rawValue)
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case album
        case albumID = "album_id"
        case albumEvents = "album_events"
        case revision
        case removed
        case removedItems = "removed_items"
        case inserted
        case insertedItems = "inserted_items"
        case moved
        case updated
        case updatedItems = "updated_items"
    }
}
