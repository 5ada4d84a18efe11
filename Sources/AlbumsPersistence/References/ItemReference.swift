/// An item of an album, as a drag source or a drop neighbour names it.
///
/// References are resolved against the library as it is before the
/// operation that holds them.
public enum ItemReference: Hashable, Sendable, CustomStringConvertible {
    /// An item by its stable identifier.
    case item(AlbumItemID)
    /// The item at a 0-based index of an album.
    case position(Int, in: AlbumReference)
    /// The item holding a photo; the album is needed when the photo is in several.
    case photo(PhotoID, in: AlbumReference?)

    public var description: String {
        switch self {
        case .item(let id): "item \(id)"
        case .position(let index, let album): "\(album) position \(index + 1)"
        case .photo(let id, nil): "photo id:\(id)"
        case .photo(let id, let album?): "photo id:\(id) in \(album)"
        }
    }

    /// The album the reference names, if it names one.
    public var album: AlbumReference? {
        switch self {
        case .item: nil
        case .position(_, let album): album
        case .photo(_, let album): album
        }
    }
}
