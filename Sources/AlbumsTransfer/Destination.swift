import AlbumsPersistence

/// Where a drop lands in an album: the four destinations of a drag and drop.
public enum Destination: Hashable, Sendable {
    /// Dropped on the album itself: appended at the end.
    case into(AlbumID)
    /// At a 0-based index, counted in the album without the transferred items.
    case at(Int, in: AlbumID)
    /// Just before an item of the album that is not itself transferred.
    case before(AlbumItemID)
    /// Just after an item of the album that is not itself transferred.
    case after(AlbumItemID)
}
