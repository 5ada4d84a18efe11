import AlbumsPersistence

/// Keeps verified copies of originals in one of the library's storage
/// places (``StoragePlace``): a folder it manages, or a bucket.
///
/// A copy is named by its content, so keeping the same bytes twice stores
/// them once, and a copy that is there already is not written again.
public protocol OriginalKeeper: Sendable {
    /// The place it keeps copies in.
    var place: StoragePlace { get }

    /// Stores a copy of the file at `path`, whose bytes must be `content`'s:
    /// checked against its size and SHA-256 before the copy counts. Nothing
    /// half-written is ever found under the copy's name.
    ///
    /// - Throws: ``KeepingFailure``.
    func keep(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure)
}

/// Why a copy of an original could not be kept.
public enum KeepingFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file read now holds other bytes than the photo's (it changed meanwhile).
    case changed(path: String)
    /// The file could not be read.
    case unreadable(path: String, detail: String)
    /// The place could not be written (a full disk, no permission, the service refused).
    case unwritable(place: String, detail: String)
    /// The place is of a kind this program does not reach (a bucket, from a build without the object storage client).
    case unreachable(place: String)

    /// The stable code of the failure.
    public var code: String {
        switch self {
        case .changed: "source_changed"
        case .unreadable: "source_unreadable"
        case .unwritable: "storage_unwritable"
        case .unreachable: "storage_unreachable"
        }
    }

    public var description: String {
        switch self {
        case .changed(let path): "\(LibraryError.quoted(path)) changed while it was copied"
        case .unreadable(let path, let detail): "cannot read \(LibraryError.quoted(path)): \(detail)"
        case .unwritable(let place, let detail): "cannot keep a copy in \(place): \(detail)"
        case .unreachable(let place): "the library keeps its originals in \(place), which this program does not reach"
        }
    }
}

/// Loads as its base does, then keeps a copy of what it read where the
/// library keeps its originals: the photo commits only once its copy is
/// stored, so its placeholder holds the slot until then.
public struct KeepingLoader: PhotoLoader {
    /// What reads each source.
    public let base: any PhotoLoader
    /// Where the copies go.
    public let keeper: any OriginalKeeper

    /// A loader that reads with `base` and keeps copies with `keeper`.
    public init(base: any PhotoLoader = FileLoader(), keeper: any OriginalKeeper) {
        self.base = base
        self.keeper = keeper
    }

    public func load(_ source: String) async throws -> PhotoContent {
        var content = try await base.load(source)
        do {
            try await keeper.keep(fileAt: content.sourcePath, as: content)
        } catch {
            throw LoadFailure.failed(error.description)
        }
        content.keptIn = keeper.place.id
        return content
    }
}
