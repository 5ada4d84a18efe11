import AlbumsTestSupport
import Foundation
import Testing

/// `albums storage` and `import --copy`, run as a user would: copies kept
/// beside the library, a card wiped, and the library still whole.
@Suite("storage and import --copy", .serialized)
struct StorageCommandTests {
    func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    /// A camera card of three example photos.
    func card(in cli: CLI) throws -> String {
        let card = cli.folder.path("card/DCIM")
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        for name in ["01-harbour.jpg", "02-market.png", "03-cliffs.webp"] {
            try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/" + name, toPath: card + "/" + name)
        }
        return card
    }

    @Test("import --copy keeps the files beside the library; the card wiped, show, check --files and export still have them")
    func copyThenWipe() throws {
        let cli = try CLI()
        let card = try card(in: cli)
        try cli.run("album", "create", "Holidays")
        let before = try cli.run("storage")
        #expect(before.status == 0 && before.stdout.contains("kept nowhere") && before.stdout.contains("library-originals"))

        let dry = try cli.run("import", card, "--to", "Holidays", "--copy", "--dry-run")
        #expect(dry.status == 0 && dry.stderr.contains("would keep a copy of each in folder"))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("library-originals")), "a dry run chooses nothing")

        let imported = try cli.run("import", card, "--to", "Holidays", "--copy")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("copy is kept in folder \(cli.folder.path("library-originals"))"))
        try FileManager.default.removeItem(atPath: cli.folder.path("card"))

        let shown = try cli.run("show", "Holidays:1")
        #expect(shown.stdout.contains("kept       \(cli.folder.path("library-originals"))/"), "\(shown.stdout)")
        let shownJSON = try json(try cli.run("--json", "show", "Holidays:2"))
        let kept = try #require(shownJSON["kept_copy"] as? [String: Any])
        #expect(kept["place"] as? String == "folder" && (kept["location"] as? String)?.hasPrefix(cli.folder.path("library-originals")) == true)

        let checked = try cli.run("check", "--files")
        #expect(checked.status == 0 && checked.stdout.contains("every original holds its photo's bytes (3 kept copies)"), "\(checked.stdout)")
        let exported = try cli.run("export", "Holidays", cli.folder.path("book"))
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("book")).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") || $0.hasSuffix(".webp") }.count == 3)

        let storage = try json(try cli.run("--json", "storage"))
        let current = try #require(storage["current"] as? [String: Any])
        #expect(current["kind"] as? String == "folder" && current["photos"] as? Int == 3 && storage["referenced"] as? Int == 0)
    }

    @Test("a Live Photo's motion is kept with its still: the card wiped, check --files and export still have it, storage move takes it, and a damaged kept motion is named")
    func livePhotoKept() throws {
        let cli = try CLI()
        let card = cli.folder.path("card/DCIM")
        try cli.copyExample("01-harbour.jpg", to: card + "/IMG_0042.JPG")
        try cli.writeMovie(to: card + "/IMG_0042.MOV", milliseconds: 1_500)
        let movie = try Data(contentsOf: URL(fileURLWithPath: card + "/IMG_0042.MOV"))
        try cli.run("album", "create", "Live")
        let imported = try cli.run("import", card, "--to", "Live", "--copy")
        #expect(imported.status == 0 && imported.stdout.contains("imported 1 file"), "\(imported.stdout) \(imported.stderr)")
        try FileManager.default.removeItem(atPath: cli.folder.path("card"))

        let checked = try cli.run("check", "--files")
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(try cli.run("export", "Live", cli.folder.path("book")).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.folder.path("book/001-IMG_0042.MOV"))) == movie)

        try cli.run("storage", "folder", cli.folder.path("moved"))
        let moved = try cli.run("storage", "move")
        #expect(moved.status == 0 && moved.stdout.contains("moved 1 copy"), "\(moved.stdout) \(moved.stderr)")
        // The motion (an MP4 by its bytes) kept beside its still under its own digest; nothing left in the old place.
        let keptMotions = try FileManager.default.subpathsOfDirectory(atPath: cli.folder.path("moved")).filter { $0.hasSuffix(".mp4") }
        #expect(keptMotions.count == 1, "the motion kept beside its still: \(keptMotions)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: cli.folder.path("library-originals")).filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".jpg") }.isEmpty)
        #expect(try cli.run("export", "Live", cli.folder.path("again")).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.folder.path("again/001-IMG_0042.MOV"))) == movie)

        let motion = cli.folder.path("moved/" + (try #require(keptMotions.first)))
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: motion))
        let damaged = try cli.run("--json", "check", "--files")
        #expect(damaged.status == 1)
        let files = try #require(try json(damaged)["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["problem"] as? String == "changed" && (files.first?["location"] as? String ?? files.first?["path"] as? String ?? "\(files)").contains("/moved/"), "\(files)")
    }

    @Test("storage folder chooses a new place; storage move brings the copies there and --all the rest; a damaged copy fails check")
    func chooseAndMove() throws {
        let cli = try CLI()
        let card = try card(in: cli)
        try cli.run("import", card + "/01-harbour.jpg", card + "/02-market.png", "--copy")
        try cli.run("import", card + "/03-cliffs.webp")
        let moveNowhere = try CLI().run("storage", "move")
        #expect(moveNowhere.status != 0)

        // A relative path is taken from the current folder (the test's own).
        let chosen = try cli.run("storage", "folder", "elsewhere/kept")
        let kept = cli.folder.path("elsewhere/kept")
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout == "new copies of originals are kept in folder \(kept)\n", "\(chosen.stdout)")
        #expect(FileManager.default.fileExists(atPath: kept))
        let listed = try cli.run("storage")
        #expect(listed.stdout.contains("still in folder \(cli.folder.path("library-originals")): 2 photos"), "\(listed.stdout)")
        #expect(listed.stdout.contains("only at their sources: 1 photo"))

        let moved = try cli.run("storage", "move")
        #expect(moved.status == 0 && moved.stdout.contains("moved 2 copies"), "\(moved.stdout) \(moved.stderr)")
        let all = try json(try cli.run("--json", "storage", "move", "--all"))
        #expect((all["kept"] as? [Any])?.count == 1 && (all["moved"] as? [Any])?.isEmpty == true)
        let after = try json(try cli.run("--json", "storage"))
        #expect((after["current"] as? [String: Any])?["photos"] as? Int == 3 && after["referenced"] as? Int == 0)

        // Damage one kept copy: check --files names it as the library's copy.
        let shown = try json(try cli.run("--json", "show", "id:1"))
        let copy = try #require((shown["kept_copy"] as? [String: Any])?["location"] as? String)
        #expect(copy.contains("/kept/"))
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: copy))
        let checked = try cli.run("--json", "check", "--files")
        #expect(checked.status == 1)
        let files = try #require(try json(checked)["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["kept_copy"] as? Bool == true && files.first?["problem"] as? String == "changed")
        // relink from the card writes it again.
        let relinked = try cli.run("relink", card)
        #expect(relinked.status == 0 && relinked.stdout.contains("restored id:1"), "\(relinked.stdout) \(relinked.stderr)")
        #expect(try cli.run("check", "--files").status == 0)
    }

    @Test("a folder that cannot be written, or a file that is not a library, is refused in one line, and nothing is made or chosen")
    func unwritableFolder() throws {
        let cli = try CLI()
        try cli.run("init")
        let refused = try cli.run("storage", "folder", "/proc/albums-kept")
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("cannot keep a copy in folder /proc/albums-kept"))
        #expect(try cli.run("storage").stdout.contains("kept nowhere"))

        // A file that is not a library is refused before the folder is made.
        let other = try CLI()
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: other.libraryPath))
        let damaged = try other.run("storage", "folder", "kept")
        #expect(damaged.status == 65, "\(damaged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.folder.path("kept")), "a refused command leaves no folder behind")
    }
}

/// The same from the command line with a bucket of the real S3 server the
/// test scripts start: `albums` hands each command that meets the bucket to
/// `albums-serve` beside it, which links the object storage client.
@Suite(
    "storage bucket and import --copy into it", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["ALBUMS_TEST_S3_ENDPOINT"] != nil, "start one with scripts/object-storage start; scripts/test does"))
struct StorageBucketCommandTests {
    let environment = ProcessInfo.processInfo.environment

    /// The keys as a person would give them: in the environment, never to the library.
    var keys: [String: String] {
        ["AWS_ACCESS_KEY_ID": environment["ALBUMS_TEST_S3_ACCESS_KEY"] ?? "", "AWS_SECRET_ACCESS_KEY": environment["ALBUMS_TEST_S3_SECRET_KEY"] ?? ""]
    }

    func run(_ cli: CLI, _ arguments: String..., keys: [String: String]? = nil) throws -> CLI.Result {
        try cli.runExecutable([CLI.binary.path] + arguments, environment: keys ?? self.keys)
    }

    /// A new bucket, made with the script that runs the server.
    func newBucket() throws -> String {
        let name = "albums-cli-" + UUID().uuidString.prefix(8).lowercased()
        let process = Process()
        process.executableURL = CLI.packageRoot.appending(path: "scripts/object-storage")
        process.arguments = ["bucket", name]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return name
    }

    @Test("storage bucket checks the keys before choosing it; import --copy, show, check --files and export reach the bucket")
    func bucketFromTheCommandLine() throws {
        let cli = try CLI()
        let bucket = try newBucket()
        let endpoint = try #require(environment["ALBUMS_TEST_S3_ENDPOINT"])
        try cli.run("album", "create", "Holidays")
        let refused = try run(cli, "storage", "bucket", bucket, "--endpoint", endpoint, keys: ["AWS_ACCESS_KEY_ID": "test:tester", "AWS_SECRET_ACCESS_KEY": "wrong"])
        #expect(refused.status != 0 && refused.stderr.contains("refused the keys") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try cli.run("storage").stdout.contains("kept nowhere"), "a bucket that refused is not chosen")
        let chosen = try run(cli, "storage", "bucket", bucket, "--endpoint", endpoint, "--prefix", "family")
        #expect(chosen.status == 0 && chosen.stdout.contains("kept in bucket s3://\(bucket)/family/"), "\(chosen.stderr)")
        #expect(try !String(decoding: fileBytes(cli.libraryPath), as: UTF8.self).contains(keys["AWS_SECRET_ACCESS_KEY"] ?? "-"), "no key in the file")

        let card = cli.folder.path("card")
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        for name in ["01-harbour.jpg", "02-market.png"] { try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/" + name, toPath: card + "/" + name) }
        let imported = try run(cli, "import", card, "--to", "Holidays", "--copy")
        #expect(imported.status == 0, "\(imported.stderr)")
        try FileManager.default.removeItem(atPath: card)
        #expect(try cli.run("show", "Holidays:1").stdout.contains("kept       s3://\(bucket)/family/"))
        let checked = try run(cli, "check", "--files")
        #expect(checked.status == 0 && checked.stdout.contains("(2 kept copies)"), "\(checked.stdout) \(checked.stderr)")
        let exported = try run(cli, "export", "Holidays", cli.folder.path("book"))
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try fileBytes(cli.folder.path("book/001-01-harbour.jpg")) == (try fileBytes(CLI.examplePhotos + "/01-harbour.jpg")))

        // Without keys, a command that needs the bucket says so in one line.
        let keyless = try cli.runExecutable(
            [CLI.binary.path, "check", "--files"], environment: ["AWS_SHARED_CREDENTIALS_FILE": cli.folder.path("none"), "AWS_ACCESS_KEY_ID": ""])
        #expect(keyless.status != 0 && keyless.stderr.contains("no keys for the object storage"), "\(keyless.stdout) \(keyless.stderr)")

        // Down to a folder and back: nothing lost.
        #expect(try cli.run("storage", "folder", cli.folder.path("kept")).status == 0)
        let down = try run(cli, "storage", "move")
        #expect(down.status == 0 && down.stdout.contains("moved 2 copies"), "\(down.stdout) \(down.stderr)")
        #expect(try cli.run("check", "--files").status == 0)
    }
}
