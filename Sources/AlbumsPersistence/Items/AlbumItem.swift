/// One slot of an album, at a 0-based index.
public struct AlbumItem: Identifiable, Hashable, Sendable {
    public let id: AlbumItemID
    /// The album holding it.
    public let albumID: AlbumID
    /// 0-based position in the album when the item was read.
    public let index: Int
    /// A photo, or a placeholder of a load still running.
    public let content: Content

    /// What occupies the slot.
    public enum Content: Hashable, Sendable {
        /// A photo of the library.
        case photo(PhotoID)
        /// The slot of a load that has not committed yet.
        case placeholder(PendingLoad)
    }

    /// An item as read from the library.
    public init(id: AlbumItemID, albumID: AlbumID, index: Int, content: Content) {
        self.id = id
        self.albumID = albumID
        self.index = index
        self.content = content
    }

    /// The photo in this slot, or nil for a placeholder.
    public var photoID: PhotoID? {
        if case .photo(let id) = content { return id }
        return nil
    }

    /// Whether the slot holds a placeholder.
    public var isPlaceholder: Bool { photoID == nil }
}
