import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// `albums history`, `undo` and `redo`, run as a user runs them.
@Suite("History from the command line")
struct HistoryCLITests {
    func makeLibrary() throws -> CLI {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "\(photos)/03-cliffs.webp", "--to", "Trip").status == 0)
        #expect(try cli.run("import", "\(photos)/06-map.gif", "\(photos)/07-scan.tiff", "--to", "Book").status == 0)
        return cli
    }

    func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    /// Everything undo restores, as the CLI lists it: albums in order with
    /// their lock, and each album's photos in order.
    func state(_ cli: CLI) throws -> String {
        let albums = try json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]] ?? []
        return try albums.map { album in
            let name = album["name"] as! String
            let items = try json(try cli.run("--json", "list", name))["items"] as? [[String: Any]] ?? []
            return "\(name)\(album["locked"] as! Bool ? " (locked)" : ""): \(items.map { "\($0["item_id"]!)/\($0["photo_id"]!)" })"
        }.joined(separator: "; ")
    }

    @Test("every change is listed; undo reverses the last exactly, redo re-applies it, a new change clears redo; text and JSON")
    func undoAndRedo() throws {
        let cli = try makeLibrary()
        let start = try state(cli)
        #expect(try cli.run("move", "Trip:1", "--to", "Book", "--at", "1").status == 0)
        #expect(try cli.run("album", "lock", "Trip").status == 0)
        #expect(try cli.run("album", "rename", "Book", "Photo book").status == 0)
        #expect(try cli.run("album", "delete", "Photo book").status == 0)

        let history = try cli.run("history")
        let lines = history.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("#  WHEN") == true, "\(history.stdout)")
        #expect(lines.dropFirst().map { $0.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "" } == ["8", "7", "6", "5", "4", "3", "2", "1"])
        #expect(lines[1].contains("delete album 'Photo book' (3 items)") && lines[1].hasSuffix("Photo book"), "\(lines[1])")
        #expect(lines[4].contains("move 1 item to 'Book' at position 1") && lines[4].hasSuffix("Trip, Book"), "\(lines[4])")
        #expect(lines[5].contains("import 2 files into 'Book' at position 1"))

        // The album filter follows the album by id through its rename, and finds a deleted one by name.
        let ofTrip = try json(try cli.run("--json", "history", "Trip"))["entries"] as? [[String: Any]] ?? []
        #expect(ofTrip.map { $0["description"] as? String } == ["lock album 'Trip'", "move 1 item to 'Book' at position 1", "import 3 files into 'Trip' at position 1", "create album 'Trip'"])
        let ofBook = try json(try cli.run("--json", "history", "Photo book", "--limit", "2"))["entries"] as? [[String: Any]] ?? []
        #expect(ofBook.map { $0["id"] as? Int } == [8, 7])
        let listing = try json(try cli.run("--json", "history", "--limit", "1"))
        let newest = try #require((listing["entries"] as? [[String: Any]])?.first)
        #expect(Set(newest.keys) == ["id", "committed_at", "description", "albums", "undone", "row_changes", "made_by"])
        #expect((newest["albums"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["name"]!)" } == ["2 Photo book"])
        #expect(listing["kept_entries"] as? Int == 1000)
        #expect((listing["next_undo"] as? [String: Any])?["id"] as? Int == 8)
        #expect(listing["next_redo"] is NSNull)

        // Undo, one at a time, exactly; the deleted album comes back with its items, under its name then.
        let beforeDelete = try state(cli)
        let dryRun = try cli.run("undo", "--dry-run")
        #expect(dryRun.stdout.hasPrefix("would undo #8: delete album 'Photo book' (3 items)\n"), "\(dryRun.stdout)")
        #expect(try state(cli) == beforeDelete)
        let undone = try cli.run("undo")
        #expect(undone.status == 0 && undone.stdout.hasPrefix("undid #8: delete album 'Photo book' (3 items)\n  Photo book (revision "), "\(undone.stdout)")
        #expect(try state(cli).contains("Photo book: "))
        let undoneJSON = try json(try cli.run("--json", "undo"))
        #expect((undoneJSON["entry"] as? [String: Any])?["description"] as? String == "rename album 'Book' to 'Photo book'")
        #expect((undoneJSON["entry"] as? [String: Any])?["undone"] as? Bool == true)
        #expect((undoneJSON["changes"] as? [[String: Any]])?.first?["album_events"] as? [String] == ["renamed"])
        #expect(try cli.run("undo").status == 0)  // the lock
        #expect(try cli.run("undo").status == 0)  // the move
        #expect(try state(cli) == start)

        // Redo re-applies, in order, exactly.
        #expect(try cli.run("redo").stdout.hasPrefix("redid #5: move 1 item to 'Book' at position 1\n"))
        #expect(try cli.run("redo").status == 0)
        #expect(try state(cli).contains("Trip (locked)"))
        // A new change clears what could be redone.
        #expect(try cli.run("album", "unlock", "Trip").status == 0)
        let nothing = try cli.run("--json", "redo")
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("\"code\":\"nothing_to_redo\""), "\(nothing.stderr)")
        let entries = try json(try cli.run("--json", "history"))["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["id"] as? Int } == [9, 6, 5, 4, 3, 2, 1], "the undone entries are gone")

        // Undo everything: an empty library; then nothing to undo, exit 1, one line.
        for _ in 0..<7 { #expect(try cli.run("undo").status == 0) }
        #expect(try cli.run("album", "list").stdout.hasPrefix("no albums yet"))
        let empty = try cli.run("undo")
        #expect(empty.status == 1 && empty.stderr.hasPrefix("albums: nothing to undo") && empty.stderr.split(separator: "\n").count == 1, "\(empty.stderr)")
        #expect(try cli.run("check").status == 0)
    }

    @Test("an undo that cannot be exact (a load still running) is refused with the reason and writes nothing")
    func refusedWhileLoading() throws {
        let cli = try makeLibrary()
        // A load begun by a live process (this test) into Trip.
        let library = try Library.open(at: cli.libraryPath, options: Library.Options(allowsConcurrentReads: false))
        let placeholder = try library.write { writer in
            let trip = try writer.album(named: "Trip")
            return try writer.insertPlaceholders([PendingLoad(source: "/camera/IMG_0001.jpg")], into: trip.id, at: 1)[0]
        }
        try library.close()
        let before = try state(cli)
        let refused = try cli.run("--json", "undo")
        #expect(refused.status == 1)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(refused.stderr.utf8)) as? [String: [String: String]])
        #expect(error["error"]?["code"] == "cannot_undo")
        #expect(error["error"]?["message"] == "cannot undo #5 (import 1 file into 'Trip' at position 2) exactly: it began loading /camera/IMG_0001.jpg, which is still loading: it can be undone once the load commits or is cancelled; nothing was changed")
        #expect(try state(cli) == before)
        // Once the load is cancelled (its end is not a change of its own), the import undoes.
        #expect(try cli.run("pending", "cancel", "\(placeholder.rawValue)").status == 0)
        #expect(try cli.run("undo").stdout.hasPrefix("undid #5: import 1 file into 'Trip'"))
        #expect(try cli.run("check").status == 0)
    }

    @Test("processes share one history in commit order: undo takes back another process's changes, newest first")
    func sharedAcrossProcesses() throws {
        let cli = try makeLibrary()
        let start = try state(cli)
        let first = try json(try cli.run("--json", "history", "--limit", "1"))["entries"] as? [[String: Any]]
        let firstID = try #require(first?.first?["id"] as? Int)
        // Six writers at once, each a process of its own.
        let commands: [[String]] = [
            ["move", "Trip:1", "--to", "Trip", "--at", "3"], ["album", "create", "Extra"], ["copy", "Book:1", "--to", "Trip"],
            ["album", "move", "Book", "--to", "1"], ["swap", "Book:1", "Book:2"], ["album", "create", "Other", "--at", "1"],
        ]
        let processes = try commands.map { try cli.start($0) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let entries = try json(try cli.run("--json", "history", "--limit", "100"))["entries"] as? [[String: Any]] ?? []
        let ids = entries.compactMap { $0["id"] as? Int }
        #expect(Array(ids.prefix(6)) == Array((firstID + 1...firstID + 6).reversed()), "one entry each, numbered in commit order: \(ids)")
        for _ in 0..<6 { #expect(try cli.run("undo").status == 0) }
        #expect(try state(cli) == start)
    }

    @Test("--keep bounds the history: older entries are dropped, the newest kept; out of range is a usage error")
    func bounded() throws {
        let cli = try makeLibrary()
        let kept = try cli.run("history", "--keep", "2")
        #expect(kept.status == 0 && kept.stdout.hasPrefix("keeping the newest 2 history entries\n"), "\(kept.stdout)")
        for position in 1...40 {
            #expect(try cli.run("move", "Trip:1", "--to", "Trip", "--at", "\(position % 3 + 1)").status == 0)
        }
        let entries = try json(try cli.run("--json", "history", "--limit", "100"))
        let count = (entries["entries"] as? [[String: Any]])?.count ?? 0
        // Counted once every 32 entries: never more than the kept count plus 31.
        #expect(count >= 2 && count <= 2 + 31, "\(count) entries kept")
        #expect(entries["kept_entries"] as? Int == 2)
        for bad in ["0", "1000001", "many"] {
            let result = try cli.run("history", "--keep", bad)
            #expect(result.status == 64, "--keep \(bad): \(result.stderr)")
        }
        #expect(try cli.run("history", "--limit", "0").status == 64)
        #expect(try cli.run("history", "Nowhere").status == 1)
    }
}
