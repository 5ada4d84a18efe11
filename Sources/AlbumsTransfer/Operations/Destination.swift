import AlbumsPersistence

/// Where a drop lands: the destinations of a table or collection view drop.
public enum Destination: Hashable, Sendable {
    /// Dropped on the album itself: appended at the end.
    case into(AlbumReference)
    /// At a 0-based index, counted in the album without the transferred
    /// items: afterwards the first transferred item stands there.
    case at(Int, in: AlbumReference)
    /// Just before an item that is not itself transferred, in its album.
    case before(ItemReference)
    /// Just after an item that is not itself transferred, in its album.
    case after(ItemReference)
}

extension Destination {
    /// The album the destination names, when its reference names one
    /// (a neighbour given as a photo id with no album names none).
    public var album: AlbumReference? {
        switch self {
        case .into(let album), .at(_, let album): album
        case .before(let neighbour), .after(let neighbour): neighbour.album
        }
    }
}
