import AlbumsImageFacts
import AlbumsPersistence
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loads photos from files: reads each file once, hashes its bytes
/// (SHA-256) and reads its header from the same bytes in memory.
public struct FileLoader: PhotoLoader {
    /// A loader of files on this machine.
    public init() {}

    public func load(_ source: String) async throws -> PhotoContent {
        try await loadWithBytes(source).content
    }

    public func loadWithBytes(_ source: String) async throws -> (content: PhotoContent, bytes: Data?) {
        try Task.checkCancellation()
        let url = URL(fileURLWithPath: source)
        // Only regular files (links followed): a FIFO or a device could block or never end.
        var info = stat()
        guard stat(source, &info) == 0 else {
            throw LoadFailure.failed(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw LoadFailure.failed("is a directory")
        default: throw LoadFailure.failed("not a regular file")
        }
        if case .video = MediaKind(ofFileAt: source) { return (try loadVideo(at: url), nil) }
        let data: Data
        do {
            // One read into memory, not a mapping: a file truncated while
            // it is read must fail the load, not crash the process.
            data = try Data(contentsOf: url)
        } catch {
            throw LoadFailure.failed(LibraryError.describeFileError(error))
        }
        // A raw file is said to be one, not merely "not an image"; a raw
        // file whose bytes are a TIFF's is never loaded as its small preview.
        if let reason = MediaKind(prefix: data.prefix(ImageSignature.length), name: url.lastPathComponent)?.reasonLeftOut {
            throw LoadFailure.skipped(reason)
        }
        var facts: ImageFacts
        do {
            facts = try ImageHeaderReader.read(data)
        } catch .notAnImage(let detail) {
            throw LoadFailure.skipped("not a photo or video: \(detail)")
        } catch {
            throw LoadFailure.failed(error.description)
        }
        if let sidecar = XMPSidecarFile.contents(beside: url) { facts = facts.withSidecar(sidecar) }
        var content = PhotoContent(
            sha256: Data(SHA256.hash(data: data)), byteCount: Int64(data.count), mediaType: facts.mediaType,
            originalName: url.lastPathComponent, sourcePath: url.path)
        content.take(facts)
        if let (motion, motionFacts) = LivePhotoMotion.motion(beside: url, identifier: facts.contentIdentifier) {
            content.motion = try Self.motion(at: motion, facts: motionFacts)
        }
        return (content, data)
    }

    /// A Live Photo's motion, hashed as it is read.
    private static func motion(at url: URL, facts: VideoFacts) throws -> MotionContent {
        switch FileDigest.of(url.path) {
        case .digest(let digest, let count):
            return MotionContent(sha256: digest, byteCount: count, mediaType: facts.mediaType, duration: facts.duration, sourcePath: url.path)
        case .missing: throw LoadFailure.failed("its Live Photo motion \(url.lastPathComponent) is gone")
        case .unreadable(let detail): throw LoadFailure.failed("its Live Photo motion \(url.lastPathComponent) cannot be read: \(detail)")
        }
    }

    /// A video is hashed as it is read, a few megabytes at a time, never
    /// held whole (a phone's clip is gigabytes); its facts come from its
    /// container, read in place. The bytes are not returned: a keeper copies the file.
    private func loadVideo(at url: URL) throws -> PhotoContent {
        if let still = LivePhotoMotion.still(of: url) {
            throw LoadFailure.skipped("the motion of the Live Photo \(still.lastPathComponent), which comes with it")
        }
        let facts: VideoFacts
        do {
            facts = try VideoHeaderReader.read(fileAt: url.path)
        } catch {
            throw LoadFailure.failed(error.description)
        }
        try Task.checkCancellation()
        let sha256: Data, byteCount: Int64
        switch FileDigest.of(url.path) {
        case .digest(let digest, let count): (sha256, byteCount) = (digest, count)
        case .missing: throw LoadFailure.failed("no such file")
        case .unreadable(let detail): throw LoadFailure.failed(detail)
        }
        var content = PhotoContent(
            sha256: sha256, byteCount: byteCount, mediaType: facts.mediaType,
            originalName: url.lastPathComponent, sourcePath: url.path)
        content.take(facts)
        return content
    }
}
