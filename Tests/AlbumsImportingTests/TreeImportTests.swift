import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Foundation
import Testing

@testable import AlbumsImporting

/// The library side of importing a folder tree: what a killed import left
/// behind is completed in place by the next one.
@Suite("Tree imports")
struct TreeImportTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let root: String

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        root = fixture.folder.path("Trip")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (example, name) in [("01-harbour.jpg", "a.jpg"), ("02-market.png", "b.png")] {
            try FileManager.default.copyItem(atPath: ExamplePhotos.path(example), toPath: root + "/" + name)
        }
    }

    func names() throws -> [String?] {
        try session.read { reader in
            try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo(shownBy: $0)?.content.originalName }
        }
    }

    @Test("an import killed before its loads committed is completed in place by the next one, with nothing twice")
    func killedImportCompletes() async throws {
        let importer = TreeImport(runner: LoadRunner(session: session, jobs: 1))
        _ = try await importer.run(try SourceFolder.read(root), into: nil)
        #expect(try names() == ["a.jpg", "b.png"])

        // A second import, killed after making its placeholders: their owner is gone.
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("03-cliffs.webp"), toPath: root + "/c.webp")
        let dead = LoadOwner(host: ProcessInfo.processInfo.hostName, processID: Int32.max - 7, processStartedAt: nil)
        try await session.write { writer in
            try writer.insertPlaceholders([PendingLoad(source: root + "/c.webp", owner: dead, createdAt: Date())], into: try writer.album(named: "Trip").id)
        }
        // Meanwhile, a photo arranged in front of it.
        try await session.perform(.move([.position(1, in: "Trip")], to: .at(0, in: "Trip")))
        #expect(try names() == ["b.png", "a.jpg", nil])

        let plan = try importer.plan(try SourceFolder.read(root), into: nil)
        #expect(plan.photoCount == 0 && plan.resumed.count == 1)
        let result = try await importer.run(try SourceFolder.read(root), into: nil)
        // Counted by album, not listed: the resumed load is counted in the album it was found in.
        #expect(result.report.committed.isEmpty && result.report.total.committed == 1)
        let trip = try #require(result.plan.nodes.firstIndex { $0.name == "Trip" })
        #expect(result.report.tallies[trip]?.committed == 1)
        #expect(try names() == ["b.png", "a.jpg", "c.webp"])
        await #expect(try session.read { try $0.pendingPlaceholders() }.isEmpty)
        #expect(try session.library.violations() == [])
    }

    @Test("a folder holding photos and folders becomes a folder with an album of its own photos inside, before its folders' albums")
    func photosAndFolders() async throws {
        try FileManager.default.createDirectory(atPath: root + "/Day 2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("03-cliffs.webp"), toPath: root + "/Day 2/c.webp")
        let plan = try TreeImport(runner: LoadRunner(session: session)).plan(try SourceFolder.read(root), into: nil)
        #expect(plan.nodes.map(\.path) == ["Trip", "Trip/Trip", "Trip/Day 2"])
        #expect(plan.nodes.map(\.kind) == [.folder, .album, .album])
        #expect(plan.nodes.map(\.photos.count) == [0, 2, 1])
    }
}
