import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// Every command end to end, and a table of bad inputs: each gives its
/// documented exit status, one line on stderr, and leaves the library as it was.
@Suite("The albums command line", .serialized)
struct CommandLineTests {
    /// A library with two albums of example photos: Trip (4 items), Book (2).
    func makeLibrary() throws -> CLI {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "\(photos)/03-cliffs.webp", "\(photos)/05-sunset.heic", "--to", "Trip").status == 0)
        #expect(try cli.run("import", "\(photos)/06-map.gif", "\(photos)/07-scan.tiff", "--to", "Book").status == 0)
        return cli
    }

    func files(_ cli: CLI) throws -> [Data] {
        try [cli.libraryPath, cli.libraryPath + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
    }

    @Test("each command's success path, in text and JSON")
    func successPaths() throws {
        let cli = try makeLibrary()
        #expect(try cli.run("move", "Trip:4", "--to", "Trip", "--at", "1").stdout.contains("Trip (revision"))
        let moved = try cli.run("--json", "move", "Trip:1", "--to", "Book", "--at", "2")
        let json = try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [String: Any]
        let changes = json?["changes"] as? [[String: Any]]
        #expect(changes?.compactMap { $0["album"] as? String }.sorted() == ["Book", "Trip"])
        #expect(changes?.first { $0["album"] as? String == "Book" }?["inserted"] as? [Int] == [2])
        #expect(try cli.run("copy", "Book:1", "--to", "Trip").status == 0)
        #expect(try cli.run("swap", "Trip:1", "Trip:2").status == 0)
        #expect(try cli.run("remove", "Trip:1").status == 0)
        #expect(try cli.run("album", "sort", "Trip", "--by", "name").status == 0)
        #expect(try cli.run("album", "rename", "Book", "Photo book").status == 0)
        #expect(try cli.run("album", "move", "Photo book", "--to", "1").status == 0)
        let albums = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "album", "list").stdout.utf8)) as? [String: [[String: Any]]]
        #expect(albums?["albums"]?.map { $0["name"] as? String } == ["Photo book", "Trip"])
        let keys = Set(albums?["albums"]?.first?.keys.map { $0 } ?? [])
        #expect(keys.isSuperset(of: ["name", "position", "count", "pending", "revision", "locked"]))
        let listing = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "list", "Trip").stdout.utf8)) as? [String: Any]
        #expect((listing?["album"] as? [String: Any])?["revision"] as? Int != nil)
        let items = listing?["items"] as? [[String: Any]]
        #expect(items?.map { $0["position"] as? Int } == [1, 2, 3])
        #expect(items?.allSatisfy { $0.keys.contains("photo_id") && $0.keys.contains("placeholder_id") } == true)
        #expect(try cli.run("show", "Trip:1").stdout.contains("sha256"))
        // JSON says what the text says: file, type, size, dates, source and SHA-256 (of harbour, wherever it stands now).
        let trip = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "list", "Trip").stdout.utf8)) as? [String: Any]
        let harbour = try #require((trip?["items"] as? [[String: Any]])?.first { $0["file"] as? String == "01-harbour.jpg" })
        let (position, id) = (try #require(harbour["position"] as? Int), try #require(harbour["photo_id"] as? Int))
        for reference in ["Trip:\(position)", "id:\(id)"] {
            let shown = try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "show", reference).stdout.utf8)) as? [String: Any]
            let photo = try #require(shown?["photo"] as? [String: Any], "\(reference)")
            #expect(photo["file"] as? String == "01-harbour.jpg" && photo["media_type"] as? String == "image/jpeg")
            #expect(photo["display_width"] as? Int == 640 && photo["byte_count"] as? Int != nil && photo["imported_at"] as? String != nil)
            #expect(photo["captured_at"] as? String == "2026-07-14T09:12:00+02:00" && (photo["sha256"] as? String)?.count == 64)
            #expect((photo["source"] as? String)?.hasSuffix("01-harbour.jpg") == true && photo["albums"] as? [String] == ["Trip"])
        }
        let dryRun = try cli.run("remove", "Trip:1", "--dry-run")
        #expect(dryRun.stdout.hasPrefix("would remove 1 item"), "\(dryRun.stdout)")
        #expect(try cli.run("list", "Trip").stdout.split(separator: "\n").count == 4)  // header + 3, the dry run wrote nothing
        let batch = cli.folder.path("batch.jsonl")
        try Data("{\"op\": \"move\", \"items\": [\"Trip:1\"], \"to\": \"Photo book\"}\n{\"op\": \"remove\", \"items\": [\"Trip:1\"]}\n".utf8)
            .write(to: URL(fileURLWithPath: batch))
        #expect(try cli.run("apply", batch).stdout.hasPrefix("applied 2 operations in one transaction"))
        #expect(try cli.run("export", "Trip", cli.folder.path("out")).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.folder.path("out/manifest.json")))
        #expect(try cli.run("inspect").stdout.contains("albums library"))
        // The longest label still stands apart from its answer.
        let full = try cli.run("inspect", "--full").stdout
        #expect(full.contains("integrity check ok") && full.contains("\nquick check") == false, "\(full)")
        #expect(try cli.run("inspect").stdout.contains("\nquick check   ok"))
        #expect(try cli.run("check").stdout.contains("every invariant holds"))
        #expect(try cli.run("album", "lock", "Trip").status == 0)
        #expect(try cli.run("album", "unlock", "Trip").status == 0)
        #expect(try cli.run("album", "delete", "Trip").status == 0)
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { "albums " + arguments.joined(separator: " ") }
    }

    static let badInputs: [BadInput] = [
        BadInput(arguments: ["list", "Nope"], status: 1, message: "no album named 'Nope'"),
        BadInput(arguments: ["move", "Trip:9", "--to", "Book"], status: 1, message: "valid positions are 1…4"),
        BadInput(arguments: ["move", "Trip:1", "--to", "Book", "--at", "9"], status: 1, message: "valid positions are 1…3"),
        BadInput(arguments: ["move", "Trip:0", "--to", "Book"], status: 64, message: "positions start at 1"),
        BadInput(arguments: ["move", "Trip", "--to", "Book"], status: 64, message: "expected ALBUM:N"),
        BadInput(arguments: ["move", "Trip:2-1", "--to", "Book"], status: 64, message: "runs backwards"),
        BadInput(arguments: ["move", "Trip:1"], status: 64, message: "say where the items go"),
        BadInput(arguments: ["move", "Trip:1", "Trip:1", "--to", "Book"], status: 1, message: "named more than once"),
        BadInput(arguments: ["swap", "Trip:1", "Trip:1"], status: 1, message: "named more than once"),
        BadInput(arguments: ["album", "create", ""], status: 1, message: "a name cannot be empty"),
        BadInput(arguments: ["album", "create", "tab\there"], status: 1, message: "control characters"),
        BadInput(arguments: ["album", "create", "Trip"], status: 1, message: "already exists"),
        BadInput(arguments: ["remove", "Trip:1", "--expect-revision", "1"], status: 1, message: "not 1: it changed since"),
        BadInput(arguments: ["remove", "Trip:1", "--expect-revision", "x"], status: 64, message: "--expect-revision takes"),
        BadInput(arguments: ["move", "Vault:1", "--to", "Trip"], status: 1, message: "albums album unlock Vault"),
        BadInput(arguments: ["copy", "Trip:1", "--to", "Vault"], status: 1, message: "albums album unlock Vault"),
        BadInput(arguments: ["copy", "Trip:1", "--to", "Trip"], status: 1, message: "is already in album 'Trip'"),
        BadInput(arguments: ["apply", "/nonexistent/batch.jsonl"], status: 74, message: "no such file"),
        BadInput(arguments: ["import", "/nonexistent/photo.jpg", "--to", "Nowhere"], status: 1, message: "no album named 'Nowhere'"),
        BadInput(arguments: ["album", "move", "Trip", "--to", "9"], status: 1, message: "valid positions are 1…3"),
        BadInput(arguments: ["album", "delete", "Nope"], status: 1, message: "no album named 'Nope'"),
        BadInput(arguments: ["show", "id:999"], status: 1, message: "no photo with id 999"),
        BadInput(arguments: ["pending", "cancel", "999"], status: 1, message: "no pending placeholder with id 999"),
        BadInput(arguments: ["export", "Nope", "/tmp/never"], status: 1, message: "no album named 'Nope'"),
    ]

    @Test("bad inputs: documented exit status, one line on stderr, the library unchanged", arguments: badInputs)
    func badInput(_ input: BadInput) throws {
        let cli = try makeLibrary()
        try cli.run("album", "create", "Vault")
        try cli.run("import", "\(CLI.examplePhotos)/11-forest.jpg", "--to", "Vault")
        try cli.run("album", "lock", "Vault")
        let before = try files(cli)
        let result = try cli.run(input.arguments)
        #expect(result.status == input.status, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(input.message), "stderr: \(result.stderr)")
        if input.status != 64 {  // usage errors print argument-parser's usage lines
            #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
        }
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(try files(cli) == before, "the library changed")
    }

    @Test("a malformed batch names its line and applies nothing")
    func malformedBatch() throws {
        let cli = try makeLibrary()
        let before = try files(cli)
        let batch = cli.folder.path("bad.jsonl")
        try Data("{\"op\": \"remove\", \"items\": [\"Trip:1\"]}\n{\"op\": \"move\", \"items\": [\"Trip:1\"]\n".utf8).write(to: URL(fileURLWithPath: batch))
        let result = try cli.run("apply", batch)
        #expect(result.status == 64 && result.stderr.contains("line 2: not valid JSON"))
        let refused = cli.folder.path("refused.jsonl")
        try Data("{\"op\": \"remove\", \"items\": [\"Trip:1\"]}\n{\"op\": \"remove\", \"items\": [\"Trip:9\"]}\n".utf8).write(to: URL(fileURLWithPath: refused))
        let second = try cli.run("--json", "apply", refused)
        #expect(second.status == 1 && second.stderr.contains("\"code\":\"position_out_of_range\""))
        #expect(try files(cli) == before)
    }

    @Test("files that are not usable libraries: exit 65, named, untouched", arguments: ["text", "foreign", "newer", "foreign-id"])
    func unusableFiles(kind: String) throws {
        let cli = try CLI()
        let path = cli.libraryPath
        switch kind {
        case "text":
            try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        case "foreign":
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "CREATE TABLE invoice (total REAL)") }
            try queue.close()
        case "foreign-id":
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "PRAGMA application_id = 1234; CREATE TABLE t (x)") }
            try queue.close()
        default:
            try cli.run("init")
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 99") }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try cli.run("album", "list")
        #expect(result.status == 65, "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try cli.folder.fileNames() == ["library.albums"])
        // inspect explains it without writing (a non-SQLite file is refused: 65).
        let inspected = try cli.run("inspect")
        #expect(kind == "text" ? inspected.status == 65 : inspected.stdout.contains("identity"))
        #expect(try cli.folder.fileNames() == ["library.albums"])
    }

    @Test("check names each violation and exits 1; --repair fixes counters and says so; stale placeholders are notes")
    func checkAndRepair() throws {
        let cli = try makeLibrary()
        #expect(try cli.run("check").status == 0)
        let queue = try DatabaseQueue(path: cli.libraryPath)
        try queue.write { db in
            try db.execute(sql: "UPDATE album SET item_count = item_count + 5 WHERE name = 'Trip'")
            try db.execute(sql: "UPDATE album_segment SET item_count = item_count + 1")
        }
        try queue.close()
        let broken = try cli.run("check")
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("violation album_count_mismatch: album 'Trip' counts 9 items"))
        #expect(broken.stderr.contains("violation segment_count_mismatch"))
        let dry = try cli.run("check", "--repair", "--dry-run")
        #expect(dry.status == 1 && dry.stdout.contains("would repair"))
        let repaired = try cli.run("check", "--repair")
        #expect(repaired.status == 0 && repaired.stdout.contains("repaired") && repaired.stdout.contains("every invariant holds"), "\(repaired.stdout)")
        // A stale placeholder is a note, not a violation.
        try cli.library().write { writer in
            let dead = LoadOwner(host: ProcessInfo.processInfo.hostName, processID: Int32.max - 3, processStartedAt: nil)
            try writer.insertPlaceholders([PendingLoad(source: "/gone.jpg", owner: dead, createdAt: Timestamp.date("2026-11-20T00:00:00.000Z"))], into: try writer.album(named: "Trip").id)
        }
        let noted = try cli.run("check")
        #expect(noted.status == 0 && noted.stdout.contains("note      stale placeholder"))
    }

    /// Marks a file or folder immutable (chattr +i), which even root cannot
    /// write; false where the file system or the user cannot.
    static func setImmutable(_ path: String, _ on: Bool) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [on ? "+i" : "-i", path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("a read-only library: reads work, writes exit 74 and change nothing; inspect works in a read-only folder")
    func readOnlyLibrary() throws {
        let cli = try makeLibrary()
        let library = cli.libraryPath
        guard Self.setImmutable(library, true) else {
            Issue.record("chattr +i is not available here")
            return
        }
        defer { _ = Self.setImmutable(library, false) }
        let before = try Data(contentsOf: URL(fileURLWithPath: library))
        let listed = try cli.run("list", "Trip")
        #expect(listed.status == 0 && listed.stdout.contains("01-harbour.jpg"))
        let refused = try cli.run("album", "create", "New")
        #expect(refused.status == 74)
        #expect(refused.stderr == "albums: '\(library)' cannot be written (read-only file, folder or medium)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == before)

        // In a folder nothing can be created in, inspect still explains the file.
        let sealed = cli.folder.path("sealed")
        try FileManager.default.createDirectory(atPath: sealed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/manifest.json", toPath: sealed + "/not-a-db.json")
        let copy = sealed + "/copy.albums"
        _ = Self.setImmutable(library, false)
        try FileManager.default.copyItem(atPath: library, toPath: copy)
        guard Self.setImmutable(sealed, true) else { return }
        defer { _ = Self.setImmutable(sealed, false) }
        let inspected = try cli.run("inspect", copy)
        #expect(inspected.status == 0 && inspected.stdout.contains("albums library"), "\(inspected.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sealed).sorted() == ["copy.albums", "not-a-db.json"])
    }

    @Test("--json output of every reading command parses")
    func jsonEverywhere() throws {
        let cli = try makeLibrary()
        for arguments in [["album", "list"], ["list", "Trip"], ["show", "Trip:1"], ["show", "id:1"], ["pending"], ["inspect"], ["check"],
                          ["init"], ["export", "Trip", cli.folder.path("json-export")], ["remove", "Trip:1", "--dry-run"], ["album", "sort", "Trip", "--by", "name"]] {
            let result = try cli.run(["--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(arguments) printed no JSON: \(result.stdout)")
        }
    }

    @Test("albums --help and every command's --help explain themselves, with examples")
    func help() throws {
        let cli = try CLI()
        let top = try cli.run("--help")
        for command in ["init", "album", "list", "show", "import", "move", "copy", "swap", "remove", "apply", "pending", "export", "inspect", "check"] {
            #expect(top.stdout.contains("  \(command) "), "\(command) missing from albums --help")
        }
        for command in [["import"], ["move"], ["copy"], ["swap"], ["remove"], ["apply"], ["export"], ["inspect"], ["check"], ["album", "sort"], ["list"]] {
            let help = try cli.run(command + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("Example"), "\(command) --help has no example")
        }
        #expect(try cli.run("--generate-completion-script", "bash").stdout.contains("albums"))
        // Where the photos live is said where a newcomer reads: the library keeps no copy.
        #expect(try cli.run("import", "--help").stdout.contains("keeps no copy"))
        // A default is said once, by ArgumentParser.
        let photos = try cli.run("photos", "--help").stdout
        #expect(photos.components(separatedBy: "default").count - 1 == photos.components(separatedBy: "(default: ").count - 1, "\(photos)")
    }
}
