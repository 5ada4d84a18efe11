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

extension LibraryReader {
    /// Refuses unless each album is at the revision the caller last saw
    /// (optimistic concurrency), checked in a stable order.
    ///
    /// - Throws: ``TransferRefusal/revisionMismatch(album:expected:actual:)``,
    ///   ``TransferRefusal/albumNotFound(_:)``.
    public func requireRevisions(_ expected: [AlbumReference: Int64]) throws {
        for (reference, revision) in expected.sorted(by: { $0.value < $1.value }) {
            let current: Album
            do {
                current = try album(reference)
            } catch LibraryError.albumNotFound, LibraryError.albumIDNotFound {
                throw TransferRefusal.albumNotFound(reference)
            }
            if current.revision != revision {
                throw TransferRefusal.revisionMismatch(album: current.name, expected: revision, actual: current.revision)
            }
        }
    }
}
