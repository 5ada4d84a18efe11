import AlbumsPersistence

/// Words and marks written on items: a title, a caption, a favourite
/// mark, a rating, keywords (``AlbumsPersistence/ItemMarksEdit``).
///
/// ```swift
/// var edit = ItemMarksEdit()
/// edit.rating = .set(.stars(5))
/// try library.write { try $0.perform(.mark(ItemMarking(items: [.position(0, in: "Book")], edit: edit))) }
/// ```
///
/// Like every operation, it is one undoable entry of the history, a change
/// set per album (each item it changes is an update), and a batch line
/// (`{"op": "mark", …}`). An album's editors mark its items, in a locked
/// album too: a lock keeps the items in their order, not their words.
public struct ItemMarking: Hashable, Sendable {
    /// Its name in a batch line and a result.
    public static let operationName = "mark"

    /// The items to mark.
    public var items: [ItemReference]
    /// What changes on each of them.
    public var edit: ItemMarksEdit

    /// Writes `edit` on `items`.
    public init(items: [ItemReference], edit: ItemMarksEdit) {
        self.items = items
        self.edit = edit
    }
}
