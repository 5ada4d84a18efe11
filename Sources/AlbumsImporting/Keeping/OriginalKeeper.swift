import AlbumsPersistence
import Foundation
import Synchronization

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

    /// Stores a copy of `bytes`, which are `content`'s (their SHA-256 was
    /// taken as they were read, so they are not hashed again), as
    /// ``keep(fileAt:as:)`` does.
    func keep(_ bytes: Data, as content: PhotoContent) async throws(KeepingFailure)

    /// Writes the copy of `content` again from the file at `path`, whatever
    /// the place holds under its name now (a damaged copy of the right
    /// size too), verified as ``keep(fileAt:as:)`` verifies.
    func restore(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure)

    /// Refuses a place that cannot be used: a folder that cannot be
    /// written, a bucket that does not answer to this program's keys.
    func check() async throws(KeepingFailure)

    /// The size of the copy of `content` the place holds; nil if it holds none.
    func size(of content: PhotoContent) async throws(KeepingFailure) -> Int64?

    /// The bytes of the copy of `content`, or of the part `range` names
    /// (clamped to its end), as the place holds them now.
    ///
    /// - Throws: ``KeepingFailure/missing(place:name:)`` when the place holds no copy.
    func bytes(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> Data

    /// The bytes of the copy of `content`, or of the part `range` names, as
    /// they are read: a part at a time, the first before the last has left
    /// the place, never the whole copy at once.
    ///
    /// - Throws: ``KeepingFailure/missing(place:name:)`` when the place
    ///   holds no copy, before any part; a part that cannot be read fails
    ///   as it is asked for.
    func parts(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> KeptBytes

    /// Deletes the copy of `content`; one that is not there is no failure.
    func remove(_ content: PhotoContent) async throws(KeepingFailure)
}

extension OriginalKeeper {
    /// Reads the parts with ``bytes(of:in:)``, one request each, the first
    /// before it returns.
    public func parts(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> KeptBytes {
        try await KeptBytes.asking(for: range, of: content.byteCount, place: place.description) { part throws(KeepingFailure) in
            try await bytes(of: content, in: part)
        }
    }
}

/// A kept copy's bytes as they are read, a part at a time (``OriginalKeeper/parts(of:in:)``).
///
/// Each part is asked for when the one before has been taken, so a
/// reader slower than the place holds one part, not the copy.
public struct KeptBytes: AsyncSequence, Sendable {
    public typealias Element = Data

    /// How much a keeper that reads in requests of its own asks for at a time.
    public static let partSize = Int64(4 << 20)

    private let source: any AsyncSequence<Data, any Error> & Sendable
    private let place: String

    /// The parts `source` gives, from the copy in `place` (which a failure names).
    public init(_ source: some AsyncSequence<Data, any Error> & Sendable, place: String) {
        self.source = source
        self.place = place
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: source.makeAsyncIterator(), place: place)
    }

    /// Reads the parts in order.
    public struct Iterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<Data, any Error>
        let place: String

        /// The next part; nil after the last.
        ///
        /// - Throws: ``KeepingFailure``: the place could not be read.
        public mutating func next() async throws -> Data? {
            do {
                return try await base.next()
            } catch let failure as KeepingFailure {
                throw failure
            } catch {
                throw KeepingFailure.unavailable(place: place, detail: "\(error)")
            }
        }
    }

    /// The parts of `range` (the whole, if nil) of something `size` bytes
    /// long, each asked of `read` when the one before has been taken; the
    /// first before this returns, so that a copy that is not there fails here.
    public static func asking(
        for range: ClosedRange<Int64>?, of size: Int64, place: String,
        read: @escaping @Sendable (ClosedRange<Int64>) async throws(KeepingFailure) -> Data
    ) async throws(KeepingFailure) -> KeptBytes {
        guard size > 0 else { return KeptBytes(EmptyParts(), place: place) }
        let wanted = range ?? 0...(size - 1)
        let first = try await read(wanted.lowerBound...Swift.min(wanted.upperBound, wanted.lowerBound + partSize - 1))
        return KeptBytes(PartsAskedOneByOne(read: read, first: first, range: wanted), place: place)
    }

    /// All the parts, one after the other.
    ///
    /// - Throws: ``KeepingFailure``: a part could not be read.
    public func collected() async throws -> Data {
        var whole = Data()
        for try await part in self { whole.append(part) }
        return whole
    }

    /// Every part, in order, to `write`.
    public func forEach(_ write: (Data) async throws -> Void) async throws {
        for try await part in self { try await write(part) }
    }
}

private struct EmptyParts: AsyncSequence, AsyncIteratorProtocol, Sendable {
    func makeAsyncIterator() -> Self { self }
    mutating func next() async throws -> Data? { nil }
}

/// The parts after the first, asked for one at a time.
private struct PartsAskedOneByOne: AsyncSequence, Sendable {
    let read: @Sendable (ClosedRange<Int64>) async throws(KeepingFailure) -> Data
    let first: Data
    let range: ClosedRange<Int64>

    func makeAsyncIterator() -> Iterator { Iterator(parts: self, pending: first, offset: range.lowerBound + Int64(first.count)) }

    struct Iterator: AsyncIteratorProtocol {
        let parts: PartsAskedOneByOne
        var pending: Data?
        var offset: Int64

        mutating func next() async throws -> Data? {
            if let part = pending {
                pending = nil
                return part
            }
            // An empty part means the copy ended early: nothing more to ask.
            guard offset <= parts.range.upperBound, offset > parts.range.lowerBound else { return nil }
            let part = try await parts.read(offset...Swift.min(parts.range.upperBound, offset + KeptBytes.partSize - 1))
            if part.isEmpty { return nil }
            offset += Int64(part.count)
            return part
        }
    }
}

/// The keepers of the kinds of place this program reaches: a folder
/// always, a bucket once a program that links the object storage client
/// says how (``installBucketKeepers(_:)``; `albums-serve` does, `albums`
/// hands a command that meets a bucket over to it).
public enum OriginalKeepers {
    private static let bucketKeepers = Mutex<(@Sendable (StoragePlace) throws(KeepingFailure) -> any OriginalKeeper)?>(nil)

    /// Has buckets kept by what `make` returns for their place.
    public static func installBucketKeepers(_ make: @escaping @Sendable (StoragePlace) throws(KeepingFailure) -> any OriginalKeeper) {
        bucketKeepers.withLock { $0 = make }
    }

    /// Whether this program reaches buckets.
    public static var reachesBuckets: Bool { bucketKeepers.withLock { $0 != nil } }

    /// The keeper of `place`.
    ///
    /// - Throws: ``KeepingFailure/unreachable(place:)`` for a bucket this
    ///   program does not reach; what making its keeper met (no keys).
    public static func keeper(for place: StoragePlace) throws(KeepingFailure) -> any OriginalKeeper {
        if let folder = FolderKeeper(place: place) { return folder }
        guard let make = bucketKeepers.withLock({ $0 }) else { throw .unreachable(place: place.description) }
        return try make(place)
    }
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
    /// The place holds no copy under the name it should.
    case missing(place: String, name: String)
    /// The place could not be read (the service refused, did not answer; the disk failed).
    case unavailable(place: String, detail: String)

    /// The stable code of the failure.
    public var code: String {
        switch self {
        case .changed: "source_changed"
        case .unreadable: "source_unreadable"
        case .unwritable: "storage_unwritable"
        case .unreachable: "storage_unreachable"
        case .missing: "kept_copy_missing"
        case .unavailable: "storage_unavailable"
        }
    }

    public var description: String {
        switch self {
        case .changed(let path): "\(LibraryError.quoted(path)) changed while it was copied"
        case .unreadable(let path, let detail): "cannot read \(LibraryError.quoted(path)): \(detail)"
        case .unwritable(let place, let detail): "cannot keep a copy in \(place): \(detail)"
        case .unreachable(let place): "the library keeps its originals in \(place), which this program does not reach"
        case .missing(let place, let name): "\(place) holds no copy named \(name)"
        case .unavailable(let place, let detail): "cannot read \(place): \(detail)"
        }
    }
}

/// Loads as its base does, then keeps a copy of what it read where the
/// library keeps its originals: the photo commits only once its copy is
/// stored, so its placeholder holds the slot until then.
///
/// Once the place failed a copy after its retries (down, full), the loads
/// after it wait at once rather than each waiting the retries out again.
public struct KeepingLoader: PhotoLoader {
    /// What reads each source.
    public let base: any PhotoLoader
    /// Where the copies go.
    public let keeper: any OriginalKeeper
    /// Why the place last failed, once it has; the loads after wait for it.
    private let placeFailure = PlaceFailure()

    /// Shared by the copies of a loader, as the run's loads are.
    private final class PlaceFailure: Sendable {
        private let reason = Mutex<String?>(nil)
        var current: String? { reason.withLock { $0 } }
        func set(_ text: String) { reason.withLock { $0 = text } }
    }

    /// A loader that reads with `base` and keeps copies with `keeper`.
    public init(base: any PhotoLoader = FileLoader(), keeper: any OriginalKeeper) {
        self.base = base
        self.keeper = keeper
    }

    public func load(_ source: String) async throws -> PhotoContent {
        var (content, bytes) = try await base.loadWithBytes(source)
        if let reason = placeFailure.current { throw LoadFailure.waiting(reason) }
        do {
            if let bytes { try await keeper.keep(bytes, as: content) } else { try await keeper.keep(fileAt: content.sourcePath, as: content) }
            // A Live Photo's motion is kept with it, under its own digest: the card may be wiped once the still is in.
            if let motion = content.motionAsContent { try await keeper.keep(fileAt: motion.sourcePath, as: motion) }
        } catch .unwritable(let place, let detail), .unavailable(let place, let detail) {
            // The photo is fine; its place is not, for now.
            let reason = KeepingFailure.unwritable(place: place, detail: detail).description
            placeFailure.set(reason)
            throw LoadFailure.waiting(reason)
        } catch {
            throw LoadFailure.failed(error.description)
        }
        content.keptIn = keeper.place.id
        return content
    }
}
