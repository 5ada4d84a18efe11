import AlbumsTestSupport
@testable import AlbumsPersistence
import Foundation
import Testing

/// Only commands that write create a library; a library on
/// read-only media can be read by every reading command.
@Suite("Which commands create a library, and read-only libraries", .serialized)
struct LibraryAccessTests {
    /// Every command that only reads, dry runs included.
    static let reads: [[String]] = [
        ["list", "Trip"], ["album", "list"], ["show", "Trip:1"], ["check"], ["pending"], ["pending", "list"],
        ["export", "Trip", "out"], ["album", "create", "New", "--dry-run"], ["move", "Trip:1", "--to", "Trip", "--at", "1", "--dry-run"],
        ["check", "--repair", "--dry-run"],
    ]

    @Test("a read of a missing library fails with exit 74, says how to make one, and leaves no file", arguments: reads)
    func readsNeverCreate(_ command: [String]) throws {
        let cli = try CLI()
        let path = cli.folder.path("typo.albums")
        let result = try cli.run(["--library", path] + command)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("no library at '\(path)'") && result.stderr.contains("albums init"))
        let left = try cli.folder.fileNames()
        #expect(left.isEmpty, "left \(left)")
        let json = try cli.run(["--json", "--library", path] + command)
        #expect(json.stderr.contains(#""code":"no_library""#) || json.stderr.contains(#""code" : "no_library""#), "\(json.stderr)")
    }

    /// Commands that change what a library holds: with no library there is nothing to change.
    static let changes: [[String]] = [
        ["move", "A:1", "--to", "B"], ["copy", "A:1", "--to", "B"], ["remove", "A:1"], ["undo"], ["redo"],
        ["album", "lock", "A"], ["album", "rename", "A", "B"], ["album", "delete", "A"], ["folder", "delete", "F"],
        ["pending", "resume"], ["pending", "cancel", "1"], ["relink", "."], ["user", "passwd", "ana"],
    ]

    @Test("a change to a missing library fails with exit 74 and leaves no file", arguments: changes)
    func changesNeverCreate(_ command: [String]) throws {
        let cli = try CLI()
        let path = cli.folder.path("typo.albums")
        let result = try cli.run(["--library", path] + command)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("no library at '\(path)'"), "\(result.stderr)")
        let left = try cli.folder.fileNames()
        #expect(left.isEmpty, "left \(left)")
    }

    /// Commands that make something from nothing, each failing after the
    /// library is made, with what they read on standard input.
    static let failedCreations: [(command: [String], input: String)] = [
        (["album", "create", "Trip", "--into", "Nowhere"], ""), (["folder", "create", "Nowhere/Trip"], ""),
        (["import", CLI.examplePhotos, "--to", "Nowhere"], ""), (["apply", "-"], #"{"op": "move", "items": ["Nowhere:1"], "to": "Trip"}"# + "\n"),
        (["user", "add", "ana"], ""),
    ]

    @Test("a command that creates a library and then fails leaves no file, nor the folder it made", arguments: failedCreations)
    func failedCreationLeavesNothing(_ command: [String], input: String) throws {
        let cli = try CLI()
        let stdin = try TemporaryFolder()
        let inputPath = stdin.path("input")
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath))
        func run(_ commandLine: [String]) throws -> CLI.Result {
            try cli.runExecutable(commandLine, input: try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath)))
        }
        let path = cli.folder.path("typo.albums")
        let result = try run([CLI.binary.path, "--library", path] + command)
        #expect(result.status != 0, "\(result.stdout)")
        let left = try cli.folder.fileNames()
        #expect(left.isEmpty, "left \(left)")
        // The default library's folder, made for it, goes too.
        let home = cli.folder.path("data")
        let byDefault = try run(["/usr/bin/env", "-u", "ALBUMS_LIBRARY", "XDG_DATA_HOME=\(home)", CLI.binary.path] + command)
        #expect(byDefault.status == result.status, "\(byDefault.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/albums"), "\((try? cli.folder.fileNames()) ?? [])")
        // So do folders made for a --library given in folders that did not exist.
        let nested = try run([CLI.binary.path, "--library", cli.folder.path("new/deeper/typo.albums")] + command)
        #expect(nested.status == result.status, "\(nested.stderr)")
        #expect(try cli.folder.fileNames().filter { $0 != "data" }.isEmpty)
    }

    @Test("a command that creates a library makes the folders it is given in; a first import or init leaves no -wal or -shm beside it")
    func createdWhereGiven() throws {
        let cli = try CLI()
        let nested = cli.folder.path("photos/2026/library.albums")
        let made = try cli.run("--library", nested, "init")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("photos/2026")) == ["library.albums"])
        let imported = try cli.run("--library", cli.folder.path("first/library.albums"), "import", CLI.examplePhotos)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("first")) == ["library.albums"])
        #expect(try cli.run("--library", cli.folder.path("nowhere/library.albums"), "list", "Trip").status == 74, "a read makes no folder")
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("nowhere")))
    }

    @Test("a created library stays when its command succeeds, or when something was made in it before the failure")
    func createdLibraryStays() throws {
        let cli = try CLI()
        let path = cli.folder.path("new.albums")
        #expect(try cli.run("--library", path, "album", "create", "Trip").status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        // An import whose destination is refused after the library existed before it: the library stays.
        #expect(try cli.run("--library", path, "import", CLI.examplePhotos, "--to", "Nowhere").status == 1)
        #expect(try cli.run("--library", path, "album", "list").stdout.contains("Trip"))
        // A zero-byte file given to a failing creation is left with zero bytes.
        let empty = cli.folder.path("empty.albums")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try cli.run("--library", empty, "album", "create", " ").status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
        #expect(try cli.folder.fileNames() == ["empty.albums", "new.albums"])
    }

    @Test("a read of a zero-byte file fails and leaves it as it was; a write makes a library in it")
    func zeroByteFile() throws {
        let cli = try CLI()
        let path = cli.folder.path("empty.albums")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(try cli.run("--library", path, "album", "list").status == 74)
        #expect(try cli.folder.fileNames() == ["empty.albums"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        #expect(try cli.run("--library", path, "album", "create", "Trip").status == 0)
        #expect(try cli.run("--library", path, "album", "list").status == 0)
    }

    @Test("a library named by a bare one-letter path, in the working folder, is made, read, written and backed up")
    func oneLetterPath() throws {
        // Foundation's deletingLastPathComponent traps on such a path.
        let cli = try CLI()
        #expect(try cli.run("--library", "L", "album", "create", "Trip").status == 0)
        #expect(try cli.run("--library", "L", "import", CLI.examplePhotos, "--to", "Trip").status == 0)
        let listed = try cli.run("--library", "L", "album", "list")
        #expect(listed.status == 0 && listed.stdout.contains("Trip"), "\(listed.stderr)")
        #expect(try cli.run("--library", "L", "move", "Trip:1", "--to", "Trip").status == 0)
        #expect(try cli.run("--library", "L", "backup", "B").status == 0)
        #expect(try cli.run("--library", "B", "check").status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.folder.path("L")) && FileManager.default.fileExists(atPath: cli.folder.path("B")))
    }

    @Test("a device or a folder is never a library, and nothing is written beside it")
    func notAFile() throws {
        let cli = try CLI()
        for arguments in [["album", "list"], ["album", "create", "Trip"]] {
            let device = try cli.run(["--library", "/dev/null"] + arguments)
            #expect(device.status == 65 && device.stderr.contains("is a device, not a file"), "\(device.stderr)")
            let folder = try cli.run(["--library", cli.folder.url.path] + arguments)
            #expect(folder.status == 65 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal") && !FileManager.default.fileExists(atPath: "/dev/null-wal"))
        #expect(try cli.folder.fileNames().isEmpty)
    }

    @Test("a library in a read-only folder is read by every reading command; writes fail with 74; the folder is left as it was")
    func readOnlyFolder() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", CLI.examplePhotos, "--to", "Trip").status == 0)
        let before = try cli.folder.fileNames()
        #expect(before == ["library.albums"])
        // Root ignores permissions: the reads then run as nobody, who cannot write the folder.
        #expect(chmod(cli.folder.url.path, 0o555) == 0)
        defer { chmod(cli.folder.url.path, 0o755) }
        let asSomeoneElse = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] : [CLI.binary.path]
        func run(_ arguments: [String]) throws -> CLI.Result {
            try cli.runExecutable(asSomeoneElse + ["--library", cli.libraryPath] + arguments)
        }
        for command in [["album", "list"], ["list", "Trip"], ["show", "Trip:1"], ["check"], ["pending"], ["--json", "list", "Trip"]] {
            let result = try run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try run(["list", "Trip"]).stdout.contains("01-harbour.jpg"))
        for command in [["album", "create", "Book"], ["move", "Trip:1", "--to", "Trip", "--at", "2"], ["import", CLI.examplePhotos, "--to", "Trip"]] {
            let result = try run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot be written"), "\(command): \(result.stderr)")
        }
        // One operation's dry run is its proposal: reads only, for items, albums and folders.
        // A batch's rolls back a real write, and says in one line why it cannot here.
        let planned = try run(["move", "Trip:1", "--to", "Trip", "--at", "2", "--dry-run"])
        #expect(planned.status == 0 && planned.stdout.hasPrefix("would move 1 item"), "\(planned.stderr)")
        let renamed = try run(["album", "rename", "Trip", "Book", "--dry-run"])
        #expect(renamed.status == 0 && renamed.stdout.hasPrefix("dry run, nothing written: renamed 'Trip' to 'Book'"), "\(renamed.stdout) \(renamed.stderr)")
        let created = try run(["album", "create", "Book", "--dry-run"])
        #expect(created.status == 0 && created.stdout.hasPrefix("would create album 'Book' at position 2"), "\(created.stdout) \(created.stderr)")
        let folder = try run(["folder", "create", "Travel", "--dry-run"])
        #expect(folder.status == 0, "\(folder.stdout) \(folder.stderr)")
        let refused = try run(["album", "rename", "Trip", "", "--dry-run"])
        #expect(refused.status != 0 && refused.status != 74 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        try Data(#"{"op": "move", "items": ["Trip:1"], "to": "Trip", "at": 2}"#.utf8).write(to: URL(fileURLWithPath: "/tmp/albums-readonly-\(getpid()).jsonl"))
        defer { unlink("/tmp/albums-readonly-\(getpid()).jsonl") }
        for command in [["apply", "/tmp/albums-readonly-\(getpid()).jsonl", "--dry-run"], ["undo", "--dry-run"]] {
            let result = try run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot be written") && result.stderr.contains("dry run of"), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(command): \(result.stderr)")
        }
        #expect(try cli.folder.fileNames() == before)
    }

    @Test("what an upgrade did is said once, by the next command that may write, as text or JSON")
    func upgradeNotes() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        // As migration 0004 leaves it after renaming an album.
        let library = try cli.library()
        try library.database.write { try $0.execute(sql: "INSERT INTO upgrade_note (note) VALUES (?)", arguments: ["renamed album 'id' to 'id (album)'"]) }
        try library.close()
        let first = try cli.run("--json", "album", "list")
        #expect(first.status == 0)
        #expect(first.stderr == #"{"note":"renamed album 'id' to 'id (album)'"}"# + "\n")
        let second = try cli.run("album", "list")
        #expect(second.stderr.isEmpty)
    }
}
