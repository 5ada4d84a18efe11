import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@Suite("albums import and albums pending, end to end")
struct ImportCLITests {
    @Test("importing the example folder: summary, order, duplicates and skips, exit 0")
    func exampleFolder() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let result = try cli.run("import", CLI.examplePhotos, "--to", "Trip")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 9 files into 'Trip' at positions 1–9, 1 already in the album, 2 skipped"))
        #expect(result.stderr.isEmpty)
        let listing = try cli.run("list", "Trip")
        #expect(listing.stdout.split(separator: "\n").count == 10)  // header + 9 items
        #expect(try cli.library().violations() == [])
    }

    @Test("--json prints the report with positions, and a refusal as a JSON error on stderr")
    func json() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let result = try cli.run("--json", "import", CLI.examplePhotos + "/02-market.png", CLI.examplePhotos + "/06-map.gif", "--to", "Trip")
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let imported = object?["imported"] as? [[String: Any]]
        #expect(imported?.compactMap { $0["position"] as? Int } == [1, 2])
        #expect((object?["changes"] as? [[String: Any]])?.first?["inserted"] as? [Int] == [1, 2])
        let refused = try cli.run("--json", "import", CLI.examplePhotos, "--to", "Nowhere")
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        let error = try JSONSerialization.jsonObject(with: Data(refused.stderr.utf8)) as? [String: [String: String]]
        #expect(error?["error"]?["code"] == "album_not_found")
    }

    @Test("a failed load makes exit 1 and names the file on stderr; the rest is imported")
    func failedLoad() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let broken = cli.folder.path("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: broken))
        let result = try cli.run("import", broken, CLI.examplePhotos + "/01-harbour.jpg", "--to", "Trip")
        #expect(result.status == 1)
        #expect(result.stderr.contains("failed   \(broken): damaged JPEG"))
        #expect(try cli.library().read { try $0.album(named: "Trip") }.itemCount == 1)
    }

    @Test("Ctrl-C stops cleanly: finished loads stay, no placeholder is left")
    func interrupt() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let inbox = try cli.manyPhotos(3000)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "1"])
        try await waitForSomeCommits(cli)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let album = try cli.library().read { try $0.album(named: "Trip") }
        #expect(album.placeholderCount == 0 && album.itemCount > 0 && album.itemCount < 3000)
        #expect(try cli.library().violations() == [])
    }

    @Test("killed at an instant: the file holds, placeholders are stale, resume finishes the import in order")
    func killAndResume() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let inbox = try cli.manyPhotos(1500)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "2"])
        try await waitForSomeCommits(cli)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let library = try cli.library()
        #expect(try library.violations() == [])
        let pending = try library.read { try $0.pendingPlaceholders() }
        #expect(!pending.isEmpty && pending.allSatisfy(\.isStale))
        let listed = try cli.run("pending")
        #expect(listed.status == 0 && listed.stdout.contains("stale"))
        let resumed = try cli.run("pending", "resume")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let names = try library.read { reader in
            try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo($0.photoID!).content.originalName }
        }
        #expect(names == (0..<1500).map { String(format: "photo-%05d.jpg", $0) })
        #expect(try library.read { try $0.pendingPlaceholders() }.isEmpty)
    }

    /// Waits until the importer has committed some loads and not all.
    func waitForSomeCommits(_ cli: CLI) async throws {
        for _ in 0..<2000 {
            try await Task.sleep(for: .milliseconds(5))
            guard FileManager.default.fileExists(atPath: cli.libraryPath) else { continue }
            let album = try? Library.open(at: cli.libraryPath, options: Library.Options(busyTimeout: 1, allowsConcurrentReads: false))
                .read { try $0.album(named: "Trip") }
            if let album, album.placeholderCount > 0, album.itemCount - album.placeholderCount >= 20 { return }
        }
        Issue.record("the import never got going")
    }
}
