import AlbumsTestSupport
import Foundation
import Testing

/// `albums photos`: every photo, in an album or not, newest first,
/// narrowed by the filters given, page by page, as text and JSON.
@Suite("albums photos")
struct PhotosCLITests {
    func files(_ result: CLI.Result, _ cli: CLI) throws -> [String?] {
        (try cli.json(result)["photos"] as? [[String: Any]] ?? []).map { $0["file"] as? String }
    }

    @Test("the example photos found by date, shape, format and album, and the ones in no album; pages follow --after")
    func findingExamples() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", CLI.examplePhotos + "/01-harbour.jpg", CLI.examplePhotos + "/02-market.png", CLI.examplePhotos + "/03-cliffs.webp", "--to", "Trip").status == 0)
        #expect(try cli.run("import", CLI.examplePhotos + "/11-forest.jpg").status == 0)

        // Newest first by capture date: forest (17 July), cliffs (15), market and harbour (14).
        let all = try cli.run("--json", "photos")
        #expect(try files(all, cli) == ["11-forest.jpg", "03-cliffs.webp", "02-market.png", "01-harbour.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--in-no-album"), cli) == ["11-forest.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--in", "Trip", "--format", "jpg"), cli) == ["01-harbour.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--taken", "2026-07-14"), cli) == ["02-market.png", "01-harbour.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--taken", "2026-07-15..2026-07-31", "--shape", "portrait"), cli) == ["11-forest.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--name", "MARKET"), cli) == ["02-market.png"])
        #expect(try files(try cli.run("--json", "photos", "--camera", "none such"), cli) == [])
        // More pixels than any number holds: no photo, and no crash.
        #expect(try files(try cli.run("--json", "photos", "--min-megapixels", "1e300"), cli) == [])
        #expect(try files(try cli.run("--json", "photos", "--limit", "\(Int.max)", "--in-no-album"), cli) == ["11-forest.jpg"])

        // Two at a time: the cursor of one page starts the next.
        let first = try cli.json(try cli.run("--json", "photos", "--limit", "2"))
        let next = try #require(first["next"] as? String)
        let second = try cli.run("--json", "photos", "--limit", "2", "--after", next)
        #expect(try files(second, cli) == ["02-market.png", "01-harbour.jpg"] && (try cli.json(second))["next"] is NSNull)

        let text = try cli.run("photos", "--limit", "3")
        #expect(text.status == 0 && text.stdout.hasPrefix("PHOTO"), "\(text.stdout)")
        #expect(text.stdout.contains("11-forest.jpg") && text.stdout.contains("(no album)") && text.stdout.contains("Trip"), "\(text.stdout)")
        #expect(text.stderr.contains("3 photos shown; more with --after "), "\(text.stderr)")
        #expect(try cli.run("photos", "--taken", "1999").stdout == "no photos found\n")

        // The months, and a list that starts at one of them.
        #expect(try cli.run("photos", "--months").stdout == "MONTH    PHOTOS  VIDEOS\n2026-07  4       0\n")
        let months = try #require(try cli.json(try cli.run("--json", "photos", "--months", "--in", "Trip"))["months"] as? [[String: Any]])
        #expect(months.count == 1 && months[0]["count"] as? Int == 3, "\(months)")
        let start = try #require(months[0]["start"] as? String)
        #expect(try files(try cli.run("--json", "photos", "--in", "Trip", "--after", start, "--limit", "1"), cli) == ["03-cliffs.webp"])
        #expect(try cli.run("photos", "--months", "--after", start).status == 64)

        // Every still, or every video: a clip (no capture date: after those with one) among the photos.
        try cli.writeMovie(to: cli.folder.path("clip.mp4"), milliseconds: 2_000)
        #expect(try cli.run("import", cli.folder.path("clip.mp4")).status == 0)
        #expect(try files(try cli.run("--json", "photos", "--format", "video"), cli) == ["clip.mp4"])
        #expect(try files(try cli.run("--json", "photos", "--format", "Videos"), cli) == ["clip.mp4"])
        #expect(try files(try cli.run("--json", "photos", "--format", "photo"), cli) == ["11-forest.jpg", "03-cliffs.webp", "02-market.png", "01-harbour.jpg"])
        #expect(try files(try cli.run("--json", "photos", "--format", "mp4"), cli) == ["clip.mp4"])
    }

    @Test("a bad filter is one line and exit 64 (a blank text filter too, which would find every photo); an album that is not there is not found")
    func refusals() throws {
        let cli = try CLI()
        try cli.run("init")
        let blank = [["--keyword", ""], ["--text", "  "], ["--name", "\t"], ["--format", ""], ["--camera", "\u{3000}"], ["--lens", "\n"]]
        for arguments in [["--taken", "July"], ["--taken", "2025-02-30"], ["--shape", "round"], ["--limit", "0"], ["--after", "x"],
                          ["--with-location", "--without-location"], ["--in", "A", "--in-no-album"], ["--min-megapixels", "-2"]] + blank {
            let refused = try cli.run(["photos"] + arguments)
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(arguments): \(refused.stderr)")
            // The error on its first line, then the usage hint every command's bad arguments get.
            #expect(refused.stderr.hasPrefix("Error: ") || refused.stderr.hasPrefix("albums: "), "\(arguments): \(refused.stderr)")
        }
        let dated = try cli.run("photos", "--taken", "July")
        #expect(dated.stderr.hasPrefix("albums: 'July' is not a date to search by"), "\(dated.stderr)")
        let empty = try cli.run("photos", "--keyword", "")
        #expect(empty.stderr.hasPrefix("albums: --keyword needs something to look for: leave it out to search every photo;"), "\(empty.stderr)")
        // Nor is a smart album saved with one.
        for arguments in blank {
            let refused = try cli.run(["album", "smart", "Everything"] + arguments)
            #expect(refused.status == 64 && refused.stderr.contains("\(arguments[0]) needs something to look for"), "\(arguments): \(refused.stderr)")
        }
        #expect(!(try cli.run("album", "list").stdout.contains("Everything")))
        let missing = try cli.run("photos", "--in", "Nowhere")
        #expect(missing.status != 0 && missing.stderr.contains("Nowhere"), "\(missing.stderr)")
    }

    @Test("a smart album lists its photos numbered, one date form in the column; ALBUM:N copies them out; a chosen cover is refused for what it is")
    func smartAlbumByPosition() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        #expect(try cli.run("import", CLI.examplePhotos, "--to", "Trip").status == 0)
        #expect(try cli.run("album", "smart", "July", "--taken", "2026-07").status == 0)
        let listed = try cli.run("list", "July")
        let rows = listed.stdout.split(separator: "\n").dropFirst(2)
        #expect(rows.first?.hasPrefix("1  id:") == true, "\(listed.stdout)")
        // 01-harbour says +02:00, 02-market has no offset: the column shows both to the minute.
        #expect(listed.stdout.contains("2026-07-14 09:12") && listed.stdout.contains("2026-07-14 11:40") && !listed.stdout.contains("T09:12"))
        let shown = try #require(try cli.json(try cli.run("--json", "list", "July"))["photos"] as? [[String: Any]]).map { $0["photo_id"] as? Int }
        try cli.run("album", "create", "Book")
        let copied = try cli.run("copy", "July:2-3", "--to", "Book")
        #expect(copied.status == 0, "\(copied.stderr)")
        let book = try #require(try cli.json(try cli.run("--json", "list", "Book"))["items"] as? [[String: Any]]).map { $0["photo_id"] as? Int }
        #expect(book == Array(shown[1...2]))
        #expect(try cli.run("move", "July:1", "--to", "Book").stderr.contains("nothing is put in, taken out or moved by hand"))
        let cover = try cli.run("--json", "album", "cover", "July", "id:1")
        #expect(cover.status == 1 && cover.stderr.contains(#""code":"smart_album_cover""#), "\(cover.stderr)")
    }

    @Test("photos that record no date come last, the last imported first, and --months counts them as no date, not under the month they were imported")
    func undatedLast() throws {
        let cli = try CLI()
        // One load at a time: the photos' ids, which order the undated, follow the files' order.
        #expect(try cli.run("import", CLI.examplePhotos, "--jobs", "1").status == 0)
        let found = try files(try cli.run("--json", "photos"), cli)
        // The example's four undated photos after the dated ones, the last imported first.
        let undated = ["10-meadow.webp", "07-scan.tiff", "06-map.gif", "04-lighthouse.webp"]
        #expect(Array(found.suffix(undated.count)) == undated.map(Optional.some), "\(found)")
        #expect(found.first == "11-forest.jpg")
        let months = try #require(try cli.json(try cli.run("--json", "photos", "--months"))["months"] as? [[String: Any]])
        #expect(months.map { $0["month"] as? String } == ["2026-07", ""] && months.last?["count"] as? Int == undated.count)
        let text = try cli.run("photos", "--months").stdout
        #expect(text.split(separator: "\n").last?.split(separator: " ") == ["no", "date", "\(undated.count)", "0"], "\(text)")
        // No month of an import holds them: each month counted is one --taken finds its photos in.
        for month in months.compactMap({ $0["month"] as? String }) where !month.isEmpty {
            #expect(try files(try cli.run("--json", "photos", "--taken", month), cli).count == months.first { $0["month"] as? String == month }?["count"] as? Int)
        }
    }
}
