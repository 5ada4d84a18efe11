/// An album, named as a person would (by name) or as an app would (by id).
public enum AlbumReference: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// By name, or by path (`Travel/2026/Lisbon`).
    case named(String)
    /// By id.
    case id(AlbumID)

    public init(stringLiteral name: String) { self = .named(name) }

    public var description: String {
        switch self {
        case .named(let name): LibraryError.quoted(name)
        case .id(let id): "album \(id)"
        }
    }
}

extension LibraryReader {
    /// The album a reference names.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func album(_ reference: AlbumReference) throws -> Album {
        switch reference {
        case .named(let name): try album(named: name)
        case .id(let id): try album(id)
        }
    }

    /// Refuses unless each album is at the revision the caller last saw
    /// (optimistic concurrency), checked in a stable order.
    ///
    /// Call it inside the transaction that writes, so that nothing can
    /// change between the check and the write.
    ///
    /// - Throws: ``LibraryError/revisionMismatch(album:expected:actual:)``,
    ///   ``LibraryError/albumNotFound(_:)``.
    public func requireRevisions(_ expected: [AlbumReference: Int64]) throws {
        for (reference, revision) in expected.sorted(by: { $0.value < $1.value }) {
            let current = try album(reference)
            if current.revision != revision {
                throw LibraryError.revisionMismatch(album: current.name, expected: revision, actual: current.revision)
            }
        }
    }
}
