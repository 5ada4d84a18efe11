import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@Suite("albums import and albums pending, end to end", .serialized)
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
        let inbox = try cli.largePhotos(300, megabytes: 8)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "1"])
        try await freezeAfterCommits(5, process, cli)
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let album = try await cli.library().read { try $0.album(named: "Trip") }
        #expect(album.placeholderCount == 0 && album.itemCount >= 5 && album.itemCount < 300)
        #expect(try cli.library().violations() == [])
    }

    @Test("a second Ctrl-C stops at once, during loads; their placeholders stay, recoverable")
    func secondInterrupt() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        // Large (sparse) files keep each load busy for a second or more, so the
        // second Ctrl-C surely lands while a load is still under way.
        let inbox = try cli.largePhotos(10, megabytes: 1536)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "1"])
        try await freezeAfterCommits(1, process, cli)
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGCONT)
        // Two signals pending at once merge into one: send the second only
        // once the first has been handled.
        for _ in 0..<1000 {
            if (try? String(contentsOfFile: cli.folder.path("started.err"), encoding: .utf8))?.contains("Ctrl-C again") == true { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: cli.folder.path("started.err"), encoding: .utf8)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("albums pending resume finishes the import"), "stderr: \(stderr)")
        let pending = try await cli.library().read { try $0.pendingPlaceholders() }
        #expect(!pending.isEmpty && pending.allSatisfy(\.isStale))
        #expect(try cli.run("pending", "cancel").status == 0)
        await #expect(try cli.library().read { try $0.album(named: "Trip") }.placeholderCount == 0)
    }

    @Test("killed at an instant: the file holds, placeholders are stale, resume finishes the import in order")
    func killAndResume() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let inbox = try cli.largePhotos(300, megabytes: 8)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "2"])
        try await freezeAfterCommits(20, process, cli)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let library = try cli.library()
        #expect(try library.violations() == [])
        let pending = try await library.read { try $0.pendingPlaceholders() }
        #expect(!pending.isEmpty && pending.allSatisfy(\.isStale))
        let listed = try cli.run("pending")
        #expect(listed.status == 0 && listed.stdout.contains("stale"))
        let resumed = try cli.run("pending", "resume")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let names = try await library.read { reader in
            try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo($0.photoID!).content.originalName }
        }
        #expect(names == (0..<300).map { String(format: "photo-%05d.jpg", $0) })
        await #expect(try library.read { try $0.pendingPlaceholders() }.isEmpty)
    }

    /// Stops (SIGSTOP) the importer once it has committed at least `count`
    /// loads, and checks it still has placeholders pending then.
    func freezeAfterCommits(_ count: Int, _ process: Process, _ cli: CLI) async throws {
        for _ in 0..<3000 {
            try await Task.sleep(for: .milliseconds(5))
            guard let album = try? Self.peek(cli), album.itemCount - album.placeholderCount >= count else { continue }
            kill(process.processIdentifier, SIGSTOP)
            let frozen = try Self.peek(cli)
            #expect(frozen.placeholderCount > 0, "the import finished before it could be stopped")
            return
        }
        Issue.record("the import never committed \(count) loads")
    }

    func waitForPlaceholders(_ count: Int, _ cli: CLI) async throws {
        for _ in 0..<3000 {
            try await Task.sleep(for: .milliseconds(5))
            if let album = try? Self.peek(cli), album.placeholderCount >= count { return }
        }
        Issue.record("the import never inserted its placeholders")
    }

    static func peek(_ cli: CLI) throws -> Album {
        try Library.open(at: cli.libraryPath, options: Library.Options(busyTimeout: 1, allowsConcurrentReads: false))
            .read { try $0.album(named: "Trip") }
    }
}

extension Data {
    func append(toFile path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
