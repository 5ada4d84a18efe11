import AlbumsPersistence
import Foundation
import Synchronization

/// Where a rendition is made from: a file (a source, or a copy the library
/// keeps in a folder), or bytes fetched into a file when it is made (a copy
/// in a bucket).
package enum RenditionSource: Sendable {
    /// The file at this path.
    case file(String)
    /// Writes the original's bytes into the file at the URL it is given.
    case fetched(@Sendable (URL) async throws -> Void)
}

/// Videos as a browser can play them: the original where every browser
/// plays its codecs, else a rendition (H.264 and AAC in MP4) made by FFmpeg
/// and kept on disk by content (SHA-256), as thumbnails are.
///
/// - A rendition asked for (``playback(of:from:)``) is made at once, one at
///   a time; the background's (``warm(_:from:)``), one at a time beside it.
///   Each is one `ffmpeg` process of one thread at the lowest CPU priority.
/// - While one is made, ``playback(of:from:)`` says how far it is.
/// - A source whose bytes no longer match the photo's SHA-256 gets none.
/// - A video FFmpeg could not convert is not tried again (the cache keeps
///   why); one whose source is missing is, once it is back.
package final class PlayableRenditions: Sendable {
    /// How a video plays in a browser now.
    package enum Playback: Sendable, Equatable {
        /// From its original: browsers play it as it is.
        case original
        /// From the rendition in this file.
        case rendition(URL)
        /// Its rendition is being made; the fraction done, where known.
        case preparing(fraction: Double?)
        /// It has none and gets none, for this reason.
        case impossible(RenditionFailure)
    }

    /// Where renditions are kept.
    package let folder: URL
    /// The `ffmpeg` program that converts, or nil where there is none.
    let program: String?

    private let verdicts = Mutex<[String: Bool]>([:])
    /// Why the last attempt failed, where trying again later may not (a source missing, or changed): said once, then tried again.
    private let lastFailures = Mutex<[String: RenditionFailure]>([:])
    private let making = Mutex<[String: Making]>([:])
    private let running = Mutex<[ObjectIdentifier: Process]>([:])
    /// Set by ``stop()``: a conversion stopped then failed for no fault of its video's.
    private let stopping = Mutex(false)
    private let asked = JobGate(slots: 1)
    private let background = JobGate(slots: 1)

    private struct Making {
        var task: Task<Result<Void, RenditionFailure>, Never>
        var fraction: Double?
    }

    /// - Parameters:
    ///   - folder: The cache folder; by default `albums/renditions` in the
    ///     XDG cache folder, beside the thumbnails.
    ///   - program: The `ffmpeg` program; by default the one on the `PATH`.
    package init(folder: URL = PlayableRenditions.defaultFolder(), program: String? = FFmpegConversion.findProgram()) {
        self.folder = folder
        self.program = program
    }

    /// `$XDG_CACHE_HOME/albums/renditions`, or `~/.cache/albums/renditions`.
    package static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ThumbnailStore.defaultFolder(environment: environment).deletingLastPathComponent().appending(path: "renditions", directoryHint: .isDirectory)
    }

    /// Why no rendition can be made on this machine, or nil when they can.
    package var unavailableReason: String? {
        if let startFailure = VideoFrameThumbnailer.startFailure { return startFailure }
        return program == nil ? "FFmpeg's ffmpeg program is not installed (on Debian or Ubuntu: apt-get install ffmpeg)" : nil
    }

    /// The file a video's rendition is kept in: `ab/abcdef….mp4`, under
    /// the photo's ``Photo/derivedFilesKey``.
    package func renditionFile(of photo: Photo) -> URL {
        renditionFile(key: photo.derivedFilesKey)
    }

    private func renditionFile(key: String) -> URL {
        folder.appending(path: String(key.prefix(2)), directoryHint: .isDirectory).appending(path: "\(key).mp4", directoryHint: .notDirectory)
    }

    /// Beside it, a mark that the original plays as it is, or why FFmpeg failed to convert it.
    private func mark(_ key: String, _ kind: String) -> URL {
        renditionFile(key: key).deletingPathExtension().appendingPathExtension(kind)
    }

    /// How `photo` plays now. A video that needs a rendition and has none
    /// yet starts to get one, ahead of the background's.
    package func playback(of photo: Photo, from source: RenditionSource) async -> Playback {
        if let known = known(photo) { return known }
        if case .file(let path) = source, verdicts.withLock({ $0[photo.derivedFilesKey] }) == nil {
            // Reading the streams takes a moment; converting, long: browsers play most videos as they are.
            switch await streams(of: photo, at: path, priority: .userInitiated) {
            case .success(let streams):
                if streams.playsInBrowsers { return .original }
            case .failure(.unavailable(let detail)):
                return .impossible(.unavailable(detail: detail))
            case .failure:
                break  // the conversion finds out why (a missing file, another file), and keeps it
            }
        }
        if let reason = unavailableReason { return .impossible(.unavailable(detail: reason)) }
        let fraction = start(photo, from: source, gate: asked).fraction
        return .preparing(fraction: fraction)
    }

    /// Makes `photo`'s rendition in the background if it needs one and has
    /// none; returns once it is made, or cannot be. Answers whether the
    /// video plays now (from its original or its rendition).
    @discardableResult
    package func warm(_ photo: Photo, from source: RenditionSource) async -> Bool {
        if let known = known(photo) {
            switch known {
            case .original, .rendition: return true
            case .impossible: return false
            case .preparing: break
            }
        }
        guard unavailableReason == nil else { return false }
        let making = start(photo, from: source, gate: background)
        return (try? await making.task.value.get()) != nil
    }

    /// Has `photo`'s rendition made in the background if it needs one and
    /// has none, without waiting for it: a file's streams are read now, a
    /// bucket's copy is fetched by the job.
    package func prepare(_ photo: Photo, from source: RenditionSource) async {
        guard known(photo) == nil, unavailableReason == nil else { return }
        if case .file(let path) = source, case .success(let streams) = await streams(of: photo, at: path, priority: .utility), streams.playsInBrowsers {
            return
        }
        _ = start(photo, from: source, gate: background)
    }

    /// Stops every conversion running (`albums serve` on shutdown).
    package func stop() {
        stopping.withLock { $0 = true }
        // Killed, not asked to stop: asked, ffmpeg finishes the file it writes (seconds at the lowest
        // priority), which is thrown away, and the server's exit would leave it running alone.
        for process in running.withLock({ Array($0.values) }) where process.isRunning { FFmpegConversion.kill(process) }
    }

    /// The streams of `photo`'s file at `path`, read on a thread of their
    /// own; whether browsers play them is remembered by content.
    private func streams(of photo: Photo, at path: String, priority: DispatchQoS.QoSClass) async -> Result<VideoStreams, RenditionFailure> {
        let read = await Self.onThread(priority) { VideoStreams.read(videoAt: path) }
        if case .success(let streams) = read { verdicts.withLock { $0[photo.derivedFilesKey] = streams.playsInBrowsers } }
        return read
    }

    /// What is known of `photo` without reading its file: nil when nothing is.
    private func known(_ photo: Photo) -> Playback? {
        guard photo.content.isVideo else { return .impossible(.notVideo(photo: photo.id)) }
        let key = photo.derivedFilesKey
        if verdicts.withLock({ $0[key] }) == true { return .original }
        let file = renditionFile(key: key)
        if FileManager.default.fileExists(atPath: file.path) { return .rendition(file) }
        if FileManager.default.fileExists(atPath: mark(key, "plays").path) { return .original }
        if let said = try? String(contentsOf: mark(key, "failed"), encoding: .utf8) { return .impossible(.conversionFailed(detail: said)) }
        if let fraction = making.withLock({ $0[key].map(\.fraction) }) { return .preparing(fraction: fraction) }
        if let failure = lastFailures.withLock({ $0.removeValue(forKey: key) }) { return .impossible(failure) }
        return nil
    }

    /// The job making `photo`'s rendition: the one under way, else a new one.
    private func start(_ photo: Photo, from source: RenditionSource, gate: JobGate) -> Making {
        let key = photo.derivedFilesKey
        return making.withLock { making in
            if let underway = making[key] { return underway }
            let task = Task {
                await gate.enter()
                let result = await self.make(photo, from: source)
                await gate.leave()
                if case .failure(let failure) = result { self.lastFailures.withLock { $0[key] = failure } }
                _ = self.making.withLock { $0.removeValue(forKey: key) }
                return result
            }
            let started = Making(task: task, fraction: 0)
            making[key] = started
            return started
        }
    }

    private func make(_ photo: Photo, from source: RenditionSource) async -> Result<Void, RenditionFailure> {
        let key = photo.derivedFilesKey
        var temporary: URL?
        defer { temporary.map { try? FileManager.default.removeItem(at: $0) } }
        let path: String
        switch source {
        case .file(let file):
            path = file
        case .fetched(let fetch):
            let into = FileManager.default.temporaryDirectory.appending(path: "albums-rendition-\(UUID().uuidString)")
            temporary = into
            do {
                try await fetch(into)
            } catch {
                return .failure(.sourceMissing(photo: photo.id, detail: String(describing: error)))
            }
            path = into.path
        }
        let fetched = temporary != nil
        return await Self.onThread(.utility) { () -> Result<Void, RenditionFailure> in
            let streams = VideoStreams.read(videoAt: path)
            if case .failure(.unavailable(let detail)) = streams { return .failure(.unavailable(detail: detail)) }
            if case .success(let streams) = streams, streams.playsInBrowsers {
                self.verdicts.withLock { $0[key] = true }
                // A file is read again after a restart in a moment; a bucket's copy is not fetched again.
                if fetched { self.keepMark(key, "plays", saying: "") }
                return .success(())
            }
            // Hashed as it is read (a video is never held whole): a rendition must be of the bytes imported.
            switch FileDigest.of(path) {
            case .missing: return .failure(.sourceMissing(photo: photo.id, detail: "no such file"))
            case .unreadable(let detail): return .failure(.sourceMissing(photo: photo.id, detail: detail))
            case .digest(let digest, _) where digest != photo.content.sha256: return .failure(.sourceChanged(photo: photo.id))
            case .digest: break
            }
            guard let program = self.program else { return .failure(.unavailable(detail: self.unavailableReason ?? "no ffmpeg")) }
            let converted = FFmpegConversion.convert(
                program: program, input: path, output: self.renditionFile(key: key), duration: photo.content.duration,
                progress: { fraction in self.making.withLock { $0[key]?.fraction = fraction } },
                started: { process in self.running.withLock { $0[ObjectIdentifier(process)] = process } })
            self.running.withLock { running in running = running.filter { $0.value.isRunning } }
            // Kept, so that a video FFmpeg cannot convert is not tried at every start; not a conversion
            // stopped by a shutdown, nor one the disk had no room for: those are tried again.
            if case .failure(.conversionFailed(let detail)) = converted, !self.stopping.withLock({ $0 }), !detail.contains("No space left on device") {
                self.keepMark(key, "failed", saying: detail)
            }
            return converted
        }
    }

    /// Keeps a mark beside the renditions, whole or not at all; a folder that cannot be written only costs speed.
    private func keepMark(_ key: String, _ kind: String, saying text: String) {
        let file = mark(key, kind)
        let temporary = file.deletingLastPathComponent().appending(path: ".\(file.lastPathComponent).\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// Runs blocking work (FFmpeg reads and converts files) on a thread of its own, never on Swift's cooperative pool.
    private static func onThread<T: Sendable>(_ priority: DispatchQoS.QoSClass, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: priority).async { continuation.resume(returning: work()) }
        }
    }
}
