import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// The hostile-input corpus of RELIABILITY.md, run through the real binary:
/// arguments, JSON Lines batches, image files and library files. Each input
/// gives its documented exit status and message, and leaves the library as
/// it was. (The bad-input table of CommandLineTests and the refused files of
/// FileRefusalTests belong to the same corpus.)
@Suite("Hostile input", .serialized)
struct HostileInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { name }
    }

    /// What a user can see of the library: every album's items, every photo.
    func contents(_ cli: CLI) throws -> [String] {
        let library = try cli.library()
        defer { try? library.close() }
        return try library.read { reader in
            try reader.albums().map { album in
                "\(album.name): " + (try reader.items(in: album.id).map { "\($0.photoID?.rawValue ?? -1)" }.joined(separator: ","))
            } + ["photos: \(try reader.photoCount())"]
        }
    }

    func expectOutcome(_ result: CLI.Result, _ expected: Case, before: [String], after: [String]) {
        #expect(result.status == expected.status, "stderr: \(result.stderr.prefix(300))")
        #expect(result.stderr.contains(expected.message) || result.stdout.contains(expected.message), "stderr: \(result.stderr.prefix(300)), stdout: \(result.stdout.prefix(300))")
        #expect(result.stderr.utf8.count < 2_000, "a message must stay short")
        #expect(after == before, "the library changed")
    }

    // MARK: Names, references, positions

    static let longName = String(repeating: "y", count: 100_000)
    static let arguments: [Case] = [
        Case(name: "name: empty", arguments: ["album", "create", ""], status: 1, message: "cannot be empty"),
        Case(name: "name: only spaces", arguments: ["album", "create", "   "], status: 1, message: "cannot be only spaces"),
        Case(name: "name: 256 characters", arguments: ["album", "create", String(repeating: "é", count: 256)], status: 1, message: "at most 255 characters"),
        Case(name: "rename to 100,000 characters", arguments: ["album", "rename", "Trip", longName], status: 1, message: "(100000 characters)"),
        Case(name: "name: C0 control", arguments: ["album", "create", "a\u{1}b"], status: 1, message: "control characters"),
        Case(name: "name: newline", arguments: ["album", "create", "two\nlines"], status: 1, message: "control characters"),
        Case(name: "name: DEL", arguments: ["album", "create", "del\u{7F}"], status: 1, message: "control characters"),
        Case(name: "name: C1 control", arguments: ["album", "create", "next\u{85}line"], status: 1, message: "control characters"),
        Case(name: "lookup: 100,000 characters", arguments: ["list", longName], status: 1, message: "(100000 characters)"),
        Case(name: "lookup: SQL fragment", arguments: ["list", "x'); DROP TABLE album; --"], status: 1, message: "no album named"),
        Case(name: "reference: SQL fragment", arguments: ["remove", "Trip' OR 1=1; --:1"], status: 1, message: "no album named"),
        Case(name: "reference: photo id with SQL", arguments: ["show", "id:1 OR 1=1"], status: 64, message: "is not a photo id"),
        Case(name: "reference: empty", arguments: ["remove", ""], status: 64, message: "expected ALBUM:N"),
        Case(name: "reference: empty album part", arguments: ["remove", ":1"], status: 64, message: "album name before ':' is empty"),
        Case(name: "position: negative", arguments: ["remove", "Trip:-1"], status: 64, message: "is not a position"),
        Case(name: "position: zero", arguments: ["remove", "Trip:0"], status: 64, message: "positions start at 1"),
        Case(name: "position: past Int64", arguments: ["remove", "Trip:99999999999999999999"], status: 64, message: "past the largest position"),
        Case(name: "position: fraction", arguments: ["remove", "Trip:1.5"], status: 64, message: "is not a position"),
        Case(name: "position: Arabic-Indic digit", arguments: ["remove", "Trip:١"], status: 64, message: "is not a position"),
        Case(name: "position: range of three", arguments: ["remove", "Trip:1-2-3"], status: 64, message: "is not a position"),
        Case(name: "position: past the end", arguments: ["remove", "Trip:5"], status: 1, message: "valid positions are 1…4"),
        Case(name: "range: past Int64", arguments: ["remove", "Trip:1-99999999999999999999"], status: 64, message: "past the largest position"),
        Case(name: "--at: zero", arguments: ["move", "Trip:1", "--to", "Book", "--at", "0"], status: 64, message: "--at 0: positions start at 1"),
        Case(name: "--at: past Int64", arguments: ["move", "Trip:1", "--to", "Book", "--at", "99999999999999999999"], status: 64, message: "is invalid for '--at"),
        Case(name: "--at: past the end", arguments: ["move", "Trip:1", "--to", "Book", "--at", "9"], status: 1, message: "valid positions are 1…3"),
        Case(name: "photo id: past Int64", arguments: ["show", "id:99999999999999999999"], status: 64, message: "past the largest photo id"),
        Case(name: "--expect-revision: negative", arguments: ["remove", "Trip:1", "--expect-revision", "-5"], status: 64, message: "expect-revision"),
    ]

    @Test("arguments: names, references, positions", arguments: arguments)
    func hostileArgument(_ input: Case) throws {
        let cli = try CommandLineTests().makeLibrary()
        let before = try contents(cli)
        let result = try cli.run(input.arguments)
        expectOutcome(result, input, before: before, after: try contents(cli))
    }

    @Test("arguments that are not UTF-8 are refused, not renamed")
    func invalidUTF8() throws {
        let cli = try CommandLineTests().makeLibrary()
        let before = try contents(cli)
        // Foundation passes only Strings: a shell writes the raw byte 0xFF.
        let status = run("/bin/sh", ["-c", #"exec "$0" --library "$1" album create "$(printf 'a\377b')" 2>"$2""#, CLI.binary.path, cli.libraryPath, cli.folder.path("err")])
        let stderr = try String(contentsOfFile: cli.folder.path("err"), encoding: .utf8)
        expectOutcome(
            CLI.Result(status: status, stdout: "", stderr: stderr),
            Case(name: "", arguments: [], status: 64, message: "argument 5 (after 'create') is not valid UTF-8"), before: before, after: try contents(cli))
    }

    // MARK: JSON Lines batches

    static let batches: [(name: String, text: Data, status: Int32, message: String)] = [
        ("malformed", Data("{\"op\": \"remove\", \"items\": [\"Trip:1\"]\n".utf8), 64, "line 1: not valid JSON"),
        ("random bytes", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), 64, "is not UTF-8 text"),
        ("NUL bytes", Data("{\"op\": \"remove\", \u{0}\"items\": [\"Trip:1\"]}".utf8), 64, "not valid JSON"),
        ("nested 200,000 deep", Data((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8), 64, "line 1: not valid JSON"),
        ("a 5 MB reference", Data(("{\"op\": \"remove\", \"items\": [\"" + String(repeating: "x", count: 5_000_000) + ":1\"]}").utf8), 1, "(5000000 characters)"),
        ("items: an object", Data(#"{"op": "remove", "items": {"Trip": 1}}"#.utf8), 64, "\"items\" must be an array"),
        ("op: a number", Data(#"{"op": 5, "items": ["Trip:1"]}"#.utf8), 64, "\"op\" must be a string"),
        ("at: a string", Data(#"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": "2"}"#.utf8), 64, "\"at\" must be a position"),
        ("at: 1e400", Data(#"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": 1e400}"#.utf8), 64, "line 1"),
        ("at: true", Data(#"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": true}"#.utf8), 64, "\"at\" must be a position"),
        ("expect_revision: an array", Data(#"{"op": "remove", "items": ["Trip:1"], "expect_revision": [1]}"#.utf8), 64, "\"expect_revision\" must be an object"),
        ("20,000 good lines, then a refused one", Data((String(repeating: #"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": 1}"# + "\n" + #"{"op": "move", "items": ["Book:1"], "to": "Trip", "at": 1}"# + "\n", count: 10_000) + #"{"op": "remove", "items": ["Trip:99"]}"#).utf8), 1, "line 20001 (remove) refused, nothing applied"),
    ]

    @Test("JSON Lines: malformed, huge, wrong types", arguments: batches.indices)
    func hostileBatch(_ index: Int) throws {
        let batch = Self.batches[index]
        let cli = try CommandLineTests().makeLibrary()
        let path = cli.folder.path("batch.jsonl")
        try batch.text.write(to: URL(fileURLWithPath: path))
        let before = try contents(cli)
        let result = try cli.run("apply", path)
        expectOutcome(result, Case(name: batch.name, arguments: [], status: batch.status, message: batch.message), before: before, after: try contents(cli))
    }

    // MARK: Image files

    /// Image files made from the examples, each with what importing it must do.
    static func imageCases(in folder: TemporaryFolder) throws -> [(path: String, status: Int32, message: String, imported: Bool)] {
        let photos = URL(fileURLWithPath: CLI.examplePhotos)
        let jpeg = try Data(contentsOf: photos.appending(path: "01-harbour.jpg"))
        let png = try Data(contentsOf: photos.appending(path: "02-market.png"))
        let gif = try Data(contentsOf: photos.appending(path: "06-map.gif"))
        let heic = try Data(contentsOf: photos.appending(path: "05-sunset.heic"))
        func file(_ name: String, _ bytes: Data) throws -> String {
            let path = folder.path(name)
            try bytes.write(to: URL(fileURLWithPath: path))
            return path
        }
        var hugePNG = png
        hugePNG.replaceSubrange(16..<24, with: [0x7F, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF])
        var overLimitPNG = png
        overLimitPNG.replaceSubrange(16..<20, with: [0x80, 0, 0, 0])
        var zeroGIF = gif
        zeroGIF.replaceSubrange(6..<10, with: [0, 0, 0, 0])
        var lyingSegment = jpeg
        lyingSegment.replaceSubrange(4..<6, with: [0xFF, 0xFF])
        return [
            (try file("zero.jpg", Data()), 0, "not a photo or video: the file is empty", false),
            (try file("text.jpg", Data("hello\n".utf8)), 0, "first bytes match no image format", false),
            (try file("half.jpg", jpeg.prefix(jpeg.count / 2)), 1, "damaged JPEG: cut short", false),
            (try file("header-only.jpg", jpeg.prefix(700)), 1, "damaged JPEG: cut short", false),
            (try file("half.png", png.prefix(png.count / 2)), 1, "damaged PNG: cut short", false),
            (try file("half.gif", gif.prefix(gif.count - 1)), 1, "damaged GIF: cut short", false),
            (try file("half.heic", heic.prefix(heic.count - 10)), 1, "damaged HEIF: cut short", false),
            (try file("png-named.jpg", png + Data("after IEND".utf8)), 0, "imported 1 file", true),
            (try file("signature-only.png", png.prefix(8) + Data("GARBAGE".utf8)), 1, "damaged PNG", false),
            (try file("segment-past-end.jpg", lyingSegment), 1, "damaged JPEG", false),
            // Albums never decodes pixels: a size within the format's limits is recorded as declared.
            (try file("huge.png", hugePNG), 0, "imported 1 file", true),
            (try file("over-limit.png", overLimitPNG), 1, "IHDR declares 2147483648×", false),
            (try file("zero-size.gif", zeroGIF), 1, "declares 0×0 pixels", false),
        ]
    }

    @Test("image files: truncated, empty, misnamed, lying, huge")
    func hostileImages() throws {
        let cli = try CommandLineTests().makeLibrary()
        let inputs = try Self.imageCases(in: cli.folder)
        for input in inputs {
            let before = try contents(cli)
            let result = try cli.run("import", input.path, "--to", "Trip")
            #expect(result.status == input.status, "\(input.path): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains(input.message), "\(input.path): \(result.stdout) \(result.stderr)")
            if !input.imported {
                #expect(try contents(cli) == before, "\(input.path) changed the library")
            }
        }
        #expect(try cli.run("check").status == 0)
    }

    // MARK: A full disk

    /// The library on a 2 MiB tmpfs (or, where mounting is not allowed,
    /// under a file size limit), filled to the last byte: writes fail with
    /// exit 74 and leave the library as it was; freeing space lets them work.
    @Test("a full disk: exit 74, nothing half-written, works again once there is room")
    func fullDisk() throws {
        let folder = try TemporaryFolder()
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]) == 0
        defer { if mounted { _ = run("/bin/umount", [disk]) } }
        let library = "\(disk)/library.albums"
        func albums(_ arguments: [String], sizeLimitBlocks: Int? = nil) throws -> CLI.Result {
            // Ignoring SIGXFSZ makes a write past the limit fail with EFBIG instead of killing.
            let limit = sizeLimitBlocks.map { "trap '' XFSZ; ulimit -f \($0); " } ?? ""
            let status = run("/bin/sh", ["-c", limit + #"library="$1"; output="$2"; shift 2; exec "$0" --library "$library" "$@" >"$output.out" 2>"$output.err""#, CLI.binary.path, library, folder.path("run")] + arguments)
            return CLI.Result(
                status: status, stdout: try String(contentsOfFile: folder.path("run.out"), encoding: .utf8),
                stderr: try String(contentsOfFile: folder.path("run.err"), encoding: .utf8))
        }
        let photos = CLI.examplePhotos
        #expect(try albums(["album", "create", "Trip"]).status == 0)
        #expect(try albums(["album", "create", "Book"]).status == 0)
        #expect(try albums(["import", photos, "--to", "Trip"]).status == 0)
        let write = ["copy", "Trip:1-9", "--to", "Book"]
        let failed: CLI.Result
        if mounted {
            // Fill what is left of the disk.
            let filler = FileHandle(forWritingAtPath: { FileManager.default.createFile(atPath: "\(disk)/filler", contents: nil); return "\(disk)/filler" }())!
            while (try? filler.write(contentsOf: Data(count: 4096))) != nil {}
            try? filler.close()
            failed = try albums(write)
            #expect(failed.stderr.contains("is full; nothing was written"), "\(failed.stderr)")
            try FileManager.default.removeItem(atPath: "\(disk)/filler")
        } else {
            // 2 KiB per file: the WAL cannot take a single page.
            failed = try albums(write, sizeLimitBlocks: 4)
        }
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(try albums(["check"]).status == 0)
        #expect(try albums(["list", "Book"]).stdout.hasPrefix("Book: 0 items"), "the failed copy left nothing")
        let again = try albums(write)
        #expect(again.status == 0, "room again: the same write works; \(again.stderr)")
    }

    // MARK: A reader that goes away

    /// `albums list … | head -1` where SIGPIPE is ignored (as some process
    /// managers and language runtimes leave it): the write to the closed
    /// pipe fails with EPIPE. The rest of the output is dropped; the command
    /// ends normally, never with a trap and a stack trace.
    @Test("a reader that goes away with SIGPIPE ignored: the output stops, the command ends with 0", arguments: [["list", "Big"], ["--json", "list", "Big"], ["--json", "album", "list"]])
    func closedPipe(arguments: [String]) throws {
        let cli = try CLI()
        try cli.run("album", "create", "Big")
        try cli.library().write { writer in
            try writer.insertPhotos(try writer.addTestPhotos(count: 5_000), into: try writer.album(named: "Big").id)
            for number in 1...2_000 { _ = try writer.createAlbum(named: "Album \(number)") }
        }
        let script = #"trap '' PIPE; "$0" "$@" | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}""#
        let result = try cli.runExecutable(["/bin/bash", "-c", script, CLI.binary.path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// Runs a program to the end; its output, if wanted, is redirected by a shell script.
    private func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
