import AlbumsImageFacts
import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Crypto
import Foundation
import Testing

@testable import AlbumsThumbnails

@Suite("Thumbnails: libvips, upright, cached by content and size")
struct ThumbnailStoreTests {
    let cache: TemporaryFolder
    let store: ThumbnailStore

    init() throws {
        cache = try TemporaryFolder()
        store = ThumbnailStore(folder: cache.url, jobs: 2)
    }

    /// A photo as the library records it, loaded from `path`.
    func photo(_ path: String, id: Int64 = 1) async throws -> Photo {
        Photo(id: PhotoID(rawValue: id), content: try await FileLoader().load(path), importedAt: Date())
    }

    func facts(_ thumbnail: Thumbnail) throws -> ImageFacts {
        try ImageHeaderReader.read(thumbnail.jpeg)
    }

    @Test(
        "every format albums imports becomes a JPEG whose longer side is the size asked",
        arguments: ["01-harbour.jpg", "02-market.png", "03-cliffs.webp", "05-sunset.heic", "06-map.gif", "07-scan.tiff", "11-forest.jpg"])
    func formats(file: String) async throws {
        let photo = try await photo(ExamplePhotos.path(file))
        let thumbnail = try await store.thumbnail(of: photo, longerSide: 160)
        let facts = try facts(thumbnail)
        #expect(facts.mediaType == "image/jpeg")
        #expect(max(facts.pixelWidth ?? 0, facts.pixelHeight ?? 0) == 160)
        // The aspect ratio is kept (within a pixel of rounding).
        let (width, height) = (try #require(photo.content.displayWidth), try #require(photo.content.displayHeight))
        let expectedShort = Double(min(width, height)) * 160 / Double(max(width, height))
        #expect(abs(Double(min(facts.pixelWidth ?? 0, facts.pixelHeight ?? 0)) - expectedShort) <= 1)
        #expect((width > height) == ((facts.pixelWidth ?? 0) > (facts.pixelHeight ?? 0)))
        #expect(!thumbnail.wasCached)
    }

    @Test("a photo stored sideways (EXIF orientation 6) comes out upright", arguments: [PhotoOrientation.right, .left, .down, .up])
    func upright(orientation: PhotoOrientation) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("sideways.jpg")
        let original = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))  // 640×427, no EXIF
        try Self.withOrientation(orientation.rawValue, original).write(to: URL(fileURLWithPath: path))
        let photo = try await photo(path)
        #expect(photo.content.orientation == orientation)
        let facts = try facts(try await store.thumbnail(of: photo, longerSide: 200))
        if orientation.swapsWidthAndHeight {
            #expect(facts.pixelWidth == 133 && facts.pixelHeight == 200)
        } else {
            #expect(facts.pixelWidth == 200 && facts.pixelHeight == 133)
        }
        #expect(facts.orientation == .up, "metadata is stripped: the pixels are upright")
    }

    @Test("a photo its organizer turned (in its catalog, not the file) comes out as the organizer showed it, cached apart", arguments: [
        (PhotoOrientation.up, PhotoOrientation.right), (.right, .up), (.right, .left), (.down, .upMirrored),
    ])
    func turnedByItsOrganizer(file: PhotoOrientation, shown: PhotoOrientation) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("turned.jpg")
        let original = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))  // 640×427
        try Self.withOrientation(file.rawValue, original).write(to: URL(fileURLWithPath: path))
        var content = try await FileLoader().load(path)
        content.show(as: shown)
        #expect(content.orientation == shown && content.fileOrientation == file)
        let photo = Photo(id: PhotoID(rawValue: 7), content: content, importedAt: Date())
        let facts = try facts(try await store.thumbnail(of: photo, longerSide: 200))
        #expect(shown.swapsWidthAndHeight ? (facts.pixelWidth == 133 && facts.pixelHeight == 200) : (facts.pixelWidth == 200 && facts.pixelHeight == 133))
        #expect(store.cacheFile(of: photo, longerSide: 200).lastPathComponent.hasSuffix("-200-o\(shown.rawValue).jpg"))
        #expect(store.isCached(photo, longerSide: 200))
        // The same raster whose file says `shown` comes out the same, pixel for pixel.
        let other = folder.path("as-shown.jpg")
        try Self.withOrientation(shown.rawValue, original).write(to: URL(fileURLWithPath: other))
        let reference = try await store.thumbnail(of: try await self.photo(other, id: 8), longerSide: 200)
        #expect(try await store.thumbnail(of: photo, longerSide: 200).jpeg == reference.jpeg)
    }

    @Test("made once, then read from the cache file named by SHA-256 and size; concurrent requests share one making")
    func caching() async throws {
        let photo = try await photo(ExamplePhotos.path("01-harbour.jpg"))
        async let first = store.thumbnail(of: photo, longerSide: 96)
        async let second = store.thumbnail(of: photo, longerSide: 96)
        let (a, b) = try await (first, second)
        #expect(a.jpeg == b.jpeg)
        let file = store.cacheFile(key: photo.derivedFilesKey, longerSide: 96)
        #expect(try Data(contentsOf: file) == a.jpeg)
        #expect(file.path.hasSuffix("/\(photo.content.sha256Hex.prefix(2))/\(photo.content.sha256Hex)-96.jpg"))
        let again = try await store.thumbnail(of: photo, longerSide: 96)
        #expect(again.wasCached && again.jpeg == a.jpeg)
        #expect(try cache.fileNames() == [String(photo.content.sha256Hex.prefix(2))], "no temporary files left")
    }

    @Test("a missing or changed source, an undecodable one, and a size out of range are refused with their codes")
    func refusals() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("photo.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: path)
        let photo = try await photo(path)

        await #expect(throws: ThumbnailFailure.unsupportedSize(4096)) { try await store.thumbnail(of: photo, longerSide: 4096) }
        await #expect(throws: ThumbnailFailure.unsupportedSize(0)) { try await store.thumbnail(of: photo, longerSide: 0) }

        try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("11-forest.jpg"))).write(to: URL(fileURLWithPath: path))
        await #expect(throws: ThumbnailFailure.sourceChanged(photo: photo.id)) { try await store.thumbnail(of: photo, longerSide: 64) }

        try FileManager.default.removeItem(atPath: path)
        do {
            _ = try await store.thumbnail(of: photo, longerSide: 64)
            Issue.record("a missing source gave a thumbnail")
        } catch {
            // The facts, not a command: the front end says what to run, to whom may run it.
            #expect(error.code == "source_missing" && error.description.contains("cannot be read") && !error.description.contains("albums "))
        }

        // A PNG's header and then noise where its pixels should be. (A
        // photo cut short still gets a thumbnail of what decodes, as a
        // browser shows it.)
        let png = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("02-market.png")))
        var broken = photo.content
        broken.sourcePath = folder.path("broken.png")
        let bytes = png.prefix(33) + Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try bytes.write(to: URL(fileURLWithPath: broken.sourcePath))
        broken.sha256 = Data(Self.sha256(bytes))
        do {
            _ = try await store.thumbnail(of: Photo(id: photo.id, content: broken, importedAt: Date()), longerSide: 64)
            Issue.record("a broken PNG gave a thumbnail")
        } catch {
            #expect(error.code == "thumbnail_failed")
        }
        #expect(try cache.fileNames().isEmpty, "nothing cached for a refusal")
    }

    @Test("the cache folder follows XDG_CACHE_HOME, else ~/.cache")
    func folders() {
        #expect(ThumbnailStore.defaultFolder(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/a"]).path == "/x/cache/albums/thumbnails")
        #expect(ThumbnailStore.defaultFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/a"]).path == "/home/a/.cache/albums/thumbnails")
        #expect(ThumbnailStore.defaultFolder(environment: ["HOME": "/home/a"]).path == "/home/a/.cache/albums/thumbnails")
    }

    /// `jpeg` with an EXIF APP1 segment holding only Orientation, right after SOI.
    static func withOrientation(_ value: Int, _ jpeg: Data) -> Data {
        var tiff: [UInt8] = Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8]
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, UInt8(value), 0, 0]
        tiff += [0, 0, 0, 0]  // no next directory
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
    }

    static func sha256(_ data: Data) -> [UInt8] {
        Array(SHA256.hash(data: data))
    }
}
