import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// Each command's output, text and JSON, exactly: what a person reads and
/// what a script parses. One scenario, step by step.
@Suite("Exact output of every command")
struct ExactOutputTests {
    /// Runs a command and expects its stdout (and exit status) exactly.
    func expectOutput(_ cli: CLI, _ arguments: [String], _ expected: String, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try cli.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == expected, "\(arguments)", sourceLocation: sourceLocation)
    }

    /// Runs a command with --json and expects its stdout to be `expected` as JSON (any formatting).
    func expectJSON(_ cli: CLI, _ arguments: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try cli.run(["--json"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        let parse = { (text: String) in try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary }
        #expect(try parse(result.stdout) == parse(expected), "\(arguments): \(result.stdout)", sourceLocation: sourceLocation)
    }

    @Test("folders: every folder command and the tree, text and JSON, refusals with their exit status")
    func folders() throws {
        let cli = try CLI()
        try expectOutput(cli, ["album", "create", "Book"], "created album 'Book' at position 1\n")
        try expectOutput(cli, ["folder", "create", "Travel", "--at", "1"], "created folder 'Travel'\n")
        try expectOutput(cli, ["folder", "create", "Travel/2026"], "created folder 'Travel/2026'\n")
        try expectOutput(cli, ["album", "create", "Lisbon", "--into", "Travel/2026"], "created album 'Lisbon' at position 1\n")
        try expectOutput(cli, ["album", "create", "Porto", "--after", "Travel/2026"], "created album 'Porto' at position 2\n")
        try expectOutput(cli, ["album", "list", "--tree"], """
            #  NAME        ITEMS  PENDING  STATE
            1  Travel/
            1    2026/
            1      Lisbon  0
            2    Porto     0
            2  Book        0

            """)
        try expectOutput(cli, ["album", "list"], """
            ALBUM   ITEMS  PENDING  STATE  FOLDER
            Lisbon  0                      Travel/2026
            Porto   0                      Travel
            Book    0                      /

            """)
        try expectJSON(cli, ["album", "list", "--tree"], #"""
            {"albums": [
              {"count": 0, "description": null, "id": 2, "locked": false, "name": "Lisbon", "parent_id": 2, "pending": 0, "position": 1, "revision": 1, "smart": false, "videos": 0},
              {"count": 0, "description": null, "id": 3, "locked": false, "name": "Porto", "parent_id": 1, "pending": 0, "position": 2, "revision": 1, "smart": false, "videos": 0},
              {"count": 0, "description": null, "id": 1, "locked": false, "name": "Book", "parent_id": null, "pending": 0, "position": 2, "revision": 1, "smart": false, "videos": 0}],
             "folders": [
              {"id": 1, "locked": false, "name": "Travel", "parent_id": null, "path": "Travel", "position": 1, "revision": 3},
              {"id": 2, "locked": false, "name": "2026", "parent_id": 1, "path": "Travel/2026", "position": 1, "revision": 2}]}
            """#)
        try expectOutput(cli, ["folder", "list"], """
            FOLDER       STATE
            Travel
            Travel/2026

            """)
        try expectJSON(cli, ["album", "move", "Book", "--into", "Travel/2026", "--at", "1"], #"""
            {"changes": [{"album": "Book", "album_id": 1, "album_events": ["moved"], "inserted": [], "inserted_items": [], "moved": [],
              "removed": [], "removed_items": [], "revision": 2, "updated": [], "updated_items": []}],
             "dry_run": false, "folder_changes": [{"events": ["rearranged"], "folder": "2026", "folder_id": 2, "revision": 3}], "verdict": "moved"}
            """#)
        try expectOutput(cli, ["folder", "move", "Travel/2026", "--into", "/"], "moved folder 'Travel/2026' to the top level\n")
        try expectOutput(cli, ["folder", "rename", "2026", "Portugal"], "renamed folder '2026' to 'Portugal'\n")
        try expectOutput(cli, ["list", "Portugal/Lisbon"], "Lisbon: 0 items, revision 1\n")
        // Refusals: exit 1, one line, nothing written.
        let intoItself = try cli.run(["folder", "move", "Travel", "--into", "Travel"])
        #expect(intoItself.status == 1)
        #expect(intoItself.stderr == "albums: folder 'Travel' cannot go into 'Travel': a folder cannot go into itself or a folder inside it\n")
        let notEmpty = try cli.run(["--json", "folder", "delete", "Portugal"])
        #expect(notEmpty.status == 1)
        #expect(notEmpty.stderr.contains(#""code":"folder_not_empty""#))
        let usage = try cli.run(["folder", "delete", "Portugal", "--move-contents", "--delete-albums"])
        #expect(usage.status == 64)
        try expectOutput(cli, ["folder", "delete", "Portugal", "--move-contents"], "deleted folder 'Portugal'\n")
        try expectOutput(cli, ["album", "list", "--tree"], """
            #  NAME     ITEMS  PENDING  STATE
            1  Travel/
            1    Porto  0
            2  Book     0
            3  Lisbon   0

            """)
        try expectOutput(cli, ["check"], "ok: every invariant holds\n")
        try expectOutput(cli, ["undo"], """
            undid #9: delete folder 'Portugal', its contents moved up
              Book (revision 4): album moved
              Lisbon (revision 3): album moved

            """)
    }

    @Test("a session of every writing and reading command, text and JSON")
    func session() throws {
        let cli = try CLI()
        let photos = CLI.examplePhotos
        try expectOutput(cli, ["album", "create", "Trip"], "created album 'Trip' at position 1\n")
        try expectJSON(cli, ["album", "create", "Book", "--at", "1"],
            #"{"album": {"count": 0, "description": null, "id": 2, "locked": false, "name": "Book", "parent_id": null, "pending": 0, "position": 1, "revision": 1, "smart": false, "videos": 0}, "dry_run": false}"#)
        try expectOutput(cli, ["import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "\(photos)/03-cliffs.webp", "--to", "Trip", "--jobs", "1"],
            "imported 3 files into 'Trip' at positions 1–3\n")
        try expectOutput(cli, ["album", "list"], """
            #  ALBUM  ITEMS  PENDING  STATE
            1  Book   0
            2  Trip   3

            """)
        try expectJSON(cli, ["album", "list"], #"""
            {"albums": [{"count": 0, "description": null, "id": 2, "locked": false, "name": "Book", "parent_id": null, "pending": 0, "position": 1, "revision": 1, "smart": false, "videos": 0},
                        {"count": 3, "description": null, "id": 1, "locked": false, "name": "Trip", "parent_id": null, "pending": 0, "position": 2, "revision": 5, "smart": false, "videos": 0}], "folders": []}
            """#)
        try expectOutput(cli, ["list", "Trip"], """
            Trip: 3 items, revision 5
              1  id:1     jpeg  640×427    2026-07-14 09:12  01-harbour.jpg
              2  id:2     png   512×384    2026-07-14 11:40  02-market.png
              3  id:3     webp  600×400    2026-07-15 16:03  03-cliffs.webp

            """)
        try expectJSON(cli, ["list", "Trip"], #"""
            {"album": {"count": 3, "description": null, "id": 1, "locked": false, "name": "Trip", "parent_id": null, "pending": 0, "position": 2, "revision": 5, "smart": false, "videos": 0}, "items": [
             {"title": null, "caption": null, "favorite": false, "rating": null, "keywords": [], "byte_count": 10732, "captured_at": "2026-07-14T09:12:00+02:00", "display_height": 427, "display_width": 640, "duration": null, "live_photo": false, "motion_duration": null, "file": "01-harbour.jpg", "item_id": 1, "media_type": "image/jpeg", "orientation": 1,
              "photo_id": 1, "pixel_height": 427, "pixel_width": 640, "placeholder_id": null, "position": 1,
              "sha256": "276d3f51db0f0c122c036e10ed7e28d29f0854d5ab3fc3b1146c1680a8f1c2d0", "source": "PHOTOS/01-harbour.jpg", "stale": null},
             {"title": null, "caption": null, "favorite": false, "rating": null, "keywords": [], "byte_count": 11317, "captured_at": "2026-07-14T11:40:05", "display_height": 384, "display_width": 512, "duration": null, "live_photo": false, "motion_duration": null, "file": "02-market.png", "item_id": 2, "media_type": "image/png", "orientation": 1,
              "photo_id": 2, "pixel_height": 384, "pixel_width": 512, "placeholder_id": null, "position": 2,
              "sha256": "2866982a9f2f214ae96cd24c3a6b46b1bcf51a8be14b8579de399586d281c219", "source": "PHOTOS/02-market.png", "stale": null},
             {"title": null, "caption": null, "favorite": false, "rating": null, "keywords": [], "byte_count": 2318, "captured_at": "2026-07-15T16:03:27+02:00", "display_height": 400, "display_width": 600, "duration": null, "live_photo": false, "motion_duration": null, "file": "03-cliffs.webp", "item_id": 3, "media_type": "image/webp", "orientation": 1,
              "photo_id": 3, "pixel_height": 400, "pixel_width": 600, "placeholder_id": null, "position": 3,
              "sha256": "363cb890a3058196f64f4420df76952a155ff744900d560252e20676848a6382", "source": "PHOTOS/03-cliffs.webp", "stale": null}]}
            """#.replacingOccurrences(of: "PHOTOS", with: photos))
        try expectOutput(cli, ["move", "Trip:3", "--to", "Trip", "--at", "1"], "moved 1 item\n  Trip (revision 6): moved 3→1\n")
        try expectJSON(cli, ["copy", "Trip:1-2", "--to", "Book"], #"""
            {"changes": [{"album": "Book", "album_id": 2, "album_events": [], "inserted": [1, 2], "inserted_items": [4, 5], "moved": [],
                          "removed": [], "removed_items": [], "revision": 2, "updated": [], "updated_items": []}],
             "dry_run": false, "folder_changes": [], "verdict": "copy"}
            """#)
        try expectOutput(cli, ["swap", "Trip:1", "Trip:3"], "swapped 2 items\n  Trip (revision 7): moved 1→3, 3→1\n")
        try expectJSON(cli, ["move", "Trip:1", "--to", "Book", "--at", "2", "--dry-run"], #"""
            {"changes": [{"album": "Trip", "album_id": 1, "album_events": [], "inserted": [], "inserted_items": [], "moved": [],
                          "removed": [1], "removed_items": [2], "revision": 8, "updated": [], "updated_items": []},
                         {"album": "Book", "album_id": 2, "album_events": [], "inserted": [2], "inserted_items": [2], "moved": [],
                          "removed": [], "removed_items": [], "revision": 3, "updated": [], "updated_items": []}],
             "dry_run": true, "folder_changes": [], "verdict": "move"}
            """#)
        try expectOutput(cli, ["remove", "Book:2"], "removed 1 item\n  Book (revision 3): removed 2\n")
        try expectOutput(cli, ["album", "rename", "Book", "Photo book"], "renamed 'Book' to 'Photo book'\n")
        try expectJSON(cli, ["album", "lock", "Trip"], #"""
            {"changes": [{"album": "Trip", "album_id": 1, "album_events": ["locked"], "inserted": [], "inserted_items": [], "moved": [],
                          "removed": [], "removed_items": [], "revision": 8, "updated": [], "updated_items": []}],
             "dry_run": false, "folder_changes": [], "verdict": "locked"}
            """#)
        try expectOutput(cli, ["album", "unlock", "Trip"], "unlocked album 'Trip'\n")
        try expectOutput(cli, ["album", "sort", "Trip", "--by", "name"], "sorted album 'Trip' by name\n  Trip (revision 10): moved 1→2, 2→1\n")
        try expectOutput(cli, ["album", "move", "Trip", "--to", "1"], "moved album 'Trip' to position 1\n")
        let batch = cli.folder.path("batch.jsonl")
        try Data("{\"op\": \"move\", \"items\": [\"Trip:2\"], \"to\": \"Photo book\", \"at\": 1}\n\n{\"op\": \"swap\", \"items\": [\"Trip:1\", \"Trip:2\"]}\n".utf8)
            .write(to: URL(fileURLWithPath: batch))
        try expectOutput(cli, ["apply", batch], """
            applied 2 operations in one transaction
              1. Trip (revision 12): removed 2
              1. Photo book (revision 5): inserted 1
              2. Trip (revision 12): moved 1→2, 2→1

            """)
        try expectOutput(cli, ["pending"], "no pending loads\n")
        try expectJSON(cli, ["pending"], #"{"pending": []}"#)
        try expectOutput(cli, ["check"], "ok: every invariant holds\n")
        try expectJSON(cli, ["check"], #"{"notes": [], "ok": true, "repaired": [], "violations": []}"#)
        try expectJSON(cli, ["init"], #"{"library": "\#(cli.libraryPath)", "schema_version": \#(EmbeddedMigrations.latestVersion)}"#)
        try expectOutput(cli, ["album", "delete", "Photo book"], "deleted album 'Photo book'\n  Photo book (revision 6): removed 1–2\n")
        let refused = try cli.run("--json", "move", "Trip:9", "--to", "Trip")
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr == #"{"error":{"code":"position_out_of_range","message":"position 9 is out of range for album 'Trip': valid positions are 1…2"}}"# + "\n")
        let text = try cli.run("move", "Trip:9", "--to", "Trip")
        #expect(text.stderr == "albums: position 9 is out of range for album 'Trip': valid positions are 1…2\n")
        #expect(try cli.run("--version").stdout == "0.2.0" + "\n")
    }
}
