import AlbumsImageFacts
import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import CFFmpeg
import Crypto
import Foundation
import Testing

@testable import AlbumsThumbnails

/// A video's thumbnail: a frame FFmpeg's libraries decode, on the clips
/// ffmpeg makes for the photo corpus (ALBUMS_PHOTO_CORPUS names it).
@Suite("Thumbnails of videos: a frame that shows something, upright")
struct VideoThumbnailTests {
    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }

    func video(_ name: String) throws -> String {
        try #require(Self.corpus).appending(path: "videos/\(name)").path
    }

    func photo(_ path: String) async throws -> Photo {
        Photo(id: PhotoID(rawValue: 1), content: try await FileLoader().load(path), importedAt: Date())
    }

    /// The mean brightness (0–255) of the frame FFmpeg picks for `path`, and where it stands.
    func pickedFrame(_ path: String, duration: Double, longerSide: Int32 = 64) throws -> (brightness: Double, seconds: Double, width: Int, height: Int) {
        #expect(VideoFrameThumbnailer.startFailure == nil)
        var frame = albums_video_frame_t()
        defer { albums_ffmpeg_release(&frame) }
        #expect(albums_ffmpeg_frame(path, duration, longerSide, &frame) == 0, "\(frame.error.map { String(cString: $0) } ?? "")")
        let pixels = try #require(frame.pixels)
        let count = Int(frame.width) * Int(frame.height)
        var sum = 0.0
        for index in 0..<count { sum += 0.299 * Double(pixels[index * 3]) + 0.587 * Double(pixels[index * 3 + 1]) + 0.114 * Double(pixels[index * 3 + 2]) }
        return (sum / Double(max(count, 1)), frame.seconds, Int(frame.width), Int(frame.height))
    }

    @Test(
        "a clip that fades in from black gets a frame past the black; its first frame is the black one",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func pastTheFade() throws {
        let path = try video("fade.mp4")
        let facts = try VideoHeaderReader.read(fileAt: path)
        let picked = try pickedFrame(path, duration: facts.duration ?? 0)
        // Asked for no length, it takes the first frame: the fade's black.
        let first = try pickedFrame(path, duration: 0)
        #expect(first.seconds == 0 && first.brightness < 8, "\(first)")
        #expect(picked.seconds >= 0.9 && picked.brightness >= 40, "\(picked)")
        #expect(picked.width == 64 && picked.height == 48)
    }

    @Test(
        "every container becomes a JPEG of the size asked; a phone's movie turned a quarter in its matrix comes out upright",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func containers() async throws {
        let cache = try TemporaryFolder()
        let store = ThumbnailStore(folder: cache.url, jobs: 2)
        for name in ["clip.mp4", "clip.mov", "clip.m4v", "clip.3gp", "clip.webm", "clip.mkv", "clip.avi", "clip.mpg", "dated.webm", "phone.mov"] {
            let photo = try await photo(try video(name))
            let thumbnail = try await store.thumbnail(of: photo, longerSide: 120)
            let facts = try ImageHeaderReader.read(thumbnail.jpeg)
            #expect(facts.mediaType == "image/jpeg" && max(facts.pixelWidth ?? 0, facts.pixelHeight ?? 0) == 120, "\(name): \(facts)")
            if let width = photo.content.displayWidth, let height = photo.content.displayHeight {
                #expect(((facts.pixelWidth ?? 0) > (facts.pixelHeight ?? 0)) == (width > height), "\(name)")
            }
            #expect(try await store.thumbnail(of: photo, longerSide: 120).wasCached)
        }
        let phone = try await photo(try video("phone.mov"))
        #expect(phone.content.orientation == .right)
        let facts = try ImageHeaderReader.read(try await store.thumbnail(of: phone, longerSide: 176).jpeg)
        #expect(facts.pixelWidth == 144 && facts.pixelHeight == 176)
    }

    @Test(
        "a video whose file changed, or that FFmpeg cannot decode, gets no thumbnail and nothing is cached",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func refusals() async throws {
        let cache = try TemporaryFolder()
        let store = ThumbnailStore(folder: cache.url, jobs: 1)
        let folder = try TemporaryFolder()
        let copy = folder.path("clip.mp4")
        try FileManager.default.copyItem(atPath: try video("clip.mp4"), toPath: copy)
        let photo = try await photo(copy)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: copy))
        await #expect(throws: ThumbnailFailure.sourceChanged(photo: photo.id)) { try await store.thumbnail(of: photo, longerSide: 64) }
        // Its container's header is whole, its pictures are not: cut after the header.
        let original = try Data(contentsOf: URL(fileURLWithPath: try video("clip.mkv")))
        let cut = folder.path("cut.mkv")
        try original.prefix(400).write(to: URL(fileURLWithPath: cut))
        var content = try await FileLoader().load(try video("clip.mkv"))
        content.sha256 = Data(SHA256.hash(data: original.prefix(400)))
        content.sourcePath = cut
        let damaged = Photo(id: PhotoID(rawValue: 2), content: content, importedAt: Date())
        do {
            _ = try await store.thumbnail(of: damaged, longerSide: 64)
            Issue.record("a cut video gave a thumbnail")
        } catch {
            #expect(error.code == "thumbnail_failed", "\(error)")
        }
        #expect(try cache.fileNames().isEmpty)
    }
}
