import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Crypto
import Foundation
import Testing

@testable import AlbumsStorage

/// Originals kept in a bucket of the real S3 server the test scripts start:
/// uploads in one request and in parts, verified; imports through
/// placeholders that commit once the upload is stored; checks, moves both
/// ways, and the faults a service has (a wrong key, a bucket that vanishes).
@Suite(
    "Originals kept in a bucket of a real S3 server", .serialized,
    .enabled(if: S3TestServer.configured != nil, "start one with scripts/object-storage start; scripts/test does"))
struct BucketKeepingTests {
    let server: S3TestServer
    let fixture: LibraryFixture
    let bucket: S3Bucket
    let address: BucketAddress

    init() async throws {
        server = try #require(S3TestServer.configured)
        fixture = try LibraryFixture()
        let name = "albums-keep-" + UUID().uuidString.prefix(8).lowercased()
        bucket = server.bucket(name)
        try await bucket.create()
        address = BucketAddress(name: name, endpoint: server.endpoint.absoluteString, region: server.region, prefix: "library/")
        // This process reaches buckets as albums-serve does, with the test server's keys.
        let credentials = server.credentials
        OriginalKeepers.installBucketKeepers { place throws(KeepingFailure) in
            guard let keeper = BucketKeeper(place: place, credentials: credentials) else { throw .unreachable(place: place.description) }
            return keeper
        }
    }

    /// A file of `count` bytes in the fixture's folder, and its content as a load would read it.
    func file(_ name: String, count: Int, seed: UInt8 = 1) throws -> (String, PhotoContent) {
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
        let path = fixture.folder.path(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        let content = PhotoContent(
            sha256: Data(SHA256.hash(data: bytes)), byteCount: Int64(count), mediaType: "image/jpeg", originalName: name, sourcePath: path)
        return (path, content)
    }

    func chosen() throws -> StoragePlace {
        try write { try $0.chooseStoragePlace(.bucket(address)) }
    }

    /// The library read or written synchronously, from async tests too.
    func read<T>(_ body: (LibraryReader) throws -> T) throws -> T { try fixture.library.read(body) }
    func write<T>(_ body: (LibraryWriter) throws -> T) throws -> T { try fixture.library.write(body) }

    @Test("a copy goes up in one request, or in parts past 16 MiB, under its content's name; read back whole and by range")
    func uploads() async throws {
        let keeper = try #require(BucketKeeper(place: try chosen(), credentials: server.credentials))
        try await keeper.check()
        for (name, count) in [("small.jpg", 300_000), ("large.jpg", BucketKeeper.partSize + 1_234_567)] {
            let (path, content) = try file(name, count: count)
            try await keeper.keep(fileAt: path, as: content)
            #expect(try await keeper.size(of: content) == content.byteCount)
            let object = try #require(keeper.place.objectName(of: content))
            #expect(object == "library/" + StoragePlace.keptName(sha256Hex: content.sha256Hex, mediaType: "image/jpeg"))
            let whole = try await keeper.bytes(of: content, in: nil)
            #expect(Data(SHA256.hash(data: whole)) == content.sha256)
            #expect(try await keeper.bytes(of: content, in: 1_000...1_099) == whole[1_000..<1_100])
            try await keeper.keep(fileAt: path, as: content)  // there already: no failure, the same object
            try await keeper.remove(content)
            #expect(try await keeper.size(of: content) == nil)
        }
    }

    @Test("the parts of an upload a killed process left are given up when the same copy is kept again")
    func leftUploadsGivenUp() async throws {
        let keeper = try #require(BucketKeeper(place: try chosen(), credentials: server.credentials))
        let (path, content) = try file("large.mov", count: BucketKeeper.partSize + 100)
        let name = try #require(keeper.place.objectName(of: content))
        // What a process killed in the middle of its upload leaves behind.
        let left = try await bucket.startUpload(name)
        _ = try await bucket.uploadPart(name, id: left, number: 1, bytes: Data(repeating: 3, count: 1_000))
        let other = try await bucket.startUpload("library/another.mov")
        #expect(try await bucket.unfinishedUploads(prefix: "library/").map(\.id).sorted() == [left, other].sorted())

        try await keeper.keep(fileAt: path, as: content)
        #expect(try await bucket.unfinishedUploads(prefix: "library/").map(\.id) == [other], "only the same copy's are given up")
        #expect(try await keeper.size(of: content) == content.byteCount)
        try await bucket.abortUpload("library/another.mov", id: other)
    }

    @Test("bytes that are not the photo's are never kept: no object is left, and an upload in parts is given up")
    func changed() async throws {
        let keeper = try #require(BucketKeeper(place: try chosen(), credentials: server.credentials))
        for count in [1_000, BucketKeeper.partSize + 10] {
            let (path, content) = try file("photo-\(count).jpg", count: count)
            try Data(repeating: 9, count: count).write(to: URL(fileURLWithPath: path))
            await #expect(throws: KeepingFailure.changed(path: path)) { try await keeper.keep(fileAt: path, as: content) }
            #expect(try await keeper.size(of: content) == nil)
        }
        #expect(try await bucket.keys().isEmpty)
    }

    @Test("an import with copies into the bucket commits each photo once stored; check reads them back; moves go both ways")
    func importCheckAndMove() async throws {
        let place = try chosen()
        let session = TransferSession(library: fixture.library)
        try write { _ = try $0.createAlbum(named: "Trip") }
        let sources = ["01-harbour.jpg", "02-market.png", "03-cliffs.webp"].map(ExamplePhotos.path)
        let keeper = try fixture.library.keeperForCopies()
        #expect(keeper.place.id == place.id)
        let report = try await LoadRunner(session: session, keeper: keeper, jobs: 2).load(sources, at: .into("Trip"))
        #expect(report.committed.count == 3 && report.succeeded)
        let photos = try read { try $0.photos() }
        #expect(photos.allSatisfy { $0.content.keptIn == place.id })
        #expect(try await bucket.keys(prefix: "library/").count == 3)
        #expect(try await fixture.library.checkOriginals().isEmpty)
        for photo in photos {
            #expect(try await fixture.library.originalBytes(of: photo) == (try fileBytes(photo.content.sourcePath)))
        }

        // A damaged copy and a missing one are the library's own problems.
        let damaged = try #require(place.objectName(of: photos[0].content))
        try await bucket.put(damaged, bytes: Data(repeating: 1, count: Int(photos[0].content.byteCount)))
        try await bucket.remove(try #require(place.objectName(of: photos[1].content)))
        let problems = try await fixture.library.checkOriginals()
        #expect(problems.map(\.issue) == [.changed, .missing] && problems.allSatisfy(\.isKeptCopy))
        // relink writes both again from the files it finds (the damaged one is the right size: it is replaced all the same).
        let found = fixture.folder.path("found")
        try FileManager.default.createDirectory(atPath: found, withIntermediateDirectories: true)
        for source in sources { try FileManager.default.copyItem(atPath: source, toPath: found + "/" + (source as NSString).lastPathComponent) }
        let (relinked, remaining) = try await fixture.library.relinkSources(searching: [found], recursive: false)
        #expect(remaining.isEmpty && relinked.count == 2 && relinked.allSatisfy(\.restoredCopy))
        #expect(relinked.first?.oldSource == "s3://\(address.name)/\(damaged)")
        #expect(try await fixture.library.checkOriginals().isEmpty)
        #expect(try read { try $0.photos() }.map(\.content.sourcePath) == photos.map(\.content.sourcePath), "the sources stay as they were")

        // Down to a folder, then up again: verified each time, the old copy gone.
        let folder = fixture.folder.path("kept")
        try write { _ = try $0.chooseStoragePlace(.folder(folder)) }
        let down = try await fixture.library.moveOriginals(to: try #require(try fixture.library.currentKeeper()), includingSources: false)
        #expect(down.moved.count == 3 && down.isComplete)
        #expect(try await bucket.keys(prefix: "library/").isEmpty)
        let up = try await fixture.library.moveOriginals(to: try fixture.library.keeperForCopies(), includingSources: false)
        #expect(up.moved.isEmpty, "the folder is current: nothing is elsewhere")
        try write { _ = try $0.chooseStoragePlace(.bucket(address)) }
        let back = try await fixture.library.moveOriginals(to: try #require(try fixture.library.currentKeeper()), includingSources: false)
        #expect(back.moved.count == 3)
        #expect(try await bucket.keys(prefix: "library/").count == 3)
        #expect(try await fixture.library.checkOriginals().isEmpty)
    }

    @Test("a wrong key is one clear line; while the bucket is gone the placeholder waits, and completes once it is back")
    func faults() async throws {
        let place = try chosen()
        let wrong = try #require(BucketKeeper(place: place, credentials: S3Credentials(accessKeyID: "test:tester", secretAccessKey: "wrong")))
        await #expect {
            try await wrong.check()
        } throws: { error in
            let text = (error as? KeepingFailure)?.description ?? ""
            return text.contains("refused the keys") && !text.contains("\n")
        }
        try write { _ = try $0.createAlbum(named: "Trip") }
        try await bucket.delete()
        let keeper = try fixture.library.keeperForCopies()
        let report = try await LoadRunner(session: TransferSession(library: fixture.library), keeper: keeper).load(
            [ExamplePhotos.path("01-harbour.jpg")], at: .into("Trip"))
        #expect(report.committed.isEmpty && report.waiting.count == 1)
        #expect(report.waiting.first?.reason.contains("NoSuchBucket") == true, "\(report.waiting)")
        #expect(try read { try $0.photoCount() } == 0)
        let waiting = try read { try $0.pendingPlaceholders() }
        #expect(waiting.count == 1, "the placeholder keeps its slot")
        try await bucket.create()
        let resumed = try await LoadRunner(session: TransferSession(library: fixture.library), keeper: keeper).resume(waiting)
        #expect(resumed.committed.count == 1 && resumed.succeeded)
        #expect(try await bucket.keys(prefix: "library/").count == 1)
    }

    @Test("the service stopped in the middle of an import: the loads it did not take wait, and all complete once it is back")
    func serviceStopped() async throws {
        let place = try chosen()
        let switchable = SwitchableTransport()
        // Two tries, no waits: the test decides when the service is back, not a clock.
        let keeper = try #require(BucketKeeper(place: place, credentials: server.credentials, transport: switchable, retries: S3Retries(attempts: 2, wait: { _ in })))
        try write { _ = try $0.createAlbum(named: "Trip") }
        let sources = ["01-harbour.jpg", "02-market.png", "03-cliffs.webp", "11-forest.jpg"].map(ExamplePhotos.path)
        // The service stops once the first two uploads are through.
        switchable.stop(afterRequests: 2)  // one PUT each
        let report = try await LoadRunner(session: TransferSession(library: fixture.library), keeper: keeper, jobs: 1).load(sources, at: .into("Trip"))
        #expect(report.committed.count == 2 && report.waiting.count == 2, "\(report.waiting)")
        let waiting = try read { try $0.pendingPlaceholders() }
        #expect(waiting.map(\.index) == [2, 3])
        switchable.start()
        let resumed = try await LoadRunner(session: TransferSession(library: fixture.library), keeper: keeper).resume(waiting)
        #expect(resumed.committed.count == 2 && resumed.succeeded)
        let names = try read { reader in try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo(shownBy: $0)?.content.originalName } }
        #expect(names == ["01-harbour.jpg", "02-market.png", "03-cliffs.webp", "11-forest.jpg"])
        #expect(try await fixture.library.checkOriginals().isEmpty)
    }
}

/// The real server's transport, which a test can stop (every request then
/// finds no one answering) and start again.
final class SwitchableTransport: S3Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var requestsLeft = Int.max
    private let real = HTTPTransport()

    func stop(afterRequests count: Int) { lock.withLock { requestsLeft = count } }
    func start() { lock.withLock { requestsLeft = .max } }

    func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response {
        let up = lock.withLock { () -> Bool in
            guard requestsLeft > 0 else { return false }
            if requestsLeft != .max { requestsLeft -= 1 }
            return true
        }
        guard up else { throw S3TransportFailure(detail: "connection refused (the test stopped the service)") }
        return try await real.send(request)
    }
}
