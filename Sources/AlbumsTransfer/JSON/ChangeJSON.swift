import AlbumsPersistence

/// One album's change set as JSON: 1-based positions, as everywhere in the
/// CLI and the server's API, each list beside the item ids it is about.
package struct ChangeJSON: Encodable, Sendable {
    package struct Move: Encodable, Sendable {
        let from: Int
        let to: Int
        let item_id: Int64
    }

    let album: String
    /// The album's id: names change (a rename, an undone rename), ids never do.
    let album_id: Int64
    let album_events: [String]
    let revision: Int64
    let removed: [Int]
    let removed_items: [Int64]
    let inserted: [Int]
    let inserted_items: [Int64]
    let moved: [Move]
    let updated: [Int]
    let updated_items: [Int64]

    package init(_ changes: AlbumChangeSet) {
        album = changes.albumName
        album_id = changes.albumID.rawValue
        album_events = changes.albumEvents.map(\.rawValue)
        revision = changes.revision
        removed = changes.removed.map { $0 + 1 }
        removed_items = changes.removedItems.map(\.rawValue)
        inserted = changes.inserted.map { $0 + 1 }
        inserted_items = changes.insertedItems.map(\.rawValue)
        moved = changes.moved.map { Move(from: $0.from + 1, to: $0.to + 1, item_id: $0.item.rawValue) }
        updated = changes.updated.map { $0 + 1 }
        updated_items = changes.updatedItems.map(\.rawValue)
    }
}
