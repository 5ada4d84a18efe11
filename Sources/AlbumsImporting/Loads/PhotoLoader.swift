import AlbumsPersistence
import Foundation

/// Loads the content a placeholder stands for: the analogue of an item
/// provider. The built-in ``FileLoader`` reads files; a host app may load
/// from the network or another app.
///
/// A loader runs without holding the library's write lock; only its
/// result is committed, with those of the loads that ended beside it.
public protocol PhotoLoader: Sendable {
    /// Loads `source` (a path, URL or token, as the load was begun with).
    ///
    /// - Throws: ``LoadFailure``: ``LoadFailure/skipped(_:)`` for content
    ///   that is knowingly not imported (not an image), ``LoadFailure/failed(_:)``
    ///   for anything that went wrong. Other errors count as failures.
    func load(_ source: String) async throws -> PhotoContent

    /// Loads `source` as ``load(_:)`` does, with the bytes read when the
    /// loader holds them whole (a file read into memory): a copy kept of
    /// them is then written from those very bytes, not read again.
    func loadWithBytes(_ source: String) async throws -> (content: PhotoContent, bytes: Data?)
}

extension PhotoLoader {
    public func loadWithBytes(_ source: String) async throws -> (content: PhotoContent, bytes: Data?) {
        (try await load(source), nil)
    }
}

/// Why a load did not produce a photo.
public enum LoadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Knowingly not imported, such as a file that is not an image.
    case skipped(String)
    /// The load went wrong: unreadable, damaged, lost.
    case failed(String)
    /// What was read is fine and the place it is kept in did not take it
    /// (the object storage is down, the disk full): its placeholder keeps
    /// its slot for `albums pending resume` once the place answers.
    case waiting(String)

    public var description: String {
        switch self {
        case .skipped(let reason), .failed(let reason), .waiting(let reason): reason
        }
    }
}
