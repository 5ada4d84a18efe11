import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsThumbnails

/// Videos as a browser plays them: which play as they are (FFmpeg's reading
/// of their streams, checked against ffprobe's), and the rendition the
/// `ffmpeg` program makes of the others; on the clips ffmpeg makes for the
/// photo corpus (ALBUMS_PHOTO_CORPUS names it).
@Suite("Playable renditions: videos every browser plays")
struct PlayableRenditionTests {
    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }
    static let ffmpeg = FFmpegConversion.findProgram()

    func video(_ name: String) throws -> String {
        try #require(Self.corpus).appending(path: "videos/\(name)").path
    }

    func photo(_ path: String, id: Int64 = 1) async throws -> Photo {
        Photo(id: PhotoID(rawValue: id), content: try await FileLoader().load(path), importedAt: Date())
    }

    /// Waits for `condition`, polling; fails after a minute, far beyond what any of these needs.
    func eventually(_ what: Comment, _ condition: () async -> Bool) async throws {
        for _ in 0..<3000 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("never: \(what)")
    }

    /// A stand-in for `ffmpeg`: says it is half done, waits for `release`
    /// to appear, then writes its output (the last argument) and ends well.
    func slowProgram(in folder: TemporaryFolder, release: String) throws -> String {
        let path = folder.path("slow-ffmpeg")
        let script = """
            #!/bin/sh
            echo out_time_us=500000
            echo progress=continue
            while [ ! -e '\(release)' ]; do sleep 0.02; done
            for last; do :; done
            printf made > "${last#file:}"
            echo progress=end
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test(
        "FFmpeg's reading of each clip's container and codecs is ffprobe's; H.264 and VP8 in MP4, QuickTime and Matroska play as they are, the rest need a rendition",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func streamsAsFFprobeReadsThem() throws {
        let corpus = try #require(Self.corpus)
        let probes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appending(path: "ffprobe.json"))) as? [String: [String: Any]])
        var plays: [String: Bool] = [:]
        for (name, probe) in probes {
            let streams = try VideoStreams.read(videoAt: try video(name)).get()
            let format = try #require(probe["format"] as? [String: Any])
            let listed = try #require(probe["streams"] as? [[String: Any]])
            #expect(streams.container == format["format_name"] as? String, "\(name)")
            #expect(streams.videoCodec == listed.first { $0["codec_type"] as? String == "video" }?["codec_name"] as? String, "\(name)")
            #expect(streams.audioCodec == listed.first { $0["codec_type"] as? String == "audio" }?["codec_name"] as? String, "\(name)")
            plays[name] = streams.playsInBrowsers
        }
        #expect(plays == [
            "clip.mp4": true, "clip.mov": true, "clip.m4v": true, "clip.mkv": true, "clip.webm": true, "dated.webm": true, "fade.mp4": true,
            "phone.mov": true, "clip.avi": false, "clip.3gp": false, "clip.mpg": false,
        ])
        #expect(VideoStreams(container: "mov,mp4,m4a,3gp,3g2,mj2", videoCodec: "hevc", audioCodec: "aac").playsInBrowsers == false)
        #expect(VideoStreams(container: "mov,mp4,m4a,3gp,3g2,mj2", videoCodec: "prores", audioCodec: "pcm_s16le").playsInBrowsers == false)
        #expect(VideoStreams(container: "mov,mp4,m4a,3gp,3g2,mj2", videoCodec: "h264", audioCodec: "pcm_s16le").playsInBrowsers == false)
        #expect(VideoStreams(container: "matroska,webm", videoCodec: "vp9", audioCodec: "opus").playsInBrowsers)
        guard case .failure(.unreadable) = VideoStreams.read(videoAt: corpus.appending(path: "videos/no-such.mp4").path) else {
            Issue.record("a missing file has streams")
            return
        }
    }

    @Test(
        "an AVI becomes an H.264 MP4 of its size and length, kept by content: a new store finds it; a clip browsers play is played from its original",
        .enabled(if: corpus != nil && ffmpeg != nil, "the corpus (scripts/test) and ffmpeg (scripts/install-dependencies)"))
    func renditionOfAnAVI() async throws {
        let cache = try TemporaryFolder()
        let renditions = PlayableRenditions(folder: cache.url)
        let avi = try await photo(try video("clip.avi"))
        #expect(await renditions.playback(of: avi, from: .file(try video("clip.avi"))) == .preparing(fraction: 0))
        #expect(await renditions.warm(avi, from: .file(try video("clip.avi"))))
        let file = renditions.renditionFile(of: avi)
        #expect(await renditions.playback(of: avi, from: .file(try video("clip.avi"))) == .rendition(file))
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: try #require(Self.ffmpeg)).deletingLastPathComponent().appending(path: "ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "stream=codec_name,width,height:format=duration,format_name", "-of", "json", file.path]
        let said = Pipe()
        probe.standardOutput = said
        try probe.run()
        let answer = try #require(try JSONSerialization.jsonObject(with: said.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
        probe.waitUntilExit()
        let stream = try #require((answer["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["width"] as? Int == avi.content.displayWidth && stream["height"] as? Int == avi.content.displayHeight)
        let length = try #require(Double((answer["format"] as? [String: Any])?["duration"] as? String ?? ""))
        #expect(abs(length - (avi.content.duration ?? 0)) < 0.1)
        // Kept on disk, by content: another process's store plays it at once.
        #expect(await PlayableRenditions(folder: cache.url, program: nil).playback(of: avi, from: .file(try video("clip.avi"))) == .rendition(file))
        let mp4 = try await photo(try video("clip.mp4"), id: 2)
        #expect(await renditions.playback(of: mp4, from: .file(try video("clip.mp4"))) == .original)
        #expect(!FileManager.default.fileExists(atPath: renditions.renditionFile(of: mp4).path))
    }

    @Test(
        "while ffmpeg works, the playback says how far it is, from ffmpeg's own report; once it ends, the rendition",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func progressWhileMade() async throws {
        let folder = try TemporaryFolder()
        let release = folder.path("release")
        let renditions = PlayableRenditions(folder: folder.url.appending(path: "cache"), program: try slowProgram(in: folder, release: release))
        let path = try video("clip.avi")
        let avi = try await photo(path)
        #expect(avi.content.duration == 1)
        #expect(await renditions.playback(of: avi, from: .file(path)) == .preparing(fraction: 0))
        try await eventually("half done, as the program said") {
            await renditions.playback(of: avi, from: .file(path)) == .preparing(fraction: 0.5)
        }
        #expect(!FileManager.default.fileExists(atPath: renditions.renditionFile(of: avi).path), "nothing kept before it ends")
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(await renditions.warm(avi, from: .file(try video("clip.avi"))))
        let file = renditions.renditionFile(of: avi)
        #expect(await renditions.playback(of: avi, from: .file(try video("clip.avi"))) == .rendition(file))
        #expect(try String(contentsOf: file, encoding: .utf8) == "made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == [file.lastPathComponent], "no partial file left")
    }

    @Test(
        "a conversion that fails says what ffmpeg said and is not tried again; no ffmpeg, a changed source and a still get none, each saying why",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func failures() async throws {
        let folder = try TemporaryFolder()
        let failing = folder.path("failing-ffmpeg")
        try "#!/bin/sh\necho 'file:x: Invalid data found when processing input' >&2\nexit 1\n".write(toFile: failing, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing)
        let cache = folder.url.appending(path: "cache")
        let avi = try await photo(try video("clip.avi"))
        let source = RenditionSource.file(try video("clip.avi"))
        let renditions = PlayableRenditions(folder: cache, program: failing)
        #expect(await renditions.warm(avi, from: source) == false)
        let failed = PlayableRenditions.Playback.impossible(.conversionFailed(detail: "file:x: Invalid data found when processing input (exit status 1)"))
        #expect(await renditions.playback(of: avi, from: source) == failed)
        // Kept beside the renditions: another store does not try again, with or without ffmpeg.
        #expect(await PlayableRenditions(folder: cache, program: nil).playback(of: avi, from: source) == failed)

        let none = PlayableRenditions(folder: folder.url.appending(path: "other"), program: nil)
        guard case .impossible(.unavailable(let reason)) = await none.playback(of: avi, from: source) else {
            Issue.record("no ffmpeg, yet a rendition")
            return
        }
        #expect(reason.contains("apt-get install ffmpeg"))

        // Bytes other than those imported: none made, said once the job ends, and tried again when asked again.
        let changed = folder.path("changed.avi")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try video("clip.avi")))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: changed))
        let fresh = PlayableRenditions(folder: folder.url.appending(path: "fresh"), program: try slowProgram(in: folder, release: folder.path("never")))
        #expect(await fresh.warm(avi, from: .file(changed)) == false)
        #expect(await fresh.playback(of: avi, from: .file(changed)) == .impossible(.sourceChanged(photo: avi.id)))
        #expect(await fresh.playback(of: avi, from: .file(folder.path("gone.avi"))) == .preparing(fraction: 0))

        // Stopped by a shutdown while it works: nothing kept, so the next server tries again.
        let stopped = PlayableRenditions(folder: folder.url.appending(path: "stopped"), program: try slowProgram(in: folder, release: folder.path("never")))
        #expect(await stopped.playback(of: avi, from: source) == .preparing(fraction: 0))
        try await eventually("ffmpeg running") { await stopped.playback(of: avi, from: source) == .preparing(fraction: 0.5) }
        stopped.stop()
        try await eventually("the conversion stopped") {
            if case .impossible(.conversionFailed) = await stopped.playback(of: avi, from: source) { return true } else { return false }
        }
        #expect(await PlayableRenditions(folder: folder.url.appending(path: "stopped"), program: failing).playback(of: avi, from: source) == .preparing(fraction: 0))

        let still = Photo(id: PhotoID(rawValue: 9), content: avi.content, importedAt: Date())
        var stillContent = still.content
        stillContent.mediaType = "image/jpeg"
        #expect(await renditions.playback(of: Photo(id: still.id, content: stillContent, importedAt: Date()), from: source) == .impossible(.notVideo(photo: still.id)))
    }
}
