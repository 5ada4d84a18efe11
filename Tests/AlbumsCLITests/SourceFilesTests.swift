import AlbumsTestSupport
import Crypto
import Foundation
import Testing

/// The files behind the photos (Documentation/Importing.md): check --files, relink, relink on
/// re-import, and an export that verifies what it copies.
@Suite("Source files: check --files, relink, verified export", .serialized)
struct SourceFilesTests {
    /// A library of three example photos imported from a folder of copies.
    func trip() throws -> (CLI, inbox: String) {
        let cli = try CLI()
        let inbox = cli.folder.path("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for name in ["01-harbour.jpg", "02-market.png", "03-cliffs.webp"] {
            try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/" + name, toPath: inbox + "/" + name)
        }
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", inbox, "--to", "Trip").status == 0)
        return (cli, inbox)
    }

    func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    @Test("check --files names each source edited, moved or deleted, and exits 1; a clean library exits 0")
    func checkFiles() throws {
        let (cli, inbox) = try trip()
        let clean = try cli.run("check", "--files")
        #expect(clean.status == 0 && clean.stdout.contains("every source holds its photo's bytes"))
        // The same size, other bytes: only the SHA-256 tells.
        var edited = try Data(contentsOf: URL(fileURLWithPath: inbox + "/02-market.png"))
        edited[edited.count - 20] ^= 0xFF
        try edited.write(to: URL(fileURLWithPath: inbox + "/02-market.png"))
        try FileManager.default.moveItem(atPath: inbox + "/03-cliffs.webp", toPath: cli.folder.path("03-cliffs.webp"))
        try FileManager.default.removeItem(atPath: inbox + "/01-harbour.jpg")
        let result = try cli.run("--json", "check", "--files")
        #expect(result.status == 1)
        let files = try #require(try json(result)["files"] as? [[String: Any]])
        let problems = Dictionary(uniqueKeysWithValues: files.map { ((($0["source"] as? String) ?? "") as NSString).lastPathComponent }.enumerated().map { ($0.element, files[$0.offset]["problem"] as? String ?? "") })
        #expect(problems == ["01-harbour.jpg": "missing", "02-market.png": "changed", "03-cliffs.webp": "missing"])
        #expect(try cli.run("check").status == 0, "without --files, sources are not read")
    }

    @Test("relink finds moved files by content in the folders given; re-importing the same bytes relinks too")
    func relink() throws {
        let (cli, inbox) = try trip()
        let moved = cli.folder.path("moved/deeper")
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: inbox + "/03-cliffs.webp", toPath: moved + "/renamed.webp")
        try FileManager.default.moveItem(atPath: inbox + "/02-market.png", toPath: cli.folder.path("elsewhere.png"))
        // A decoy of the same size with other bytes is not taken.
        var decoy = try Data(contentsOf: URL(fileURLWithPath: moved + "/renamed.webp"))
        decoy[decoy.count - 1] ^= 0xFF
        try decoy.write(to: URL(fileURLWithPath: cli.folder.path("moved/aaa-decoy.webp")))

        let dry = try cli.run("--json", "relink", cli.folder.path("moved"), "--recursive", "--dry-run")
        #expect(dry.status == 1)  // 02 is still missing
        #expect((try json(dry)["relinked"] as? [[String: Any]])?.count == 1)
        #expect(try cli.run("check", "--files").status == 1, "a dry run writes nothing")

        let result = try cli.run("--json", "relink", cli.folder.path("moved"), "--recursive")
        let relinked = try #require(try json(result)["relinked"] as? [[String: Any]])
        #expect(relinked.map { $0["new_source"] as? String } == [moved + "/renamed.webp"])
        #expect(relinked.first?["old_source"] as? String == inbox + "/03-cliffs.webp")
        #expect((try json(result)["remaining"] as? [[String: Any]])?.map { $0["source"] as? String } == [inbox + "/02-market.png"])

        // The same bytes imported from their new place: the photo's source follows.
        #expect(try cli.run("import", cli.folder.path("elsewhere.png"), "--to", "Trip").status == 0)
        let clean = try cli.run("check", "--files")
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(try cli.run("show", "Trip:2").stdout.contains(cli.folder.path("elsewhere.png")))
        #expect(try cli.run("list", "Trip").stdout.split(separator: "\n").count == 4, "no second photo was made")

        // Every source holds its bytes now; a folder that is not there still fails, said in one line, after the others are looked in.
        let typo = try cli.run("relink", cli.folder.path("mvoed"), cli.folder.path("moved"))
        #expect(typo.status == 1, "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("failed     \(cli.folder.path("mvoed")): no such file or directory"), "\(typo.stderr)")
        #expect(typo.stdout.contains("every source holds its photo's bytes"), "\(typo.stdout)")
    }

    @Test("export verifies every byte: a changed source refuses the export and writes nothing; --allow-changed records what it wrote")
    func verifiedExport() throws {
        let (cli, inbox) = try trip()
        var edited = try Data(contentsOf: URL(fileURLWithPath: inbox + "/02-market.png"))
        edited[edited.count - 20] ^= 0xFF
        try edited.write(to: URL(fileURLWithPath: inbox + "/02-market.png"))

        for arguments in [["export", "Trip", "out"], ["export", "Trip", "out", "--dry-run"], ["export", "Trip", "out", "--link", "symlink"]] {
            let refused = try cli.run(["--json"] + arguments)
            #expect(refused.status == 1 && refused.stderr.contains(#""code":"source_changed""#), "\(arguments): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.folder.path("out")), "\(arguments) left a folder")
        }
        let existing = cli.folder.path("existing")
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
        #expect(try cli.run("export", "Trip", existing).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing).isEmpty, "no staging folder or file left behind")

        let allowed = try cli.run("export", "Trip", "out", "--allow-changed")
        #expect(allowed.status == 0 && allowed.stdout.contains("1 changed since import"))
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.folder.path("out/manifest.json")))) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(files.map { $0["changed"] as? Bool } == [false, true, false])
        for file in files {
            let written = try Data(contentsOf: URL(fileURLWithPath: cli.folder.path("out/" + (file["file"] as! String))))
            #expect(file["sha256"] as? String == SHA256.hash(data: written).map { String(format: "%02x", $0) }.joined())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("out")).sorted()
            == ["001-01-harbour.jpg", "002-02-market.png", "003-03-cliffs.webp", "manifest.json"])
    }

    @Test("exporting again into the album's own folder makes it match the album: the earlier export's other files go, anything else stays and is named")
    func exportAgain() throws {
        let (cli, _) = try trip()
        let out = cli.folder.path("out")
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out).sorted() }
        #expect(try cli.run("export", "Trip", "out").status == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        try FileManager.default.createDirectory(atPath: out + "/001-03-cliffs.webp-kept", withIntermediateDirectories: true)
        try cli.run("swap", "Trip:1", "Trip:3")
        let swapped = try cli.run("export", "Trip", "out")
        #expect(swapped.status == 0, "no --force needed for its own folder: \(swapped.stderr)")
        #expect(swapped.stdout.contains("removed 2 files of the earlier export") && swapped.stdout.contains("notes.txt"), "\(swapped.stdout)")
        #expect(try files() == ["001-03-cliffs.webp", "001-03-cliffs.webp-kept", "002-02-market.png", "003-01-harbour.jpg", "manifest.json", "notes.txt"])

        try cli.run("remove", "Trip:1-2")
        let dry = try cli.run("--json", "export", "Trip", "out", "--dry-run")
        #expect(try json(dry)["removed"] as? [String] == ["001-03-cliffs.webp", "002-02-market.png", "003-01-harbour.jpg"])
        #expect(try json(dry)["left"] as? [String] == ["001-03-cliffs.webp-kept", "notes.txt"])
        #expect(try files().count == 6, "a dry run removes nothing")
        #expect(try cli.run("export", "Trip", "out").status == 0)
        #expect(try files() == ["001-03-cliffs.webp-kept", "001-01-harbour.jpg", "manifest.json", "notes.txt"].sorted())
        #expect(try String(contentsOfFile: out + "/notes.txt", encoding: .utf8) == "mine")

        // Another album's folder is not this one's: --force replaces that export.
        try cli.run("album", "create", "Other")
        try cli.run("copy", "Trip:1", "--to", "Other")
        let refused = try cli.run("--json", "export", "Other", "out")
        #expect(refused.status == 1 && refused.stderr.contains(#""code":"file_exists""#), "\(refused.stderr)")
        #expect(try cli.run("export", "Other", "out", "--force").status == 0)
        #expect(try files() == ["001-03-cliffs.webp-kept", "001-01-harbour.jpg", "manifest.json", "notes.txt"].sorted())
        // A manifest edited to name what lies outside its folder removes nothing there.
        try Data(#"{"album":"Other","files":[{"file":"../library.albums"},{"file":"/etc/passwd"},{"file":"001-03-cliffs.webp-kept"},{"file":"001-01-harbour.jpg"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: out + "/manifest.json"))
        #expect(try cli.run("export", "Other", "out").status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.libraryPath))
        #expect(FileManager.default.fileExists(atPath: out + "/001-03-cliffs.webp-kept"), "a folder is never removed")
    }

    @Test("a smart album exports the photos it shows, newest first, as albums list shows them")
    func exportSmartAlbum() throws {
        let (cli, _) = try trip()
        #expect(try cli.run("album", "smart", "July", "--taken", "2026-07").status == 0)
        let listed = try json(try cli.run("--json", "list", "July"))
        let shown = try #require(listed["photos"] as? [[String: Any]]).map { $0["photo_id"] as? Int }
        #expect(shown.count == 3)
        let exported = try cli.run("--json", "export", "July", "out")
        #expect(exported.status == 0)
        let files = try #require(try json(exported)["files"] as? [[String: Any]])
        #expect(files.map { $0["photo_id"] as? Int } == shown)
        #expect(files.map { $0["position"] as? Int } == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("out")).count == 4)
        #expect(try cli.run("export", "July", "dry", "--dry-run").stdout.hasPrefix("would export 3 photos of 'July'"))
    }
}
