import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AlbumsServer
@testable import AlbumsStorage

/// An original kept in a bucket of the real S3 server the test scripts
/// start, served as one on disk is: whole and by range, its body passed on
/// as the service sends it, and drawn as a thumbnail; a copy that is gone
/// is a 404 before any byte.
@Suite(
    "Originals served from a bucket",
    .enabled(if: ProcessInfo.processInfo.environment["ALBUMS_TEST_S3_ENDPOINT"] != nil, "start one with scripts/object-storage start; scripts/test does"))
struct BucketOriginalTests {
    /// A library keeping its copies in a new bucket of the test server.
    struct BucketLibrary {
        let fixture: LibraryFixture
        let session: TransferSession
        let bucket: S3Bucket
        let name: String

        init() async throws {
            let environment = ProcessInfo.processInfo.environment
            let endpoint = try #require(environment["ALBUMS_TEST_S3_ENDPOINT"].flatMap(URL.init(string:)))
            let credentials = S3Credentials(
                accessKeyID: try #require(environment["ALBUMS_TEST_S3_ACCESS_KEY"]), secretAccessKey: try #require(environment["ALBUMS_TEST_S3_SECRET_KEY"]))
            let region = environment["ALBUMS_TEST_S3_REGION"] ?? "us-east-1"
            name = "albums-serve-" + UUID().uuidString.prefix(8).lowercased()
            bucket = S3Bucket(endpoint: endpoint, name: name, credentials: credentials, region: region)
            try await bucket.create()
            OriginalKeepers.installBucketKeepers { place throws(KeepingFailure) in
                guard let keeper = BucketKeeper(place: place, credentials: credentials) else { throw .unreachable(place: place.description) }
                return keeper
            }
            fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: true))
            try await fixture.library.write { [name] in
                _ = try $0.chooseStoragePlace(.bucket(BucketAddress(name: name, endpoint: endpoint.absoluteString, region: region)))
            }
            session = TransferSession(library: fixture.library)
        }

        /// Loads `source` into the library, its copy kept in the bucket, and removes `source`.
        func keep(_ source: String) async throws -> PhotoID {
            let report = await LoadRunner(session: session, keeper: try fixture.library.keeperForCopies()).loadIntoLibrary([source])
            let photo = try #require(report.committed.first?.photo)
            try FileManager.default.removeItem(atPath: source)
            return photo
        }
    }

    @Test("a bucket's copy is streamed whole and by range, and thumbnails are made from it, its source gone")
    func served() async throws {
        let kept = try await BucketLibrary()
        let (fixture, session, bucket) = (kept.fixture, kept.session, kept.bucket)
        let folder = try TemporaryFolder()
        let source = folder.path("card.jpg")
        // A photo longer than one read of the connection: the example, and bytes after its end, which decoders leave alone.
        let bytes = try fileBytes(ExamplePhotos.path("01-harbour.jpg")) + Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: source))
        let photo = try await kept.keep(source)

        let thumbnails = ThumbnailStore(folder: folder.url.appending(path: "thumbnails"))
        let token = "0123456789abcdef0123456789abcdef"
        let application = Application(router: AlbumsServer.router(session: session, thumbnails: thumbnails, token: token) { ["localhost"] })
        try await application.test(.router) { client in
            func get(_ uri: String, range: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(token)"]
                if let range { headers[.range] = range }
                return try await client.execute(uri: uri, method: .get, headers: headers)
            }
            let whole = try await get("/api/photos/\(photo)/original")
            #expect(whole.status == .ok && Data(buffer: whole.body) == bytes && whole.headers[.contentLength] == "\(bytes.count)")
            let across = try await get("/api/photos/\(photo)/original", range: "bytes=65000-70999")
            #expect(across.status == .partialContent && Data(buffer: across.body) == bytes[65000...70999])
            #expect(across.headers[.contentRange] == "bytes 65000-70999/\(bytes.count)")
            let tail = try await get("/api/photos/\(photo)/original", range: "bytes=-10")
            #expect(tail.status == .partialContent && Data(buffer: tail.body) == bytes.suffix(10))
            let past = try await get("/api/photos/\(photo)/original", range: "bytes=\(bytes.count)-")
            #expect(past.status == .rangeNotSatisfiable)
            let thumbnail = try await get("/api/photos/\(photo)/thumbnail?size=64")
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/jpeg")

            let kept = try await fixture.library.read { try $0.photo(photo) }
            let object = try #require(try await fixture.library.read { try $0.currentStoragePlace() }?.objectName(of: kept.content))
            try await bucket.remove(object)
            let gone = try await get("/api/photos/\(photo)/original")
            #expect(gone.status == .notFound && String(buffer: gone.body).contains("source_missing"), "\(String(buffer: gone.body))")
        }
    }

    @Test("a Live Photo kept in a bucket keeps its motion there too: the card wiped, the motion is served from the bucket")
    func livePhotoMotion() async throws {
        let kept = try await BucketLibrary()
        let folder = try TemporaryFolder()
        let still = folder.path("IMG_0042.JPG")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: still)
        let movie = APITests.movie(milliseconds: 1_500)
        try movie.write(to: URL(fileURLWithPath: folder.path("IMG_0042.MOV")))
        let photo = try await kept.keep(still)
        try FileManager.default.removeItem(atPath: folder.path("IMG_0042.MOV"))
        let token = "0123456789abcdef0123456789abcdef"
        let application = Application(
            router: AlbumsServer.router(session: kept.session, thumbnails: ThumbnailStore(folder: folder.url.appending(path: "thumbnails")), token: token) { ["localhost"] })
        try await application.test(.router) { client in
            let headers: HTTPFields = [.authorization: "Bearer \(token)"]
            let whole = try await client.execute(uri: "/api/photos/\(photo)/motion", method: .get, headers: headers)
            #expect(whole.status == .ok && Data(buffer: whole.body) == movie && whole.headers[.contentType] == "video/mp4")
            var ranged = headers
            ranged[.range] = "bytes=4-11"
            let part = try await client.execute(uri: "/api/photos/\(photo)/motion", method: .get, headers: ranged)
            #expect(part.status == .partialContent && Data(buffer: part.body) == movie[4...11])
        }
        let problems = try await kept.fixture.library.checkOriginals()
        #expect(problems.isEmpty, "\(problems)")
    }

    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }

    @Test(
        "a video kept only in a bucket gets its rendition: fetched into a file for ffmpeg, then streamed from the cache",
        .enabled(if: corpus != nil && PlayableRenditions().unavailableReason == nil, "the corpus (scripts/test) and ffmpeg (scripts/install-dependencies)"))
    func renditionOfABucketsVideo() async throws {
        let kept = try await BucketLibrary()
        let folder = try TemporaryFolder()
        let source = folder.path("camcorder.avi")
        try FileManager.default.copyItem(at: try #require(Self.corpus).appending(path: "videos/clip.avi"), to: URL(fileURLWithPath: source))
        let photo = try await kept.keep(source)
        let token = "0123456789abcdef0123456789abcdef"
        let renditions = PlayableRenditions(folder: folder.url.appending(path: "renditions"))
        let application = Application(
            router: AlbumsServer.router(
                session: kept.session, thumbnails: ThumbnailStore(folder: folder.url.appending(path: "thumbnails")), renditions: renditions, token: token
            ) { ["localhost"] })
        try await application.test(.router) { client in
            let headers: HTTPFields = [.authorization: "Bearer \(token)"]
            var state = ""
            for _ in 0..<3000 where state != "rendition" {
                let answer = try await client.execute(uri: "/api/photos/\(photo)/playback", method: .get, headers: headers)
                let said = try #require(try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any])
                state = said["state"] as? String ?? ""
                #expect(["preparing", "rendition"].contains(state), "\(said)")
                if state == "preparing" { try await Task.sleep(for: .milliseconds(20)) }
            }
            let rendition = try await client.execute(uri: "/api/photos/\(photo)/rendition", method: .get, headers: headers)
            #expect(rendition.status == .ok && rendition.headers[.contentType] == "video/mp4" && String(buffer: rendition.body).dropFirst(4).hasPrefix("ftyp"))
        }
    }
}
