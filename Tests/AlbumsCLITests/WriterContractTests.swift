import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// What every command that writes promises: --expect-revision refuses a
/// stale view and writes nothing, --dry-run reports and writes nothing;
/// and where items land with --before / --after.
@Suite("Every writer: revisions, dry runs, neighbours")
struct WriterContractTests {
    /// Trip: harbour, market, cliffs, sunset; Book: map, scan; one stale
    /// placeholder at the end of Book.
    func makeLibrary() throws -> CLI {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        for (album, files) in [("Trip", ["01-harbour.jpg", "02-market.png", "03-cliffs.webp", "05-sunset.heic"]), ("Book", ["06-map.gif", "07-scan.tiff"])] {
            // One file at a time, so that positions follow the order given.
            for file in files { #expect(try cli.run("import", "\(photos)/\(file)", "--to", album).status == 0) }
        }
        try cli.library().write { writer in
            let gone = LoadOwner(host: ProcessInfo.processInfo.hostName, processID: Int32.max - 5, processStartedAt: nil)
            try writer.insertPlaceholders([PendingLoad(source: "\(photos)/10-meadow.webp", owner: gone, createdAt: Date())], into: try writer.album(named: "Book").id)
        }
        return cli
    }

    func files(_ cli: CLI) throws -> [Data] {
        try [cli.libraryPath, cli.libraryPath + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
    }

    func names(_ cli: CLI, _ album: String) throws -> [String] {
        let listing = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "list", album).stdout.utf8)) as? [String: Any]
        return (listing?["items"] as? [[String: Any]])?.map { ($0["file"] as? String) ?? "placeholder" } ?? []
    }

    /// Every writer that takes --expect-revision, with the album a bare R is about.
    static let writers: [(arguments: [String], album: String)] = [
        (["move", "Trip:1", "--to", "Trip", "--at", "3"], "Trip"),
        (["move", "Trip:1", "--before", "Book:1"], "Book"),
        (["copy", "Book:1", "--to", "Trip"], "Trip"),
        (["copy", "Trip:2", "--after", "Book:1"], "Book"),
        (["swap", "Trip:1", "Trip:2"], "Trip"),
        (["remove", "Trip:1"], "Trip"),
        (["album", "rename", "Trip", "Rome"], "Trip"),
        (["album", "delete", "Trip"], "Trip"),
        (["album", "move", "Trip", "--to", "2"], "Trip"),
        (["album", "lock", "Trip"], "Trip"),
        (["album", "sort", "Trip", "--by", "name", "--descending"], "Trip"),
        (["import", CLI.examplePhotos + "/11-forest.jpg", "--to", "Trip", "--at", "2"], "Trip"),
        (["pending", "cancel"], "Book"),
        (["pending", "resume"], "Book"),
    ]

    @Test("--expect-revision: a stale revision is refused with its code and writes nothing; the current one goes ahead",
        arguments: writers.indices)
    func expectRevision(writer: Int) throws {
        let (arguments, album) = Self.writers[writer]
        let cli = try makeLibrary()
        let revision = try cli.library().read { try $0.album(named: album).revision }
        let before = try files(cli)
        for stale in ["\(revision - 1)", "\(album)=\(revision + 7)"] {
            let refused = try cli.run(["--json"] + arguments + ["--expect-revision", stale])
            #expect(refused.status == 1, "\(arguments) \(stale): \(refused.stderr)")
            #expect(refused.stderr.contains("\"code\":\"revision_mismatch\""), "\(arguments): \(refused.stderr)")
            #expect(try files(cli) == before, "\(arguments) \(stale) wrote to the library")
        }
        let accepted = try cli.run(arguments + ["--expect-revision", "\(revision)"])
        #expect(accepted.status == 0, "\(arguments): \(accepted.stderr)")
    }

    @Test("--dry-run: every writer says what it would do and writes nothing", arguments: writers.indices)
    func dryRun(writer: Int) throws {
        let arguments = Self.writers[writer].arguments
        let cli = try makeLibrary()
        let before = try files(cli)
        let text = try cli.run(arguments + ["--dry-run"])
        #expect(text.status == 0, "\(arguments): \(text.stderr)")
        #expect(!text.stdout.isEmpty)
        let json = try cli.run(["--json"] + arguments + ["--dry-run"])
        #expect(json.status == 0)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(arguments) --json --dry-run: \(json.stdout)")
        #expect(try files(cli) == before, "\(arguments) --dry-run wrote to the library")
    }

    @Test("--dry-run of the writers without revisions: init, album create, apply, export, check --repair")
    func otherDryRuns() throws {
        let cli = try makeLibrary()
        let batch = cli.folder.path("batch.jsonl")
        try Data("{\"op\": \"remove\", \"items\": [\"Trip:1\"], \"expect_revision\": {\"Trip\": 999}}\n".utf8).write(to: URL(fileURLWithPath: batch))
        let before = try files(cli)
        for arguments in [["init", "--dry-run"], ["album", "create", "New", "--dry-run"], ["export", "Trip", cli.folder.path("out"), "--dry-run"],
                          ["check", "--repair", "--dry-run"]] {
            for json in [[], ["--json"]] {
                let result = try cli.run(json + arguments)
                #expect(result.status == 0, "\(json + arguments): \(result.stderr)")
                if !json.isEmpty { #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(arguments): \(result.stdout)") }
            }
        }
        let refused = try cli.run("--json", "apply", batch, "--dry-run")
        #expect(refused.status == 1 && refused.stderr.contains("revision_mismatch") && refused.stderr.contains("line 1"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("out")))
        #expect(try files(cli) == before)
    }

    @Test("--before and --after land next to an item of another album, for move, copy and import")
    func neighbours() throws {
        let cli = try makeLibrary()
        #expect(try cli.run("move", "Trip:1", "--before", "Book:2").status == 0)
        #expect(try names(cli, "Book") == ["06-map.gif", "01-harbour.jpg", "07-scan.tiff", "placeholder"])
        #expect(try cli.run("copy", "Trip:1", "--after", "Book:1").status == 0)
        #expect(try names(cli, "Book") == ["06-map.gif", "02-market.png", "01-harbour.jpg", "07-scan.tiff", "placeholder"])
        #expect(try cli.run("import", CLI.examplePhotos + "/11-forest.jpg", "--after", "Trip:1").status == 0)
        #expect(try names(cli, "Trip") == ["02-market.png", "11-forest.jpg", "03-cliffs.webp", "05-sunset.heic"])
        // A photo id with --from, placed after an item of its own album.
        let harbour = try cli.library().read { try $0.item(at: 2, in: try $0.album(named: "Book").id).photoID! }
        #expect(try cli.run("move", "id:\(harbour.rawValue)", "--from", "Book", "--after", "Book:4").status == 0)
        #expect(try names(cli, "Book") == ["06-map.gif", "02-market.png", "07-scan.tiff", "01-harbour.jpg", "placeholder"])
        #expect(try cli.run("check").status == 0)
    }

    @Test("import with no album: photos enter the library alone, no album changes")
    func importIntoLibrary() throws {
        let cli = try makeLibrary()
        let albumsBefore = try cli.run("--json", "album", "list").stdout
        let result = try cli.run("--json", "import", CLI.examplePhotos + "/11-forest.jpg")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["album"] is NSNull)
        let imported = report?["imported"] as? [[String: Any]]
        #expect(imported?.count == 1 && imported?.first?["position"] is NSNull)
        let photo = imported?.first?["photo_id"] as? Int ?? 0
        #expect(try cli.run("show", "id:\(photo)").stdout.contains("albums     none"))
        #expect(try cli.run("--json", "album", "list").stdout == albumsBefore)
        let refused = try cli.run("import", CLI.examplePhotos + "/01-harbour.jpg", "--expect-revision", "3")
        #expect(refused.status == 64 && refused.stderr.contains("ALBUM=R"), "a bare revision needs an album: \(refused.stderr)")
    }
}

@Suite("The change stream across processes")
struct ChangeStreamProcessTests {
    @Test("a commit by another albums process reaches a library's change stream, as the CLI reported it")
    func externalProcess() async throws {
        let cli = try WriterContractTests().makeLibrary()
        let library = try Library.open(at: cli.libraryPath)
        let stream = try await library.changes(pollingInterval: 0.1)
        let moved = try cli.run("--json", "move", "Trip:1", "--to", "Book", "--at", "1")
        #expect(moved.status == 0, "\(moved.stderr)")
        let renamed = try cli.run("album", "rename", "Trip", "Rome")
        #expect(renamed.status == 0)
        let heard = await first(2, of: stream)
        #expect(heard.count == 2)
        let report = try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [String: Any]
        let printed = (report?["changes"] as? [[String: Any]])?.map { "\($0["album"]!) r\($0["revision"]!) -\($0["removed"]!) +\($0["inserted"]!)" }
        let streamed = heard.first?.changeSets.map { "\($0.albumName) r\($0.revision) -\($0.removed.map { $0 + 1 }) +\($0.inserted.map { $0 + 1 })" }
        #expect(streamed == printed)
        #expect(heard.last?.changeSets.first?.albumEvents == [.renamed] && heard.last?.changeSets.first?.albumName == "Rome")
        #expect(heard.count == 2 && heard[1].sequence > heard[0].sequence)
        try library.close()
    }

    @Test("another process's commit is seen as the write-ahead log changes, long before the periodic read")
    func seenByTheLogWatch() async throws {
        let cli = try WriterContractTests().makeLibrary()
        let library = try Library.open(at: cli.libraryPath)
        // A periodic read every minute and a wait of half that (generous, for
        // a loaded machine): only the log watch can deliver in time.
        let stream = try await library.changes(pollingInterval: 60)
        #expect(try cli.run("move", "Trip:1", "--to", "Book", "--at", "1").status == 0)
        let heard = await first(1, of: stream)
        #expect(heard.count == 1)
        try library.close()
    }
}

@Suite("Usage errors under --json")
struct UsageErrorJSONTests {
    @Test("a usage error is a JSON error object on stderr, exit 64, with --json anywhere before --", arguments: [
        ["--json", "move"], ["move", "--json"], ["--json", "frobnicate"], ["--json", "album", "create"],
        ["--json", "move", "Trip:1", "--at", "2"], ["--json", "list", "--nonsense"],
    ])
    func usageError(arguments: [String]) throws {
        let cli = try CLI()
        let result = try cli.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: [String: String]]
        #expect(object?["error"]?["code"] == "usage", "\(arguments): \(result.stderr)")
        #expect(object?["error"]?["message"]?.isEmpty == false)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath), "a usage error created a library")
    }

    @Test("without --json, a usage error is one line in the CLI's voice, saying where the usage is; --help is no error, and --version a JSON result, under --json")
    func text() throws {
        let cli = try CLI()
        let text = try cli.run("move")
        #expect(text.status == 64 && text.stderr == "albums: missing expected argument '<items> ...'; 'albums move --help' shows the usage\n", "\(text.stderr)")
        #expect(try cli.run("--version").stdout == "0.2.0\n")
        let version = try cli.run("--json", "--version")
        #expect(version.status == 0 && version.stdout == #"{"version":"0.2.0"}"# + "\n")
        #expect(try cli.run("--json", "--help").status == 0)
    }
}
