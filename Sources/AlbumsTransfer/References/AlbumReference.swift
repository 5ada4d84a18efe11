import AlbumsPersistence

/// An album, named as a person would (by name) or as an app would (by id).
public enum AlbumReference: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    case named(String)
    case id(AlbumID)

    public init(stringLiteral name: String) { self = .named(name) }

    public var description: String {
        switch self {
        case .named(let name): "'\(name)'"
        case .id(let id): "album \(id)"
        }
    }
}

extension LibraryReader {
    /// The album a reference names.
    ///
    /// - Throws: ``LibraryError/albumNotFound(name:)`` or ``LibraryError/albumIDNotFound(_:)``.
    public func album(_ reference: AlbumReference) throws -> Album {
        switch reference {
        case .named(let name): try album(named: name)
        case .id(let id): try album(id)
        }
    }
}
