import AlbumsPersistence

/// One drag-and-drop operation on items: move, copy, swap or remove.
///
/// ```swift
/// let drop = TransferOperation.move([.position(0, in: "Trip"), .item(cover)], to: .at(2, in: "Book"))
/// ```
public struct TransferOperation: Hashable, Sendable {
    /// What the operation does with its items.
    public enum Action: String, Hashable, Sendable, CaseIterable {
        /// Items leave their albums and enter the destination, contiguously, in order.
        case move
        /// The destination gains the items' photos; the sources stay.
        case copy
        /// Two items exchange places, in one album or across two.
        case swap
        /// Items leave their albums; photos stay in the library, placeholders' loads are cancelled.
        case remove
    }

    /// Move, copy, swap or remove.
    public var action: Action
    /// The items, in the order they are to stand.
    public var sources: [ItemReference]
    /// Where a move or copy lands; nil for swap and remove.
    public var destination: Destination?
    /// Revisions the caller last saw: if an album has changed since, the
    /// operation is refused (optimistic concurrency).
    public var expectedRevisions: [AlbumReference: Int64]

    /// An operation of `action` on `sources`, landing at `destination` (move and copy).
    public init(
        action: Action, sources: [ItemReference], destination: Destination? = nil,
        expectedRevisions: [AlbumReference: Int64] = [:]
    ) {
        self.action = action
        self.sources = sources
        self.destination = destination
        self.expectedRevisions = expectedRevisions
    }

    /// Moves the items to stand together, in order, at the destination.
    public static func move(_ sources: [ItemReference], to destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) -> Self {
        Self(action: .move, sources: sources, destination: destination, expectedRevisions: revisions)
    }

    /// Adds the items' photos at the destination; the items stay.
    public static func copy(_ sources: [ItemReference], to destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) -> Self {
        Self(action: .copy, sources: sources, destination: destination, expectedRevisions: revisions)
    }

    /// Exchanges two items' places, in one album or across two.
    public static func swap(_ first: ItemReference, _ second: ItemReference, expecting revisions: [AlbumReference: Int64] = [:]) -> Self {
        Self(action: .swap, sources: [first, second], expectedRevisions: revisions)
    }

    /// Takes the items out of their albums; their photos stay in the library.
    public static func remove(_ sources: [ItemReference], expecting revisions: [AlbumReference: Int64] = [:]) -> Self {
        Self(action: .remove, sources: sources, expectedRevisions: revisions)
    }
}

extension TransferOperation {
    /// The one album the operation is about, when it is about one: where a
    /// move or copy lands, or the album every source names. What a bare
    /// "expected revision" refers to; nil when that is ambiguous or unknown
    /// (a photo id with no album, sources in several albums).
    public var targetAlbum: AlbumReference? {
        if let destination { return destination.album }
        let albums = sources.map(\.album)
        guard let first = albums.first, let album = first, albums.allSatisfy({ $0 == album }) else { return nil }
        return album
    }
}
