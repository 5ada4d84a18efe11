import AlbumsImageFacts
import AlbumsPersistence
import Crypto
import Foundation
import Synchronization

/// Where a thumbnail is made from: a file (a source, or a copy the library
/// keeps in a folder), or bytes fetched when it is made (a copy in a bucket).
package enum ThumbnailSource: Sendable {
    /// The file at this path.
    case file(String)
    /// What this returns, asked only when the thumbnail is not cached.
    case fetched(@Sendable () async throws -> Data)
}

extension ThumbnailSource {
    /// What `photo`'s thumbnail is made from: the file of its original (its
    /// kept copy, else its source); for a copy in a bucket, what `fetch`
    /// returns (nil without one: the photo gets no thumbnail).
    package static func of(
        _ photo: Photo, in library: Library, fetchingFromBucket fetch: (@Sendable () async throws -> Data)?
    ) -> ThumbnailSource? {
        guard let location = try? library.originalLocation(of: photo) else { return nil }
        if let path = location.filePath { return .file(path) }
        return fetch.map(ThumbnailSource.fetched)
    }
}

/// Thumbnails of a library's photos, made on first request and kept on
/// disk by content (SHA-256) and size, so they survive restarts and are
/// shared by every library on the machine that holds the same photo.
///
/// - At most ``jobs`` thumbnails are made at once, on threads of their own
///   (libvips blocks while it decodes), never on Swift's cooperative pool.
/// - Requests for a thumbnail already being made wait for that one.
/// - A source whose bytes no longer match the photo's SHA-256 gets no
///   thumbnail: the cache is keyed by that digest and must not lie.
/// - A cache folder that cannot be written only costs speed.
package final class ThumbnailStore: Sendable {
    /// The longer sides a thumbnail may have, in pixels.
    package static let longerSides = 16...2048

    /// Where thumbnails are kept.
    package let folder: URL
    /// How many thumbnails are made at once.
    package let jobs: Int

    private let gate: JobGate
    private let inFlight = Mutex<[String: Task<Result<Data, ThumbnailFailure>, Never>]>([:])
    private let activity = Mutex(Activity())

    /// What requests have asked lately: background work waits for them.
    private struct Activity {
        var requests = 0
        var lastRequest: ContinuousClock.Instant?
        var gridSide = ThumbnailStore.defaultGridSide
    }

    /// The longer side warmed before the page has asked for any: its grid's at its default zoom.
    package static let defaultGridSide = 256
    /// How long after the last request background work stays paused.
    static let quietInterval = Duration.milliseconds(300)

    /// - Parameters:
    ///   - folder: The cache folder; by default `albums/thumbnails` in the
    ///     XDG cache folder (`$XDG_CACHE_HOME`, or `~/.cache`).
    ///   - jobs: Thumbnails made at once; by default one per processor.
    package init(folder: URL = ThumbnailStore.defaultFolder(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.folder = folder
        self.jobs = max(1, jobs)
        self.gate = JobGate(slots: max(1, jobs))
    }

    /// Why no thumbnail can be made in this process (libvips missing, of
    /// another ABI, or failing to start), or nil when they can. The first
    /// call loads libvips, as the first thumbnail would.
    package static var unavailableReason: String? { VipsThumbnailer.startFailure }

    /// `$XDG_CACHE_HOME/albums/thumbnails`, or `~/.cache/albums/thumbnails`.
    package static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cache: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
            cache = home.appending(path: ".cache", directoryHint: .isDirectory)
        }
        return cache.appending(path: "albums/thumbnails", directoryHint: .isDirectory)
    }

    /// The file a thumbnail is cached in: `ab/abcdef…-256.jpg` (`key`:
    /// the photo's ``Photo/derivedFilesKey``), or `ab/abcdef…-256-o6.jpg`
    /// for bytes shown turned otherwise than their file says (`shownAs`:
    /// the photo's orientation, kept in an organizer's catalog).
    package func cacheFile(key: String, longerSide: Int, shownAs: PhotoOrientation? = nil) -> URL {
        folder.appending(path: String(key.prefix(2)), directoryHint: .isDirectory)
            .appending(path: "\(key)-\(longerSide)\(shownAs.map { "-o\($0.rawValue)" } ?? "").jpg", directoryHint: .notDirectory)
    }

    /// The file `photo`'s thumbnail is cached in.
    package func cacheFile(of photo: Photo, longerSide: Int) -> URL {
        let content = photo.content
        return cacheFile(key: photo.derivedFilesKey, longerSide: longerSide, shownAs: content.fileOrientation == nil ? nil : content.orientation)
    }

    /// The photo's thumbnail whose longer side is `longerSide`, from the
    /// cache or made now from its original (`original`: the copy the
    /// library keeps, as a file or bytes to fetch; nil: its source file):
    /// what a request asks for.
    /// While requests come, background work (``ThumbnailWarmer``) waits.
    package func thumbnail(of photo: Photo, from original: ThumbnailSource? = nil, longerSide: Int) async throws(ThumbnailFailure) -> Thumbnail {
        guard Self.longerSides.contains(longerSide) else { throw .unsupportedSize(longerSide) }
        activity.withLock { activity in
            activity.requests += 1
            // The grid asks for small sides; the viewer's large ones are not what to warm.
            if longerSide <= 768 { activity.gridSide = longerSide }
        }
        defer {
            activity.withLock { activity in
                activity.requests -= 1
                activity.lastRequest = .now
            }
        }
        return try await thumbnail(of: photo, from: original, longerSide: longerSide, priority: .userInitiated)
    }

    /// Makes a thumbnail in the background, at low priority, unless it is
    /// cached already. Answers whether the cache holds it now.
    @discardableResult
    package func warm(_ photo: Photo, from original: ThumbnailSource? = nil, longerSide: Int) async -> Bool {
        guard Self.longerSides.contains(longerSide) else { return false }
        if isCached(photo, longerSide: longerSide) { return true }
        return (try? await thumbnail(of: photo, from: original, longerSide: longerSide, priority: .background)) != nil
    }

    /// Whether the cache holds the photo's thumbnail of that side.
    package func isCached(_ photo: Photo, longerSide: Int) -> Bool {
        FileManager.default.fileExists(atPath: cacheFile(of: photo, longerSide: longerSide).path)
    }

    /// Whether requests are being answered, or were a moment ago.
    package var isBusy: Bool {
        activity.withLock { activity in
            activity.requests > 0 || activity.lastRequest.map { ContinuousClock.now - $0 < Self.quietInterval } ?? false
        }
    }

    /// The longer side the grid asked for last (its zoom at this screen's pixel density).
    package var gridSide: Int { activity.withLock { $0.gridSide } }

    private func thumbnail(
        of photo: Photo, from original: ThumbnailSource?, longerSide: Int, priority: DispatchQoS.QoSClass
    ) async throws(ThumbnailFailure) -> Thumbnail {
        let file = cacheFile(of: photo, longerSide: longerSide)
        if let cached = try? Data(contentsOf: file) {
            return Thumbnail(jpeg: cached, longerSide: longerSide, wasCached: true)
        }
        let key = file.lastPathComponent
        let task = inFlight.withLock { running in
            if let task = running[key] { return task }
            let task = Task { await self.make(photo, from: original, longerSide: longerSide, into: file, priority: priority) }
            running[key] = task
            return task
        }
        let result = await task.value
        inFlight.withLock { _ = $0.removeValue(forKey: key) }
        return Thumbnail(jpeg: try result.get(), longerSide: longerSide, wasCached: false)
    }

    private func make(
        _ photo: Photo, from original: ThumbnailSource?, longerSide: Int, into file: URL, priority: DispatchQoS.QoSClass
    ) async -> Result<Data, ThumbnailFailure> {
        await gate.enter()
        defer { Task { await gate.leave() } }
        var fetched: Data?
        if case .fetched(let fetch) = original {
            do {
                fetched = try await fetch()
            } catch {
                return .failure(.sourceMissing(photo: photo.id, detail: String(describing: error)))
            }
        }
        let path = if case .file(let path) = original { path } else { photo.content.sourcePath }
        return await withCheckedContinuation { [fetched] continuation in
            DispatchQueue.global(qos: priority).async {
                continuation.resume(returning: Self.makeNow(photo, from: fetched, orFile: path, longerSide: longerSide, into: file))
            }
        }
    }

    private static func makeNow(_ photo: Photo, from fetched: Data?, orFile path: String, longerSide: Int, into file: URL) -> Result<Data, ThumbnailFailure> {
        if photo.content.isVideo { return makeNow(video: photo, from: fetched, orFile: path, longerSide: longerSide, into: file) }
        let source: Data
        do {
            source = try fetched ?? Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return .failure(.sourceMissing(photo: photo.id, detail: LibraryError.describeFileError(error)))
        }
        guard Data(SHA256.hash(data: source)) == photo.content.sha256 else { return .failure(.sourceChanged(photo: photo.id)) }
        // libvips turns it upright as the file says; the organizer's turn, if it kept one, follows.
        let turn = photo.content.fileOrientation.map { photo.content.orientation.turn(from: $0) } ?? (false, 0)
        return kept(VipsThumbnailer.makeJPEG(from: source, longerSide: longerSide, turn: turn), of: photo, in: file)
    }

    /// A video's thumbnail, from a frame of its file; bytes fetched from a
    /// bucket are written to a temporary file for FFmpeg to read.
    private static func makeNow(video photo: Photo, from fetched: Data?, orFile path: String, longerSide: Int, into file: URL) -> Result<Data, ThumbnailFailure> {
        var temporary: URL?
        defer { temporary.map { try? FileManager.default.removeItem(at: $0) } }
        var videoPath = path
        if let fetched {
            guard Data(SHA256.hash(data: fetched)) == photo.content.sha256 else { return .failure(.sourceChanged(photo: photo.id)) }
            let written = FileManager.default.temporaryDirectory.appending(path: "albums-video-\(UUID().uuidString)")
            do {
                try fetched.write(to: written)
            } catch {
                return .failure(.sourceMissing(photo: photo.id, detail: LibraryError.describeFileError(error)))
            }
            temporary = written
            videoPath = written.path
        } else {
            // Hashed as it is read: a video is never held whole.
            switch FileDigest.of(path) {
            case .missing: return .failure(.sourceMissing(photo: photo.id, detail: "no such file"))
            case .unreadable(let detail): return .failure(.sourceMissing(photo: photo.id, detail: detail))
            case .digest(let digest, _) where digest != photo.content.sha256: return .failure(.sourceChanged(photo: photo.id))
            case .digest: break
            }
        }
        // FFmpeg gives the frame as stored; the container's turn follows.
        let turn = photo.content.orientation.turn(from: .up)
        let made = VideoFrameThumbnailer.makeJPEG(fromVideoAt: videoPath, duration: photo.content.duration, longerSide: longerSide, turn: turn)
        return kept(made, of: photo, in: file)
    }

    /// Keeps a thumbnail made in the cache, or says why none was.
    private static func kept(_ made: Result<Data, VipsFailure>, of photo: Photo, in file: URL) -> Result<Data, ThumbnailFailure> {
        switch made {
        case .failure(.unavailable(let detail)):
            return .failure(.unavailable(detail: detail))
        case .failure(.undecodable(let detail)):
            return .failure(.undecodable(photo: photo.id, detail: detail))
        case .success(let jpeg):
            keep(jpeg, in: file)
            return .success(jpeg)
        }
    }

    /// Writes the cache file whole or not at all (a temporary file renamed).
    private static func keep(_ jpeg: Data, in file: URL) {
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(file.lastPathComponent).\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try jpeg.write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}

/// Lets at most `slots` jobs run at once; the rest wait in order.
actor JobGate {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int) { free = slots }

    func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
