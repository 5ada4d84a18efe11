import AlbumsPersistence

/// Why an operation is forbidden. Each reason carries the facts; the
/// description says them in one line, in 1-based positions as people see
/// them, with what to do next where there is something to do.
public enum TransferRefusal: Error, Hashable, Sendable {
    case albumNotFound(AlbumReference)
    case itemNotFound(ItemReference)
    /// A photo id names no single item: it is in several albums.
    case ambiguousPhoto(PhotoID, albums: [String])
    /// Nothing enters, leaves or moves inside a locked album.
    case albumLocked(name: String)
    /// A photo stands at most once in an album.
    case photoAlreadyInAlbum(PhotoID, album: String)
    /// A placeholder of a pending load cannot be moved, copied or swapped.
    case placeholderAsSource(ItemReference)
    /// The same item (or photo, for a copy) is named twice.
    case duplicateSource(ItemReference)
    /// A 0-based index outside `valid` (0-based too).
    case positionOutOfRange(index: Int, valid: ClosedRange<Int>?, album: String)
    /// The album changed since the revision the caller saw.
    case revisionMismatch(album: String, expected: Int64, actual: Int64)
    /// `before` / `after` named an item that is itself transferred.
    case neighbourIsTransferred(ItemReference)
    /// An operation with no items, or a swap without exactly two.
    case wrongSourceCount(action: TransferOperation.Action, count: Int)
}

extension TransferRefusal: CustomStringConvertible {
    public var description: String {
        switch self {
        case .albumNotFound(.named(let name)):
            "no album named \(LibraryError.quoted(name)); albums album list shows them"
        case .albumNotFound(let reference):
            "no \(reference)"
        case .itemNotFound(let reference):
            "no such item: \(reference)"
        case .ambiguousPhoto(let photo, let albums):
            "photo id:\(photo) is in \(albums.count) albums (\(albums.map { LibraryError.quoted($0) }.joined(separator: ", "))); say which with --from ALBUM"
        case .albumLocked(let name):
            "album \(LibraryError.quoted(name)) is locked: albums album unlock \(LibraryError.shellQuoted(name))"
        case .photoAlreadyInAlbum(let photo, let album):
            "photo id:\(photo) is already in album \(LibraryError.quoted(album))"
        case .placeholderAsSource(let reference):
            "\(reference) is a placeholder of a pending load; wait for it, or remove it to cancel the load"
        case .duplicateSource(let reference):
            "\(reference) is named more than once"
        case .positionOutOfRange(let index, let valid?, let album):
            "position \(index + 1) is out of range for album \(LibraryError.quoted(album)): valid positions are \(valid.lowerBound + 1)…\(valid.upperBound + 1)"
        case .positionOutOfRange(let index, nil, let album):
            "position \(index + 1) is out of range: album \(LibraryError.quoted(album)) is empty"
        case .revisionMismatch(let album, let expected, let actual):
            "album \(LibraryError.quoted(album)) is at revision \(actual), not \(expected): it changed since; look again and retry"
        case .neighbourIsTransferred(let reference):
            "\(reference) is itself being transferred and cannot mark where the others land"
        case .wrongSourceCount(.swap, let count):
            "swap takes exactly two items, not \(count)"
        case .wrongSourceCount(let action, _):
            "\(action.rawValue) needs at least one item"
        }
    }
}
