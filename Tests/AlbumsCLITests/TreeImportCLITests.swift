import AlbumsTestSupport
import Foundation
import Testing

/// `albums import ROOT --tree`: a folder tree becomes folders and albums,
/// each album in name (or capture-date) order; importing again adds only
/// what is new.
@Suite("import --tree", .serialized)
struct TreeImportCLITests {
    /// A tree of example photos:
    ///
    ///     Travel/scan.tiff
    ///     Travel/2024/sunset.heic
    ///     Travel/2024/Summer/IMG_10.jpg, IMG_2.png, IMG_1.webp
    ///     Travel/2024/Winter/Überfahrt.webp
    ///     Travel/Notes/notes.txt          (no photos: left out)
    func travel(_ cli: CLI) throws -> String {
        let root = cli.folder.path("Pictures/Travel")
        let files = [
            ("07-scan.tiff", "scan.tiff"), ("05-sunset.heic", "2024/sunset.heic"), ("01-harbour.jpg", "2024/Summer/IMG_10.jpg"),
            ("02-market.png", "2024/Summer/IMG_2.png"), ("10-meadow.webp", "2024/Summer/IMG_1.webp"),
            ("03-cliffs.webp", "2024/Winter/Überfahrt.webp"), ("09-notes.txt", "Notes/notes.txt"),
        ]
        for (example, path) in files { try cli.copyExample(example, to: root + "/" + path) }
        return root
    }

    @Test("a tree becomes folders and albums in name order; folders without photos and files that are not photos are left out")
    func makesTheTree() throws {
        let cli = try CLI()
        let root = try travel(cli)
        let result = try cli.run("import", root, "--tree")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 6 photos: 2 new folders, 4 new albums"), "\(result.stdout)")
        #expect(result.stdout.contains("skipped  \(root)/Notes: no photos in it"), "\(result.stdout)")
        #expect(
            try cli.albumsByPath() == [
                "Travel/Travel": ["scan.tiff"], "Travel/2024/2024": ["sunset.heic"],
                "Travel/2024/Summer": ["IMG_1.webp", "IMG_2.png", "IMG_10.jpg"], "Travel/2024/Winter": ["Überfahrt.webp"],
            ])
        #expect(try cli.run("check").status == 0)
    }

    @Test("an application's own folders make no albums: a Photos library, a Lightroom previews cache, Synology's thumbnails, a recycle bin; the report names each")
    func junkFolders() throws {
        let cli = try CLI()
        let root = cli.folder.path("Pictures")
        try cli.copyExample("01-harbour.jpg", to: root + "/Rom/a.jpg")
        for junk in ["Fotos.photoslibrary/originals/A", "Catalog Smart Previews.lrdata/1", "Rom/@eaDir/a.jpg", "#recycle", "$RECYCLE.BIN"] {
            try cli.copyExample("02-market.png", to: root + "/" + junk + "/copy.png")
        }
        let result = try cli.run("import", root, "--tree")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.albumsByPath() == ["Pictures/Rom": ["a.jpg"]])
        for (junk, what) in [("Fotos.photoslibrary", "an Apple Photos library"), ("Catalog Smart Previews.lrdata", "a Lightroom cache of previews"),
                             ("Rom/@eaDir", "Synology's thumbnails"), ("#recycle", "a recycle bin"), ("$RECYCLE.BIN", "a recycle bin")] {
            #expect(result.stdout.contains("skipped  \(root)/\(junk): \(what)"), "\(junk): \(result.stdout)")
        }
    }

    @Test("importing again adds only what is new, at the end of each album it made, and says so")
    func again() throws {
        let cli = try CLI()
        let root = try travel(cli)
        try cli.run("import", root, "--tree")
        // Arranged by hand since: the order stays.
        try cli.run("move", "Summer:3", "--to", "Summer", "--at", "1")
        let nothing = try cli.run("import", root, "--tree")
        #expect(nothing.status == 0 && nothing.stdout.hasPrefix("nothing new: 4 albums found, 6 photos there from before"), "\(nothing.stdout)")

        try cli.copyExample("06-map.gif", to: root + "/2024/Summer/IMG_0.gif")
        try cli.copyExample("04-lighthouse.webp", to: root + "/2025/lighthouse.webp")
        let more = try cli.json(try cli.run("--json", "import", root, "--tree"))
        let nodes = try #require(more["nodes"] as? [[String: Any]])
        let summer = try #require(nodes.first { $0["path"] as? String == "Travel/2024/Summer" })
        #expect(summer["new"] as? Bool == false && summer["imported"] as? Int == 1 && summer["already_there"] as? Int == 3)
        let made = nodes.filter { $0["new"] as? Bool == true }.compactMap { $0["path"] as? String }
        #expect(made == ["Travel/2025"], "\(nodes)")
        let after = try cli.albumsByPath()
        #expect(after["Travel/2024/Summer"] == ["IMG_10.jpg", "IMG_1.webp", "IMG_2.png", "IMG_0.gif"])
        #expect(after["Travel/2025"] == ["lighthouse.webp"])
        #expect(after.count == 5)
    }

    @Test("--dry-run prints the tree and writes nothing; --into puts it in a folder; --order capture-date orders the new albums")
    func dryRunIntoAndOrder() throws {
        let cli = try CLI()
        let root = try travel(cli)
        try cli.run("folder", "create", "Family")
        let dry = try cli.run("import", root, "--tree", "--into", "Family", "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("would import 6 photos into 'Family': 2 new folders, 4 new albums"), "\(dry.stdout)")
        #expect(dry.stdout.contains("      Summer  (new album: 3 to import)"), "\(dry.stdout)")
        #expect(try cli.albumsByPath().isEmpty, "a dry run writes nothing")

        let result = try cli.run("import", root, "--tree", "--into", "Family", "--order", "capture-date")
        #expect(result.status == 0, "\(result.stderr)")
        // harbour 09:12+02:00 and market 11:40 on the 14th; meadow has no date: last.
        #expect(try cli.albumsByPath()["Family/Travel/2024/Summer"] == ["IMG_10.jpg", "IMG_2.png", "IMG_1.webp"])
    }

    @Test("an album name taken elsewhere is named after its parent too, and found again under that name")
    func takenNames() throws {
        let cli = try CLI()
        let root = try travel(cli)
        try cli.run("album", "create", "Summer")
        try cli.run("import", root, "--tree")
        try cli.copyExample("06-map.gif", to: root + "/2024/Summer/IMG_0.gif")
        try cli.run("import", root, "--tree")
        let albums = try cli.albumsByPath()
        #expect(albums["Summer"] == [])
        #expect(albums["Travel/2024/Summer (2024)"] == ["IMG_1.webp", "IMG_2.png", "IMG_10.jpg", "IMG_0.gif"])
    }

    @Test("a root that is not a folder, a missing --into folder and --tree with --to are refused with one line, writing nothing")
    func refusals() throws {
        let cli = try CLI()
        let root = try travel(cli)
        try cli.run("album", "create", "Trip")
        let file = try cli.run("import", root + "/scan.tiff", "--tree")
        #expect(file.status == 1 && file.stderr.contains("is not a folder") && file.stderr.split(separator: "\n").count == 1, "\(file.stderr)")
        let missing = try cli.run("import", root, "--tree", "--into", "Nowhere")
        #expect(missing.status == 1 && missing.stderr.contains("Nowhere"), "\(missing.stderr)")
        let mixed = try cli.run("import", root, "--tree", "--to", "Trip")
        #expect(mixed.status == 64 && mixed.stderr.contains("--into FOLDER"), "\(mixed.stderr)")
        #expect(try cli.albumsByPath() == ["Trip": []])
    }
}
