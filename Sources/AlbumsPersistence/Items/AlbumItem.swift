/// One slot of an album, at a 0-based index.
public struct AlbumItem: Identifiable, Hashable, Sendable {
    public let id: AlbumItemID
    public let albumID: AlbumID
    /// 0-based position in the album when the item was read.
    public let index: Int
    public let content: Content

    /// What occupies the slot.
    public enum Content: Hashable, Sendable {
        /// A photo of the library.
        case photo(PhotoID)
        /// The slot of a load that has not committed yet.
        case placeholder(PendingLoad)
    }

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

/// Where a placeholder's load reads from and which process owns it.
public struct PendingLoad: Hashable, Sendable {
    /// What the load reads: a path, or a URL or token a host app's loader understands.
    public var source: String
    public var owner: LoadOwner
    /// When the placeholder was inserted, as ISO 8601 UTC.
    public var createdAt: String

    public init(source: String, owner: LoadOwner, createdAt: String) {
        self.source = source
        self.owner = owner
        self.createdAt = createdAt
    }
}

/// The process that runs a load: host name, process id and its start time,
/// so that a reused process id is not taken for the owner.
public struct LoadOwner: Hashable, Sendable {
    public var host: String
    public var processID: Int32
    public var processStartedAt: String?

    public init(host: String, processID: Int32, processStartedAt: String?) {
        self.host = host
        self.processID = processID
        self.processStartedAt = processStartedAt
    }
}
