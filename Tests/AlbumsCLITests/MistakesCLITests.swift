import AlbumsTestSupport
import Foundation
import Testing

/// The usual mistakes get help: a name that finds nothing says what was
/// probably meant, a mistyped command its nearest name, and every mistake
/// is said in one voice, on one line.
@Suite("Mistakes get help")
struct MistakesCLITests {
    func library() throws -> CLI {
        let cli = try CLI()
        try cli.run("album", "create", "Summer 2026")
        try cli.run("folder", "create", "Travel")
        try cli.run("album", "create", "Lisbon", "--into", "Travel")
        return cli
    }

    @Test("a name that finds nothing: did you mean the album of another case or a typo away; a folder given as an album, and the other way round, is named so")
    func nearbyNames() throws {
        let cli = try library()
        for (arguments, said) in [
            (["list", "summer 2026"], "no album named 'summer 2026'; did you mean 'Summer 2026'?"),
            (["list", "Sumer 2026"], "no album named 'Sumer 2026'; did you mean 'Summer 2026'?"),
            (["album", "delete", "Travel"], "no album named 'Travel'; 'Travel' is a folder: albums folder rename, move, lock and delete act on folders"),
            (["folder", "delete", "Lisbon"], "no folder 'Lisbon'; 'Lisbon' is an album"),
            (["folder", "lock", "travel"], "no folder 'travel'; did you mean 'Travel'?"),
            (["list", "Winter"], "no album named 'Winter'; albums album list shows them"),
        ] {
            let result = try cli.run(arguments)
            #expect(result.status == 1 && result.stderr.hasPrefix("albums: " + said), "\(arguments): \(result.stderr)")
        }
        // --json says the same in its message.
        let json = try cli.run("--json", "list", "summer 2026")
        #expect(json.stderr.contains(#""code":"album_not_found","message":"no album named 'summer 2026'; did you mean 'Summer 2026'?""#), "\(json.stderr)")
    }

    @Test("an album named like another but for case or accents is another album, and a note says so")
    func namesAlike() throws {
        let cli = try library()
        let created = try cli.run("album", "create", "summer 2026")
        #expect(created.status == 0 && created.stdout == "created album 'summer 2026' at position 3\n")
        #expect(created.stderr == "albums: album 'Summer 2026' differs from 'summer 2026' only in case or accents; they are two albums\n")
        #expect(try cli.run("album", "create", "Autumn 2026").stderr.isEmpty)
        #expect(try cli.run("list", "summer 2026").status == 0, "names are case-sensitive: each finds its own album")
    }

    @Test("a mistyped command or subcommand gets its nearest name; a far one, where the list is")
    func mistypedCommands() throws {
        let cli = try library()
        for (arguments, said) in [
            (["album", "crate", "X"], "albums: 'crate' is not an album command; did you mean 'create'?\n"),
            (["albm", "list"], "albums: 'albm' is not an albums command; did you mean 'album'?\n"),
            (["folder", "lsit"], "albums: 'lsit' is not a folder command; did you mean 'list'?\n"),
            (["pending", "lst"], "albums: 'lst' is not a pending command; did you mean 'list'?\n"),
            (["frobnicate"], "albums: 'frobnicate' is not an albums command; albums --help lists them\n"),
            (["--library", cli.libraryPath, "album", "zzzzzz"], "albums: 'zzzzzz' is not an album command; albums album --help lists them\n"),
        ] {
            let result = try cli.run(arguments)
            #expect(result.status == 64 && result.stderr == said, "\(arguments): \(result.stderr)")
        }
        let json = try cli.run("--json", "album", "crate", "X")
        #expect(json.status == 64 && json.stderr == #"{"error":{"code":"usage","message":"'crate' is not an album command; did you mean 'create'?"}}"# + "\n")
    }

    @Test("one voice: every usage mistake is one line 'albums: …', saying where the usage is; positions start at 1, however given")
    func oneVoice() throws {
        let cli = try library()
        try cli.run("album", "create", "Book")
        for (arguments, said) in [
            (["move", "Trip:1", "--to", "Book", "--at", "1", "--before", "Book:1"], "--to/--at and --before cannot be used together"),
            (["copy", "Trip:1", "--before", "Book:1", "--after", "Book:1"], "--before and --after cannot be used together"),
            (["import", CLI.examplePhotos, "--into", "Book"], "--to ALBUM names the album the files go into"),
            (["move", "Trip:1", "--to", "Book", "--at", "0"], "--at 0: positions start at 1"),
            (["move", "Trip:0", "--to", "Book"], "invalid reference 'Trip:0': positions start at 1"),
            (["album", "create", "X", "--at", "0"], "--at 0: positions start at 1"),
            (["list", "Book", "--bogus"], "unknown option '--bogus'"),
            (["move"], "missing expected argument"),
        ] {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("albums: ") && result.stderr.contains(said), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.run("move", "Trip:1", "--to", "Book", "--at", "0").stderr.hasSuffix("; 'albums move --help' shows the usage\n"))
    }
}
