import AlbumsPersistence
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps copies of originals in a folder the library manages, one file per
/// content: `ab/abcdef….jpg` (``StoragePlace/keptName(sha256Hex:mediaType:)``).
///
/// A copy is written to a temporary name beside its own, hashed as it is
/// written, flushed to disk, and renamed into place only when its bytes
/// are the photo's: a crash leaves at most a temporary file, never a
/// wrong or partial copy under the copy's name.
public struct FolderKeeper: OriginalKeeper {
    public let place: StoragePlace
    /// The folder's path.
    public let folder: String

    /// A keeper of the folder `place` names; nil if `place` is a bucket.
    public init?(place: StoragePlace) {
        guard case .folder(let folder) = place.kind else { return nil }
        self.place = place
        self.folder = folder
    }

    /// How much is read and written at a time.
    static let chunkSize = 1 << 20

    public func keep(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure) {
        guard let target = place.path(of: content) else { return }
        if FileSize.of(target) == content.byteCount { return }  // kept already: a name is its content
        try Self.copy(path, to: target, expecting: content, place: place.description)
    }

    public func restore(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure) {
        guard let target = place.path(of: content) else { return }
        try Self.copy(path, to: target, expecting: content, place: place.description)
    }

    public func check() async throws(KeepingFailure) { try makeWritable() }

    /// Makes the folder if it is missing, and checks that it can be written to.
    public func makeWritable() throws(KeepingFailure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(place: place.description, detail: LibraryError.describeFileError(error))
        }
        guard access(folder, W_OK) == 0 else { throw .unwritable(place: place.description, detail: String(cString: strerror(errno))) }
    }

    public func remove(_ content: PhotoContent) async throws(KeepingFailure) {
        guard let path = place.path(of: content) else { return }
        if unlink(path) != 0 && errno != ENOENT { throw .unwritable(place: place.description, detail: String(cString: strerror(errno))) }
        rmdir((path as NSString).deletingLastPathComponent)  // only if that left it empty
    }

    public func size(of content: PhotoContent) async throws(KeepingFailure) -> Int64? {
        place.path(of: content).flatMap(FileSize.of)
    }

    public func bytes(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> Data {
        guard let path = place.path(of: content) else { throw .missing(place: place.description, name: content.sha256Hex) }
        return try await Self.bytes(ofFileAt: path, in: range, place: place.description)
    }

    /// The bytes of the file at `path`, or of the part `range` names (clamped to its end).
    static func bytes(ofFileAt path: String, in range: ClosedRange<Int64>?, place: String) async throws(KeepingFailure) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .missing(place: place, name: path) }
        defer { try? handle.close() }
        do {
            guard let range else { return try handle.readToEnd() ?? Data() }
            try handle.seek(toOffset: UInt64(max(0, range.lowerBound)))
            return try handle.read(upToCount: Int(clamping: range.upperBound - range.lowerBound + 1)) ?? Data()
        } catch {
            throw .unavailable(place: place, detail: LibraryError.describeFileError(error))
        }
    }

    public func keep(_ bytes: Data, as content: PhotoContent) async throws(KeepingFailure) {
        guard let target = place.path(of: content) else { return }
        if FileSize.of(target) == content.byteCount { return }
        guard Int64(bytes.count) == content.byteCount else { throw .changed(path: content.sourcePath) }
        try Self.store(bytes, at: target, named: content.sha256Hex, place: place.description)
    }

    /// Writes `bytes` to `target` through a temporary file beside it, flushed before it is renamed into place.
    static func store(_ bytes: Data, at target: String, named name: String, place: String) throws(KeepingFailure) {
        try writeThroughTemporaryFile(at: target, named: name, place: place) { output throws(KeepingFailure) in
            if let failure = bytes.withUnsafeBytes({ writeAll($0, to: output, place: place) }) { throw failure }
        }
    }

    /// Copies `path` to `target` through a temporary file, verified against `content`, replacing whatever `target` held.
    static func copy(_ path: String, to target: String, expecting content: PhotoContent, place: String) throws(KeepingFailure) {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .unreadable(path: path, detail: String(cString: strerror(errno))) }
        defer { close(input) }
        try writeThroughTemporaryFile(at: target, named: content.sha256Hex, place: place) { output throws(KeepingFailure) in
            var hash = SHA256()
            var total: Int64 = 0
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, chunkSize) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .unreadable(path: path, detail: String(cString: strerror(errno)))
                }
                if count == 0 { break }
                let failure = buffer.withUnsafeBytes { bytes -> KeepingFailure? in
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[..<count])
                    hash.update(bufferPointer: chunk)
                    return writeAll(chunk, to: output, place: place)
                }
                if let failure { throw failure }
                total += Int64(count)
                guard total <= content.byteCount else { throw .changed(path: path) }
            }
            guard total == content.byteCount, Data(hash.finalize()) == content.sha256 else { throw .changed(path: path) }
        }
    }

    /// Creates `target`'s folder, lets `write` fill a temporary file beside
    /// `target`, then flushes it and renames it into place: a failure or a
    /// crash at any step leaves `target` as it was.
    private static func writeThroughTemporaryFile(
        at target: String, named name: String, place: String,
        _ write: (Int32) throws(KeepingFailure) -> Void
    ) throws(KeepingFailure) {
        let directory = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(place: place, detail: LibraryError.describeFileError(error))
        }
        let temporary = directory + "/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).part"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .unwritable(place: place, detail: String(cString: strerror(errno))) }
        var renamed = false
        defer {
            close(output)
            if !renamed { unlink(temporary) }
        }
        try write(output)
        guard fsync(output) == 0 else { throw .unwritable(place: place, detail: String(cString: strerror(errno))) }
        guard rename(temporary, target) == 0 else { throw .unwritable(place: place, detail: String(cString: strerror(errno))) }
        renamed = true
        flush(folder: directory)
    }

    /// Flushes a folder, so that a rename in it survives a power cut.
    private static func flush(folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    /// Writes every byte, or says why it could not.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, place: String) -> KeepingFailure? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return .unwritable(place: place, detail: String(cString: strerror(errno)))
            }
            offset += written
        }
        return nil
    }
}
