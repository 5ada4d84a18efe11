import AlbumsPersistence

/// Loads the content a placeholder stands for: the analogue of an item
/// provider. The built-in ``FileLoader`` reads files; a host app may load
/// from the network or another app.
///
/// A loader runs without holding the library's write lock; only its
/// result is committed, in a small transaction of its own.
public protocol PhotoLoader: Sendable {
    /// Loads `source` (a path, URL or token, as the load was begun with).
    ///
    /// - Throws: ``LoadFailure``: ``LoadFailure/skipped(_:)`` for content
    ///   that is knowingly not imported (not an image), ``LoadFailure/failed(_:)``
    ///   for anything that went wrong. Other errors count as failures.
    func load(_ source: String) async throws -> PhotoContent
}

/// Why a load did not produce a photo.
public enum LoadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Knowingly not imported, such as a file that is not an image.
    case skipped(String)
    /// The load went wrong: unreadable, damaged, lost.
    case failed(String)

    public var description: String {
        switch self {
        case .skipped(let reason), .failed(let reason): reason
        }
    }
}
