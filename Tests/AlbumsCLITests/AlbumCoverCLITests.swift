import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// `albums album cover`, run as a user runs it.
@Suite("Album covers from the command line")
struct AlbumCoverCLITests {
    @Test("album cover shows the first photo, chooses one by position or id, keeps it through a move, loses it with its photo, and undo brings it back")
    func chooseAndKeep() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        #expect(try cli.run("import", "\(photos)/01-harbour.jpg", "\(photos)/02-market.png", "\(photos)/03-cliffs.webp", "--to", "Trip").status == 0)
        let ids = (try cli.json(try cli.run("--json", "list", "Trip"))["items"] as? [[String: Any]] ?? []).map { $0["photo_id"] as? Int ?? 0 }
        let shown = try cli.run("album", "cover", "Trip")
        #expect(shown.stdout == "cover of 'Trip': position 1, id:\(ids[0]) (its first photo)\n", "\(shown.stdout) \(shown.stderr)")
        #expect(try cli.run("album", "cover", "Book").stdout == "'Book' holds no photo yet: its first photo will be its cover\n")
        let empty = try cli.json(try cli.run("--json", "album", "cover", "Book"))
        #expect(empty["cover"] is NSNull && empty["album"] as? String == "Book")

        let chosen = try cli.run("album", "cover", "Trip", "Trip:3")
        #expect(chosen.status == 0 && chosen.stdout.hasPrefix("the cover of 'Trip' is Trip:3"), "\(chosen.stdout) \(chosen.stderr)")
        #expect(try cli.run("move", "Trip:3", "--to", "Trip", "--at", "1").status == 0)
        let json = try cli.json(try cli.run("--json", "album", "cover", "Trip"))
        let cover = try #require(json["cover"] as? [String: Any])
        #expect(cover["photo_id"] as? Int == ids[2] && cover["position"] as? Int == 1 && cover["chosen"] as? Bool == true, "\(cover)")

        #expect(try cli.run("remove", "Trip:1").status == 0)
        #expect(try cli.run("album", "cover", "Trip").stdout.hasSuffix("(its first photo)\n"))
        #expect(try cli.run("undo").status == 0)
        #expect(try cli.run("album", "cover", "Trip").stdout == "cover of 'Trip': position 1, id:\(ids[2]) (chosen)\n")

        let written = try cli.json(try cli.run("--json", "album", "cover", "Trip", "--first"))
        #expect(written["verdict"] as? String == "cover_changed")
        #expect((written["changes"] as? [[String: Any]])?.first?["album_events"] as? [String] == ["cover_changed"])
        #expect(try cli.run("history", "--limit", "1").stdout.contains("show the first photo as the cover of album 'Trip'"))
        #expect(try cli.run("check").status == 0)
    }

    @Test("a photo of another album, a range, or a photo with --first is refused in one line, writing nothing")
    func refusals() throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("album", "create", "Book")
        let photos = CLI.examplePhotos
        try cli.run("import", "\(photos)/01-harbour.jpg", "--to", "Trip")
        try cli.run("import", "\(photos)/02-market.png", "--to", "Book")
        let history = try cli.run("history").stdout

        let elsewhere = try cli.run("album", "cover", "Trip", "Book:1")
        #expect(elsewhere.status == 1 && elsewhere.stderr == "albums: photo id:2 is not in album 'Trip': a cover is one of the album's own photos\n")
        let range = try cli.run("album", "cover", "Trip", "Trip:1-2")
        #expect(range.status == 64 && range.stderr.split(separator: "\n").count == 1, "\(range.stderr)")
        let both = try cli.run("album", "cover", "Trip", "Trip:1", "--first")
        #expect(both.status == 64 && both.stderr.contains("give a photo or --first, not both"))
        let missing = try cli.run("album", "cover", "Nowhere")
        #expect(missing.status == 1 && missing.stderr.hasPrefix("albums: no album named 'Nowhere'"))
        let dry = try cli.run("album", "cover", "Trip", "Trip:1", "--dry-run")
        #expect(dry.status == 0 && dry.stdout.hasPrefix("dry run, nothing written"))
        #expect(try cli.run("history").stdout == history)
    }
}
