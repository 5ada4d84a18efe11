/// A placeholder holding the slot of a load that has not committed, where it stands now.
public struct PendingPlaceholder: Hashable, Sendable, Identifiable {
    public let id: AlbumItemID
    /// The album holding the placeholder.
    public let albumID: AlbumID
    /// Its name now.
    public let albumName: String
    /// 0-based index in the album now.
    public let index: Int
    /// What is being loaded, by whom, since when.
    public let load: PendingLoad

    /// Whether its owner process is gone: a normal, recoverable state
    /// (resume the load or cancel it), not a violation.
    public var isStale: Bool { load.owner.isGone }
}

/// What committing a load did.
public enum LoadCommit: Hashable, Sendable {
    /// The placeholder became the photo, in the same slot; `displaced`: the
    /// item that held the photo in the album before and gave its place up
    /// (``LibraryWriter/commitLoad(_:content:displacing:)``), now gone.
    case committed(item: AlbumItemID, photo: Photo, isNewPhoto: Bool, displaced: AlbumItemID? = nil)
    /// The album already held the photo elsewhere: the placeholder was deleted.
    case alreadyInAlbum(photo: Photo)
}
