/// A named, ordered list of items, as stored in the library.
public struct Album: Identifiable, Hashable, Sendable {
    public let id: AlbumID
    /// Unique in the library, case-sensitive.
    public let name: String
    /// The folder holding the album; nil at the library's top level.
    public let parentID: FolderID?
    /// 0-based place among its parent's children (albums and folders together).
    public let index: Int
    /// While locked, nothing enters, leaves or moves inside the album.
    public let isLocked: Bool
    /// Grows with every committed transaction that changes the album.
    public let revision: Int64
    /// All items, placeholders included.
    public let itemCount: Int
    /// Placeholders of loads not yet committed.
    public let placeholderCount: Int
    /// How many of its items are videos (the rest are photos and
    /// placeholders); for a smart album, of what it shows, where known.
    public let videoCount: Int
    /// The photo chosen by hand to stand for the album, always one of its
    /// own; nil when none is chosen and its first photo stands for it
    /// (``LibraryReader/covers(in:)``).
    public let chosenCoverID: PhotoID?
    /// Whether it is a smart album: a saved search, read-only, holding no
    /// items; what it shows is found as it is read (``savedSearch``).
    public let isSmart: Bool
    /// A smart album's search; nil for an ordinary album, and for a smart
    /// one whose search the file holds damaged (it then finds nothing).
    public let savedSearch: PhotoSearch?
    /// What the album is about, in its people's words (the first page of a
    /// photo book); nil when it has none.
    public let description: String?

    /// Whether loads into this album are still pending
    /// (the analogue of `hasUncommittedUpdates` in UIKit's drop placeholders).
    public var hasUncommittedUpdates: Bool { placeholderCount > 0 }

    /// An album as read from the library; ``index`` and the counts as they stand.
    public init(
        id: AlbumID, name: String, parentID: FolderID? = nil, index: Int, isLocked: Bool, revision: Int64,
        itemCount: Int, placeholderCount: Int, videoCount: Int = 0, chosenCoverID: PhotoID? = nil, isSmart: Bool = false,
        savedSearch: PhotoSearch? = nil, description: String? = nil
    ) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.index = index
        self.isLocked = isLocked
        self.revision = revision
        self.itemCount = itemCount
        self.placeholderCount = placeholderCount
        self.videoCount = videoCount
        self.chosenCoverID = chosenCoverID
        self.isSmart = isSmart
        self.savedSearch = savedSearch
        self.description = description
    }

    /// The same album with other counts, as a transaction sees them.
    package func counted(items: Int, placeholders: Int, videos: Int? = nil) -> Album {
        Album(
            id: id, name: name, parentID: parentID, index: index, isLocked: isLocked, revision: revision, itemCount: items,
            placeholderCount: placeholders, videoCount: videos ?? videoCount, chosenCoverID: chosenCoverID, isSmart: isSmart,
            savedSearch: savedSearch, description: description)
    }

    /// The same album at another place in the tree.
    func placed(at index: Int, in parent: FolderID?) -> Album {
        Album(
            id: id, name: name, parentID: parent, index: index, isLocked: isLocked, revision: revision, itemCount: itemCount,
            placeholderCount: placeholderCount, videoCount: videoCount, chosenCoverID: chosenCoverID, isSmart: isSmart,
            savedSearch: savedSearch, description: description)
    }
}
