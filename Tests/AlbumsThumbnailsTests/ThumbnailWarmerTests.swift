import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Foundation
import Synchronization
import Testing

@testable import AlbumsThumbnails

@Suite("Thumbnails made before they are asked for")
struct ThumbnailWarmerTests {
    let fixture: LibraryFixture
    let cache: TemporaryFolder
    let store: ThumbnailStore

    init() throws {
        fixture = try LibraryFixture()
        cache = try TemporaryFolder()
        store = ThumbnailStore(folder: cache.url, jobs: 2)
    }

    /// Adds the example photos `files` to `album` (created if need be), in order.
    @discardableResult
    func add(_ files: [String], to album: String) async throws -> [Photo] {
        var loaded: [PhotoContent] = []
        for file in files { loaded.append(try await FileLoader().load(ExamplePhotos.path(file))) }
        let contents = loaded
        return try await fixture.library.write { writer in
            let albumID = try (try? writer.album(named: album)) ?? writer.createAlbum(named: album)
            let photos = try contents.map { try writer.addPhoto($0).photo }
            try writer.insertPhotos(photos.map(\.id), into: albumID.id)
            return photos
        }
    }

    /// Waits for `condition`, up to `seconds`: only a guard against a hang.
    /// The warmer works at background priority, which a busy machine
    /// starves: with a core-bound process beside the suite on one core, a
    /// thumbnail took minutes (30 s failed both of two loaded runs).
    func eventually(_ seconds: Double = 900, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("every album's photos get the grid's thumbnail, album by album; what arrives meanwhile too; cancelling stops it")
    func warmsEverything() async throws {
        let trip = try await add(["01-harbour.jpg", "02-market.png", "05-sunset.heic"], to: "Trip")
        let book = try await add(["07-scan.tiff"], to: "Book")
        let progress = Mutex(ThumbnailWarmer.Progress())
        let warmer = ThumbnailWarmer(library: fixture.library, store: store)
        let running = Task { await warmer.run { seen in progress.withLock { $0 = seen } } }
        let side = ThumbnailStore.defaultGridSide
        // Its report follows each thumbnail's file: both are awaited.
        #expect(try await eventually { (trip + book).allSatisfy { store.isCached($0, longerSide: side) } && progress.withLock { $0.made } == 4 })

        // Photos that arrive while it runs are warmed as they commit.
        let arrived = try await add(["11-forest.jpg", "10-meadow.webp"], to: "Book")
        #expect(try await eventually { arrived.allSatisfy { store.isCached($0, longerSide: side) } })

        running.cancel()
        await running.value  // it ends once cancelled
        #expect(progress.withLock { $0.failed } == 0)
    }

    @Test("it warms at the side the grid asked for last, and waits while requests come")
    func followsTheGrid() async throws {
        let photos = try await add(["01-harbour.jpg", "03-cliffs.webp"], to: "Trip")
        #expect(!store.isBusy)
        _ = try await store.thumbnail(of: photos[0], longerSide: 384)
        #expect(store.gridSide == 384)
        #expect(store.isBusy, "a request a moment ago")
        _ = try await store.thumbnail(of: photos[0], longerSide: 1536)
        #expect(store.gridSide == 384, "the viewer's large sizes are not the grid's")
        let warmer = Task { await ThumbnailWarmer(library: fixture.library, store: store).run() }
        defer { warmer.cancel() }
        #expect(try await eventually { store.isCached(photos[1], longerSide: 384) })
        #expect(!store.isCached(photos[1], longerSide: ThumbnailStore.defaultGridSide))
    }

    @Test("a photo whose source is gone counts as failed, and the rest are still warmed")
    func missingSources() async throws {
        let folder = try TemporaryFolder()
        let moved = folder.path("harbour.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: moved)
        let content = try await FileLoader().load(moved)
        try FileManager.default.removeItem(atPath: moved)
        _ = try await fixture.library.write { writer in
            let album = try writer.createAlbum(named: "Trip")
            try writer.insertPhotos([try writer.addPhoto(content).photo.id], into: album.id)
        }
        let kept = try await add(["02-market.png"], to: "Trip")
        let progress = Mutex(ThumbnailWarmer.Progress())
        let warmer = Task { await ThumbnailWarmer(library: fixture.library, store: store).run { seen in progress.withLock { $0 = seen } } }
        defer { warmer.cancel() }
        #expect(try await eventually { store.isCached(kept[0], longerSide: ThumbnailStore.defaultGridSide) && progress.withLock { $0.failed } == 1 })
    }
}
