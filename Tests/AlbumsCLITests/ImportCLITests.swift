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
        // The history counts what came in (what undo takes out), not the 12 files given.
        #expect(try cli.run("history", "--limit", "1").stdout.contains("import 9 files into 'Trip' at position 1"))
        #expect(try cli.run("undo").stdout.hasPrefix("undid #2: import 9 files into 'Trip'"))
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

    @Test("Ctrl-C stops cleanly with status 130: finished loads stay, no placeholder is left, and it says how to finish")
    func interrupt() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let inbox = try cli.largePhotos(300, megabytes: 8)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "1"])
        try await freezeAfterCommits(5, process, cli)
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let stderr = try String(contentsOfFile: cli.folder.path("started.err"), encoding: .utf8)
        #expect(stderr.contains("running the same import again finishes it"), "stderr: \(stderr)")
        let album = try await cli.library().read { try $0.album(named: "Trip") }
        #expect(album.placeholderCount == 0 && album.itemCount >= 5 && album.itemCount < 300)
        #expect(try cli.library().violations() == [])
        // As it says: the same import again brings the rest, after what came in.
        let again = try cli.run("import", inbox, "--to", "Trip")
        #expect(again.status == 0 && again.stdout.contains("\(album.itemCount) already in the album"), "\(again.stdout)")
        #expect(try await tripNames(cli) == (0..<300).map { String(format: "photo-%05d.jpg", $0) })
    }

    @Test("a second Ctrl-C stops at once, during loads; their placeholders stay, recoverable")
    func secondInterrupt() async throws {
        // The second Ctrl-C must land while the load under way still reads:
        // the process was frozen at an unknown point of that load, so on a
        // busy machine it may finish first, and the import end as the first
        // Ctrl-C asked, with nothing left to stop. Then it is tried again.
        for _ in 1...3 {
            let cli = try CLI()
            try cli.run("album", "create", "Trip")
            // Large (sparse) files keep each load busy for a second or more.
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
            #expect(process.terminationStatus == 130)
            let pending = try await cli.library().read { try $0.pendingPlaceholders() }
            guard stderr.contains("left pending, holding") else {
                // The load ended before the second Ctrl-C: the first one's stop, whole.
                #expect(pending.isEmpty, "stderr: \(stderr)")
                continue
            }
            #expect(stderr.contains("albums pending resume, finishes the import"), "stderr: \(stderr)")
            #expect(!pending.isEmpty && pending.allSatisfy(\.isStale))
            #expect(try cli.run("pending", "cancel").status == 0)
            await #expect(try cli.library().read { try $0.album(named: "Trip") }.placeholderCount == 0)
            return
        }
        Issue.record("in three tries, the second Ctrl-C never reached a load still under way")
    }

    @Test("killed at an instant: the file holds, placeholders are stale, resume finishes the import in order")
    func killAndResume() async throws {
        let cli = try CLI()
        _ = try await killedImport(cli)
        let library = try cli.library()
        #expect(try library.violations() == [])
        let pending = try await library.read { try $0.pendingPlaceholders() }
        #expect(!pending.isEmpty && pending.allSatisfy(\.isStale))
        let listed = try cli.run("pending")
        #expect(listed.status == 0 && listed.stdout.contains("stale"))
        let resumed = try cli.run("pending", "resume")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try await tripNames(cli) == (0..<300).map { String(format: "photo-%05d.jpg", $0) })
        await #expect(try library.read { try $0.pendingPlaceholders() }.isEmpty)
    }

    @Test("killed at an instant, then run again as people do: the same import fills its own stale placeholders in place, and the history counts what came in")
    func killAndRunAgain() async throws {
        let cli = try CLI()
        let inbox = try await killedImport(cli)
        let stale = try await cli.library().read { try $0.pendingPlaceholders() }
        #expect(!stale.isEmpty && stale.allSatisfy(\.isStale))
        let committed = 300 - stale.count
        // Loads finish in any order: the first stale slot may stand before some committed ones.
        let first = (stale.map(\.index).min() ?? 0) + 1
        let again = try cli.run("import", inbox, "--to", "Trip")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("imported \(stale.count) files into 'Trip' at positions \(first)–300, \(committed) already in the album"), "\(again.stdout)")
        #expect(try await tripNames(cli) == (0..<300).map { String(format: "photo-%05d.jpg", $0) })
        await #expect(try cli.library().read { try $0.pendingPlaceholders() }.isEmpty)
        let history = try cli.run("history", "--limit", "2").stdout
        // The second run brought nothing new of its own (it filled the first's slots): it leaves no entry to undo.
        #expect(history.contains("import 300 files into 'Trip' at position 1") && !history.contains("import 0 files"), "\(history)")
        #expect(try cli.library().violations() == [])
    }

    @Test("the same folder imported again brings nothing and leaves no history entry: undo takes back the import that did")
    func reimportLeavesNoEntry() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", CLI.examplePhotos, "--to", "Trip").status == 0)
        let again = try cli.run("import", CLI.examplePhotos, "--to", "Trip")
        #expect(again.status == 0 && again.stdout.contains("already in the album"), "\(again.stdout)")
        let history = try cli.run("history").stdout
        #expect(history.components(separatedBy: "import ").count == 2, "\(history)")
        #expect(try cli.run("undo").stdout.hasPrefix("undid #2: import 9 files into 'Trip' at position 1"))
        #expect(try cli.run("list", "Trip").stdout.hasPrefix("Trip: 0 items"))
        #expect(try cli.library().violations() == [])
    }

    /// An import of 300 large files into a new album Trip, killed (SIGKILL)
    /// once 20 have committed; the folder it imported.
    func killedImport(_ cli: CLI) async throws -> String {
        try cli.run("album", "create", "Trip")
        let inbox = try cli.largePhotos(300, megabytes: 8)
        let process = try cli.start(["import", inbox, "--to", "Trip", "--jobs", "2"])
        try await freezeAfterCommits(20, process, cli)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return inbox
    }

    /// The names of Trip's photos, in order.
    func tripNames(_ cli: CLI) async throws -> [String] {
        try await cli.library().read { reader in
            try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo($0.photoID!).content.originalName }
        }
    }

    /// Lets the importer run in short steps, stopped (SIGSTOP) between
    /// them, until it has committed at least `count` loads; it is left
    /// stopped, and checked to have placeholders pending still. Stepped, it
    /// cannot finish unseen however busy the machine (its loads commit
    /// together, many at once, as they end while the one before is written).
    /// The step is slept on this thread: a task's sleep ends when a thread of
    /// the pool is free, which, beside the rest of the suite, can be long
    /// after the importer has finished.
    func freezeAfterCommits(_ count: Int, _ process: Process, _ cli: CLI) async throws {
        for _ in 0..<3000 {
            kill(process.processIdentifier, SIGCONT)
            usleep(10_000)
            kill(process.processIdentifier, SIGSTOP)
            guard let album = try? Self.peek(cli), album.itemCount - album.placeholderCount >= count else { continue }
            #expect(album.placeholderCount > 0, "the import finished before it could be stopped")
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
