import AlbumsTestSupport
import Foundation
import Testing

/// `albums backup`, run as a user runs it, while other processes write.
@Suite("Backups from the command line")
struct BackupCLITests {
    func makeLibrary() throws -> CLI {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "\(photos)/03-cliffs.webp", "\(photos)/05-sunset.heic", "--to", "Trip").status == 0)
        #expect(try cli.run("import", "\(photos)/06-map.gif", "\(photos)/07-scan.tiff", "--to", "Book").status == 0)
        return cli
    }

    @Test("backups taken while three processes write are consistent snapshots that check clean; the writers never fail")
    func whileWriting() throws {
        let cli = try makeLibrary()
        // Three writers, each a loop of moves in its own processes.
        let loops = [
            "for i in $(seq 40); do \"$ALBUMS\" move Trip:1 --to Trip --at 2 || exit 1; done",
            "for i in $(seq 40); do \"$ALBUMS\" swap Book:1 Book:2 || exit 1; done",
            "for i in $(seq 20); do \"$ALBUMS\" move Trip:2 --to Book --at 1 && \"$ALBUMS\" move Book:1 --to Trip --at 2 || exit 1; done",
        ]
        let writers = try loops.map { script -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            var environment = ProcessInfo.processInfo.environment
            environment["ALBUMS_LIBRARY"] = cli.libraryPath
            environment["ALBUMS"] = CLI.binary.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        var taken = 0
        while writers.contains(where: \.isRunning) || taken < 3 {
            let path = cli.folder.path("backup-\(taken).albums")
            let result = try cli.run("--json", "backup", path)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(Set(report.keys) == ["backup", "bytes", "albums", "photos", "items", "last_change"])
            #expect(report["items"] as? Int == 6 && report["photos"] as? Int == 6 && report["albums"] as? Int == 2)
            // Nothing is left beside it: no partial file, no journal.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.folder.url.path).filter { $0.hasPrefix("backup-\(taken).albums") && $0 != "backup-\(taken).albums" }
            #expect(leftovers.isEmpty, "\(leftovers)")
            // The copy is a library of its own: it checks clean and lists its 6 items.
            let check = try cli.run("--library", path, "check")
            #expect(check.status == 0 && check.stdout == "ok: every invariant holds\n", "\(check.stdout)\(check.stderr)")
            let albums = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run("--library", path, "--json", "album", "list").stdout.utf8)) as? [String: [[String: Any]]])
            #expect(albums["albums"]?.compactMap { $0["count"] as? Int }.reduce(0, +) == 6)
            taken += 1
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0, "a writer failed while backups were taken")
        }
        #expect(taken >= 3)
    }

    @Test("an existing file is kept unless --force; a folder gets the library's name; a missing folder or library is exit 74")
    func refusals() throws {
        let cli = try makeLibrary()
        let path = cli.folder.path("copy.albums")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try cli.run("backup", path)
        #expect(refused.status == 1 && refused.stderr == "albums: \(path) already exists; --force replaces it\n", "\(refused.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        let forced = try cli.run("backup", path, "--force")
        #expect(forced.status == 0 && forced.stdout.hasPrefix("backed up to \(path): 2 albums, 6 photos, 6 items, "), "\(forced.stdout)")
        #expect(try cli.run("--library", path, "check").status == 0)

        let folder = cli.folder.path("usb")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(try cli.run("backup", folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/library.albums"))

        let nowhere = try cli.run("backup", cli.folder.path("missing/copy.albums"))
        #expect(nowhere.status == 74 && nowhere.stderr.contains("its folder does not exist"), "\(nowhere.stderr)")
        let noLibrary = try cli.run("--library", cli.folder.path("none.albums"), "backup", cli.folder.path("other.albums"))
        #expect(noLibrary.status == 74)
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("none.albums")))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("other.albums")))
    }

    @Test("checkpoints: shown, set to external for a replicator and back, in text and JSON; inspect says it; a bad value is exit 64")
    func checkpoints() throws {
        let cli = try makeLibrary()
        #expect(try cli.run("checkpoints").stdout == "checkpoints: auto (albums checkpoints the write-ahead log)\n")
        let set = try cli.run("checkpoints", "external")
        #expect(set.status == 0 && set.stdout == "checkpoints: external (albums leaves them to a replicator such as Litestream)\n")
        #expect(try cli.run("--json", "checkpoints").stdout == "{\n  \"checkpoints\" : \"external\"\n}\n")
        #expect(try cli.run("inspect", cli.libraryPath).stdout.contains("journal wal; checkpoints external\n"))
        #expect(try cli.run("move", "Trip:1", "--to", "Book").status == 0)
        #expect(try cli.run("check").status == 0)
        let bad = try cli.run("checkpoints", "sometimes")
        #expect(bad.status == 64 && bad.stderr.contains("'auto' and 'external'"), "\(bad.stderr)")
        #expect(try cli.run("--json", "checkpoints", "auto").stdout == "{\n  \"checkpoints\" : \"auto\"\n}\n")
    }
}
