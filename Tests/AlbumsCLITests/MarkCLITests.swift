import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// `albums mark` and `albums album describe`, run as a user runs them.
@Suite("Words and marks from the command line")
struct MarkCLITests {
    @Test("mark writes on items, list and show print it, --json carries it, a copy takes it along and undo takes it back")
    func markListShowUndo() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "--to", "Trip").status == 0)

        let marked = try cli.run("mark", "Trip:1-2", "--caption", "At the harbour\nin July", "--favorite", "--rating", "4", "--keyword", "family", "--keyword", "Family")
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(marked.stdout.hasPrefix("marked 2 items: caption, favourite, rating, keywords\n  Trip (revision"), "\(marked.stdout)")
        #expect(try cli.run("mark", "Trip:1", "--title", "Harbour", "--rating", "rejected", "--no-favorite").status == 0)

        let listed = try cli.run("list", "Trip").stdout.split(separator: "\n")
        #expect(listed[1].hasSuffix("01-harbour.jpg  rejected 'Harbour'"), "\(listed)")
        #expect(listed[2].hasSuffix("02-market.png  ♥ ★★★★"), "\(listed)")
        let shown = try cli.run("show", "Trip:1").stdout
        #expect(shown.contains("title      Harbour\ncaption    At the harbour\n           in July\nrating     rejected\nkeywords   family\n"), "\(shown)")

        let items = try #require(try cli.json(try cli.run("--json", "list", "Trip"))["items"] as? [[String: Any]])
        #expect(items[0]["title"] as? String == "Harbour" && items[0]["rating"] as? String == "rejected" && items[0]["favorite"] as? Bool == false)
        #expect(items[1]["title"] is NSNull && items[1]["rating"] as? Int == 4 && items[1]["favorite"] as? Bool == true)
        #expect(items[1]["keywords"] as? [String] == ["family"] && items[1]["caption"] as? String == "At the harbour\nin July")
        let item = try #require(try cli.json(try cli.run("--json", "show", "Trip:2"))["item"] as? [String: Any])
        #expect(item["rating"] as? Int == 4 && item["keywords"] as? [String] == ["family"])

        let favourites = try cli.run("photos", "--favorite")
        #expect(favourites.status == 0 && favourites.stdout.contains("02-market.png") && !favourites.stdout.contains("01-harbour.jpg"), "\(favourites.stdout)")
        #expect(try cli.run("photos", "--rejected").stdout.contains("01-harbour.jpg"))
        #expect(try cli.run("photos", "--text", "harbour", "--keyword", "FAMILY", "--min-rating", "4").stdout.contains("02-market.png"))
        #expect(try cli.run("photos", "--min-rating", "6").status == 64)
        #expect(try cli.run("copy", "Trip:2", "--to", "Book").status == 0)
        #expect(try cli.run("list", "Book").stdout.contains("02-market.png  ♥ ★★★★"), "a copy takes its item's marks along")
        #expect(try cli.run("undo").status == 0)
        let undone = try cli.run("undo")
        #expect(undone.stdout.hasPrefix("undid") && undone.stdout.contains("updated 1"), "\(undone.stdout)")
        #expect(try cli.run("list", "Trip").stdout.split(separator: "\n")[1].hasSuffix("01-harbour.jpg  ♥ ★★★★"))
        #expect(try cli.run("history", "--limit", "4").stdout.contains("mark 2 items in 'Trip': caption, favourite, rating, keywords"))
        #expect(try cli.run("check").status == 0)
    }

    @Test("export writes an XMP sidecar beside each marked file, which exiftool reads back; an export again drops a sidecar no longer needed")
    func exportSidecars() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "--to", "Book").status == 0)
        let caption = "Grandpa & the <boats>, \"Porto\"\nline two — é 🌅"
        #expect(try cli.run("mark", "Book:1", "--title", "Harbour", "--caption", caption, "--rating", "4", "--keyword", "family", "--keyword", "a/b & c").status == 0)
        #expect(try cli.run("mark", "Book:2", "--rating", "rejected").status == 0)
        let out = cli.folder.path("out")
        let exported = try cli.run("--json", "export", "Book", out)
        #expect(exported.status == 0, "\(exported.stderr)")
        let files = try #require(try cli.json(exported)["files"] as? [[String: Any]])
        #expect(files.map { $0["sidecar"] as? String } == ["001-01-harbour.jpg.xmp", "002-02-market.png.xmp"])
        let manifest = try String(contentsOfFile: out + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"sidecar\" : \"001-01-harbour.jpg.xmp\""))

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-n", "-XMP:Title", "-XMP:Description", "-XMP:Rating", "-XMP:Subject", out + "/001-01-harbour.jpg.xmp", out + "/002-02-market.png.xmp"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let read = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(read[0]["Title"] as? String == "Harbour")
        #expect(read[0]["Description"] as? String == caption)
        #expect(read[0]["Rating"] as? Int == 4)
        #expect(read[0]["Subject"] as? [String] == ["family", "a/b & c"])
        #expect(read[1]["Rating"] as? Int == -1 && read[1]["Title"] == nil, "rejected, as Lightroom and darktable write it")

        #expect(try cli.run("mark", "Book:2", "--rating", "none").status == 0)
        #expect(try cli.run("export", "Book", out).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/002-02-market.png.xmp"), "the earlier export's sidecar goes with the mark")
        #expect(FileManager.default.fileExists(atPath: out + "/001-01-harbour.jpg.xmp"))

        // What an export wrote, an import reads back: the sidecar beside each file.
        try cli.run("album", "create", "Again")
        let again = try cli.run("import", out, "--to", "Again")
        #expect(again.status == 0 && !(again.stdout + again.stderr).contains(".xmp"), "a sidecar is read with its photo, never skipped as a file: \(again.stdout)\(again.stderr)")
        let tree = try cli.run("--json", "import", out, "--tree", "--dry-run")
        #expect(!tree.stdout.contains(".xmp"), "\(tree.stdout)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Again"))["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items.first?["title"] as? String == "Harbour" && items.first?["caption"] as? String == caption)
        #expect(items.first?["rating"] as? Int == 4 && items.first?["keywords"] as? [String] == ["family", "a/b & c"])
        #expect(items.last?["rating"] is NSNull && items.last?["title"] is NSNull, "\(items)")
    }

    @Test("bad words and ratings are one line with their exit status, and nothing is written")
    func refusals() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", "\(CLI.examplePhotos)/01-harbour.jpg", "--to", "Trip").status == 0)
        let before = try cli.run("--json", "list", "Trip").stdout

        let control = try cli.run("mark", "Trip:1", "--caption", "bell\u{7}")
        #expect(control.status == 1 && control.stderr == "albums: invalid caption: it cannot contain U+0007, a control character\n", "\(control.stderr)")
        let json = try cli.run("--json", "mark", "Trip:1", "--title", "two\nlines")
        #expect(json.status == 1 && json.stderr.contains(#""code":"invalid_words""#), "\(json.stderr)")
        let rating = try cli.run("mark", "Trip:1", "--rating", "٣")
        #expect(rating.status == 64 && rating.stderr.contains("--rating takes 1 to 5, rejected or none"), "\(rating.stderr)")
        let nothing = try cli.run("mark", "Trip:1")
        #expect(nothing.status == 64 && nothing.stderr.contains("say what to write"), "\(nothing.stderr)")
        let missing = try cli.run("mark", "Trip:9", "--favorite")
        #expect(missing.status == 1 && missing.stderr.contains("position 9 is out of range"), "\(missing.stderr)")
        let dry = try cli.run("mark", "Trip:1", "--favorite", "--dry-run")
        #expect(dry.status == 0 && dry.stdout.hasPrefix("dry run, nothing written: marked 1 item: favourite"), "\(dry.stdout)")
        #expect(try cli.run("--json", "list", "Trip").stdout == before)
    }

    @Test("album describe writes, shows, clears and undoes an album's description; album list --json carries it")
    func describe() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Book")
        #expect(try cli.run("album", "describe", "Book").stdout == "'Book' has no description\n")
        let written = try cli.run("album", "describe", "Book", "Grandpa's 80th\nin Porto")
        #expect(written.status == 0 && written.stdout.hasPrefix("described 'Book'"), "\(written.stdout) \(written.stderr)")
        #expect(try cli.run("album", "describe", "Book").stdout == "Grandpa's 80th\nin Porto\n")
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        #expect(albums.first?["description"] as? String == "Grandpa's 80th\nin Porto")
        #expect(try cli.run("album", "describe", "Book", "--clear").status == 0)
        #expect(try cli.json(try cli.run("--json", "album", "describe", "Book"))["description"] is NSNull)
        #expect(try cli.run("undo").status == 0)
        #expect(try cli.run("album", "describe", "Book").stdout == "Grandpa's 80th\nin Porto\n")
        let both = try cli.run("album", "describe", "Book", "Text", "--clear")
        #expect(both.status == 64, "\(both.stderr)")
    }
}
