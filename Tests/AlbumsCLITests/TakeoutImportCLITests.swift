import AlbumsTestSupport
import Foundation
import Testing

/// `albums import --from takeout Takeout`: album folders by their titles,
/// photos matched with their sidecars (truncated and numbered names too),
/// in capture-time order, which the report says was inferred.
@Suite("import --from takeout", .serialized)
struct TakeoutImportCLITests {
    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A sidecar as Takeout writes one: the file's title and when it was taken, `minutes` after 2024-07-14 12:00 UTC.
    func sidecar(_ title: String, minutes: Int, at path: String) throws {
        try write(#"{"title": "\#(title)", "photoTakenTime": {"timestamp": "\#(1_720_958_400 + minutes * 60)", "formatted": "14 Jul 2024"}}"#, to: path)
    }

    func files(_ cli: CLI, _ album: String) throws -> [String?] {
        (try cli.json(try cli.run("--json", "list", album))["items"] as? [[String: Any]] ?? []).map { $0["file"] as? String }
    }

    @Test("album folders by their titles, in the capture-time order of their sidecars, whatever names Takeout gave the sidecars")
    func sidecarsAndOrder() throws {
        let cli = try CLI()
        let photos = cli.folder.path("Takeout/Google Photos")
        let album = photos + "/Sommer in Rom"
        let long = "a_very_long_file_name_that_google_truncates_2024.webp"
        try write(#"{"title": "Sommer in Rom ☀️", "date": {"timestamp": "1720958400"}}"#, to: album + "/metadata.json")
        try cli.copyExample("01-harbour.jpg", to: album + "/IMG_0002.jpg")
        try sidecar("IMG_0002.jpg", minutes: 30, at: album + "/IMG_0002.jpg.json")
        try cli.copyExample("02-market.png", to: album + "/IMG_0001.png")
        try sidecar("IMG_0001.png", minutes: 60, at: album + "/IMG_0001.png.supplemental-metadata.json")
        try cli.copyExample("03-cliffs.webp", to: album + "/" + long)
        try sidecar(long, minutes: 0, at: album + "/" + String(long.prefix(46)) + ".json")
        try cli.copyExample("11-forest.jpg", to: album + "/IMG_0003(1).jpg")
        try sidecar("IMG_0003.jpg", minutes: 90, at: album + "/IMG_0003.jpg(1).json")
        try cli.copyExample("10-meadow.webp", to: album + "/Wiese.webp")  // the file records no capture date
        try sidecar("Wiese.webp", minutes: 10, at: album + "/renamed-by-takeout.json")
        try write("not a photo", to: album + "/clip.mp4")
        // An MP4: an ftyp box, as a HEIC has, but with a video's brands.
        try cli.writeMovie(to: album + "/VID_0001.mp4")
        try cli.copyExample("06-map.gif", to: photos + "/Ohne Titel/Karte.gif")
        try cli.copyExample("01-harbour.jpg", to: photos + "/Photos from 2024/IMG_0002.jpg")
        try cli.copyExample("04-lighthouse.webp", to: photos + "/Photos from 2024/Leuchtturm.webp")

        let result = try cli.run("import", "--from", "takeout", cli.folder.path("Takeout"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The video by its bytes comes in with the photos (undated, last); the file named .mp4 that is none by its bytes does not.
        #expect(try files(cli, "Sommer in Rom ☀️") == [long, "Wiese.webp", "IMG_0002.jpg", "IMG_0001.png", "IMG_0003(1).jpg", "VID_0001.mp4"])
        #expect(try files(cli, "Ohne Titel") == ["Karte.gif"])
        #expect(result.stdout.contains("the catalog keeps no order: each album is in capture-time order"), "\(result.stdout)")
        #expect(result.stdout.contains("not carried: 1 other files") && !result.stdout.contains("videos"), "\(result.stdout)")
        // The year folder's photo in no album comes into the library, in no album; its copy of an album's photo does not.
        #expect(result.stderr.contains("1 photo in no album in Google Photos came into the library, in no album"), "\(result.stderr)")
        let loose = try cli.json(try cli.run("--json", "photos", "--in-no-album"))["photos"] as? [[String: Any]]
        #expect(loose?.compactMap { $0["file"] as? String } == ["Leuchtturm.webp"])
        // The sidecar's time where the file has none; the file's own where it has one.
        #expect(try cli.run("show", "Sommer in Rom ☀️:2").stdout.contains("captured   2024-07-14T12:10:00+00:00"))
        #expect(try cli.run("show", "Sommer in Rom ☀️:3").stdout.contains("captured   2026-07-14T09:12:00+02:00"))
        #expect(try cli.run("import", "--from", "takeout", cli.folder.path("Takeout")).stdout.hasPrefix("nothing new"))
        let everything = try cli.json(try cli.run("--json", "photos"))["photos"] as? [Any]
        #expect(everything?.count == 8, "again: nothing twice")
    }

    @Test("a sidecar's description becomes its item's caption, and a star its favourite; an album's description the album's; found by them")
    func descriptionsAndStars() throws {
        let cli = try CLI()
        let album = cli.folder.path("Takeout/Google Photos/Lisboa")
        try write(#"{"title": "Lisboa", "description": "Três dias\u0007 em Lisboa"}"#, to: album + "/metadata.json")
        try cli.copyExample("01-harbour.jpg", to: album + "/IMG_1.jpg")
        try write(
            #"{"title": "IMG_1.jpg", "description": "  O elétrico 28\nna Graça  ", "favorited": true, "photoTakenTime": {"timestamp": "1720958400"}}"#,
            to: album + "/IMG_1.jpg.json")
        try cli.copyExample("02-market.png", to: album + "/IMG_2.png")
        try write(#"{"title": "IMG_2.png", "description": "", "photoTakenTime": {"timestamp": "1720962000"}}"#, to: album + "/IMG_2.png.json")
        let result = try cli.run("import", "--from", "takeout", cli.folder.path("Takeout"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Lisboa"))["items"] as? [[String: Any]])
        #expect(items.first?["caption"] as? String == "O elétrico 28\nna Graça" && items.first?["favorite"] as? Bool == true, "\(items)")
        #expect(items.last?["caption"] is NSNull && items.last?["favorite"] as? Bool == false)
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        #expect(albums.first?["description"] as? String == "Três dias em Lisboa", "the album's own description, mended: \(albums)")
        let found = try #require(try cli.json(try cli.run("--json", "photos", "--favorite", "--text", "elétrico"))["photos"] as? [[String: Any]])
        #expect(found.compactMap { $0["file"] as? String } == ["IMG_1.jpg"])
    }

    @Test("--albums-only leaves the photos in no album out")
    func albumsOnly() throws {
        let cli = try CLI()
        let photos = cli.folder.path("Takeout/Google Photos")
        try write(#"{"title": "Rom"}"#, to: photos + "/Rom/metadata.json")
        try cli.copyExample("01-harbour.jpg", to: photos + "/Rom/a.jpg")
        try cli.copyExample("04-lighthouse.webp", to: photos + "/Photos from 2024/b.webp")
        let result = try cli.run("import", "--from", "takeout", cli.folder.path("Takeout"), "--albums-only")
        #expect(result.status == 0 && !result.stderr.contains("in no album"), "\(result.stderr)")
        #expect((try cli.json(try cli.run("--json", "photos"))["photos"] as? [Any])?.count == 1)
    }

    @Test("what the owner threw away stays out: photos whose sidecar says trashed, and the trash's folder, by its name or in any language by its contents")
    func trashStaysOut() throws {
        let cli = try CLI()
        let photos = cli.folder.path("Takeout/Google Photos")
        func trashedSidecar(_ title: String, at path: String) throws {
            try write(#"{"title": "\#(title)", "trashed": true, "photoTakenTime": {"timestamp": "1720958400"}}"#, to: path)
        }
        try write(#"{"title": "Rom"}"#, to: photos + "/Rom/metadata.json")
        try cli.copyExample("01-harbour.jpg", to: photos + "/Rom/a.jpg")
        try sidecar("a.jpg", minutes: 0, at: photos + "/Rom/a.jpg.json")
        try cli.copyExample("02-market.png", to: photos + "/Rom/b.png")
        try trashedSidecar("b.png", at: photos + "/Rom/b.png.json")
        try cli.copyExample("03-cliffs.webp", to: photos + "/Trash/c.webp")
        try cli.copyExample("04-lighthouse.webp", to: photos + "/Papierkorb/d.webp")
        try trashedSidecar("d.webp", at: photos + "/Papierkorb/d.webp.json")
        try cli.copyExample("05-sunset.heic", to: photos + "/Cestino/e.heic")
        try trashedSidecar("e.heic", at: photos + "/Cestino/e.heic.json")
        // An album its owner named "Trash" has an album's metadata: it is theirs.
        try write(#"{"title": "Trash"}"#, to: photos + "/Trash(1)/metadata.json")
        try cli.copyExample("06-map.gif", to: photos + "/Trash(1)/f.gif")

        let result = try cli.run("import", "--from", "takeout", cli.folder.path("Takeout"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try files(cli, "Rom") == ["a.jpg"])
        #expect(try files(cli, "Trash") == ["f.gif"])
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(albums.sorted() == ["Rom", "Trash"], "no album of a trash: \(albums)")
        #expect(result.stdout.contains("4 photos in the trash"), "\(result.stdout)")
    }

    @Test("a Takeout in another language: the album's own JSON by its name or its contents, an edited copy and its original one photo (the edited one), a taken time of \"0\" no date")
    func otherLanguages() throws {
        let cli = try CLI()
        let photos = cli.folder.path("Takeout/Google Fotos")
        // A German export names the folder "Google Fotos": the reader is given it whole.
        try write(#"{"title": "Sommer in Rom", "date": {"timestamp": "1720958400"}}"#, to: photos + "/Rom/Metadaten.json")
        try cli.copyExample("01-harbour.jpg", to: photos + "/Rom/IMG_1.jpg")
        try cli.copyExample("11-forest.jpg", to: photos + "/Rom/IMG_1-bearbeitet.jpg")
        try sidecar("IMG_1.jpg", minutes: 30, at: photos + "/Rom/IMG_1.jpg.supplemental-metadata.json")
        try cli.copyExample("10-meadow.webp", to: photos + "/Rom/Wiese.webp")
        try write(#"{"title": "Wiese.webp", "photoTakenTime": {"timestamp": "0"}}"#, to: photos + "/Rom/Wiese.webp.json")
        // A French album's file, named in a way no list holds: known by what it says.
        try write(#"{"title": "Été à Nîmes", "description": ""}"#, to: photos + "/Nimes/album-info.json")
        try cli.copyExample("02-market.png", to: photos + "/Nimes/IMG_2.png")
        try cli.copyExample("03-cliffs.webp", to: photos + "/Nimes/IMG_2-modifié.webp")

        let result = try cli.run("import", "--from", "takeout", photos)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try files(cli, "Sommer in Rom") == ["IMG_1-bearbeitet.jpg", "Wiese.webp"])
        #expect(try files(cli, "Été à Nîmes") == ["IMG_2-modifié.webp"])
        // The edited copy takes its original's sidecar time; "0" is no date (the file records none either).
        #expect(try cli.run("show", "Sommer in Rom:1").stdout.contains("captured   2026-07-17T07:30:00"))
        #expect(try cli.run("show", "Sommer in Rom:2").stdout.contains("captured   unknown"))
    }

    @Test("a folder that is not a Takeout is refused with one line")
    func refused() throws {
        let cli = try CLI()
        try FileManager.default.createDirectory(atPath: cli.folder.path("Pictures"), withIntermediateDirectories: true)
        let refused = try cli.run("import", "--from", "takeout", cli.folder.path("Pictures"))
        #expect(refused.status == 1 && refused.stderr.contains("is not a Google Takeout catalog: it has no 'Google Photos' folder"), "\(refused.stderr)")
    }

    /// Runs `tool` with `arguments` in `folder`, as a person packing a test archive would.
    func pack(_ arguments: [String], in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
    }

    /// An export in two parts, as Google splits one: the album "Rom" spread
    /// over both, its order (by the sidecars' times) across them; the year
    /// folder's photo only in the first.
    func twoParts(_ cli: CLI) throws -> (first: String, second: String) {
        for (part, files) in [("part1", [("01-harbour.jpg", "b.jpg", 20), ("04-lighthouse.webp", "d.webp", 40)]), ("part2", [("02-market.png", "a.png", 10), ("11-forest.jpg", "c.jpg", 30)])] {
            let album = cli.folder.path("\(part)/Takeout/Google Photos/Rom")
            for (example, name, minutes) in files {
                try cli.copyExample(example, to: album + "/" + name)
                try sidecar(name, minutes: minutes, at: album + "/" + name + ".json")
            }
        }
        try write(#"{"title": "Sommer in Rom"}"#, to: cli.folder.path("part1/Takeout/Google Photos/Rom/metadata.json"))
        try cli.copyExample("03-cliffs.webp", to: cli.folder.path("part1/Takeout/Google Photos/Photos from 2024/e.webp"))
        return (cli.folder.path("Downloads/takeout-20261126T101010Z-001"), cli.folder.path("Downloads/takeout-20261126T101010Z-002"))
    }

    @Test("a Takeout's .zip parts, named by one of them: each album whole across the parts, in capture-time order, its photos extracted once")
    func zipParts() throws {
        let cli = try CLI()
        let (first, second) = try twoParts(cli)
        try FileManager.default.createDirectory(atPath: cli.folder.path("Downloads"), withIntermediateDirectories: true)
        try pack(["python3", "-m", "zipfile", "-c", first + ".zip", "Takeout"], in: cli.folder.path("part1"))
        try pack(["python3", "-m", "zipfile", "-c", second + ".zip", "Takeout"], in: cli.folder.path("part2"))
        let extracted = cli.folder.path("Downloads/Takeout/Google Photos/Rom")

        let dry = try cli.run("import", first + ".zip", "--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("Sommer in Rom  (new album: 4 to import)"), "\(dry.stdout)\(dry.stderr)")
        // The album's four, and the year folder's photo in no album.
        #expect(dry.stderr.contains("would extract 5 photos into " + cli.folder.path("Downloads/Takeout/Google Photos")), "\(dry.stderr)")
        #expect(dry.stderr.contains("would bring 1 photo in no album into the library, in no album"), "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: extracted))

        let result = try cli.run("import", first + ".zip")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("reading every part of the export: takeout-20261126T101010Z-001.zip, takeout-20261126T101010Z-002.zip"))
        #expect(try files(cli, "Sommer in Rom") == ["a.png", "b.jpg", "c.jpg", "d.webp"])
        // Only the photos come out: not the sidecars, not the year folder's copies of album photos.
        #expect(try FileManager.default.contentsOfDirectory(atPath: extracted).sorted() == ["a.png", "b.jpg", "c.jpg", "d.webp"])
        let year = cli.folder.path("Downloads/Takeout/Google Photos/Photos from 2024")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: year))?.count == 1, "the year folder's photo in no album")
        #expect(result.stderr.contains("1 photo in no album in Google Photos came into the library"), "\(result.stderr)")

        // Again: nothing extracted, nothing imported; a photo lost from the folder is extracted again.
        try FileManager.default.removeItem(atPath: extracted + "/c.jpg")
        let again = try cli.run("import", "--from", "takeout", second + ".zip")
        #expect(again.status == 0 && again.stdout.hasPrefix("nothing new"), "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("extracted 1 photo into") && again.stderr.contains("(4 already there)"), "\(again.stderr)")
        #expect(try files(cli, "Sommer in Rom") == ["a.png", "b.jpg", "c.jpg", "d.webp"])
    }

    @Test("a Live Photo in a Takeout's archive is one item: its motion extracted beside its still and read with it, never an item or a skipped file of its own")
    func livePhotoInAnArchive() throws {
        let cli = try CLI()
        let album = cli.folder.path("part/Takeout/Google Photos/Rom")
        try cli.copyExample("01-harbour.jpg", to: album + "/IMG_0001.JPG")
        try sidecar("IMG_0001.JPG", minutes: 10, at: album + "/IMG_0001.JPG.json")
        try cli.writeMovie(to: album + "/IMG_0001.MP4", milliseconds: 1_500)
        try write(#"{"title": "Rom"}"#, to: album + "/metadata.json")
        // One more in no album, in a year folder: its motion is extracted with it.
        let year = cli.folder.path("part/Takeout/Google Photos/Photos from 2026")
        try cli.copyExample("11-forest.jpg", to: year + "/IMG_0002.JPG")
        try sidecar("IMG_0002.JPG", minutes: 20, at: year + "/IMG_0002.JPG.json")
        try cli.writeMovie(to: year + "/IMG_0002.MP4", milliseconds: 2_000)
        try FileManager.default.createDirectory(atPath: cli.folder.path("Downloads"), withIntermediateDirectories: true)
        let archive = cli.folder.path("Downloads/takeout-20261129T000000Z-001.zip")
        try pack(["python3", "-m", "zipfile", "-c", archive, "Takeout"], in: cli.folder.path("part"))

        // The dry run, before anything is extracted, counts each Live Photo once.
        let dry = try cli.run("import", archive, "--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("Rom  (new album: 1 "), "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("would extract 2 photos") || dry.stderr.contains("would extract 2 photos"), "\(dry.stdout)\(dry.stderr)")
        #expect((dry.stdout + dry.stderr).contains("would bring 1 photo in no album"), "\(dry.stdout)\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("Downloads/Takeout")), "a dry run extracts nothing")

        let result = try cli.run("import", archive)
        #expect(result.status == 0 && result.stdout.contains("Rom  (new album: 1 imported)"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("skipped") && !result.stderr.contains("skipped"), "\(result.stdout)\(result.stderr)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Rom"))["items"] as? [[String: Any]])
        #expect(items.count == 1 && items.first?["live_photo"] as? Bool == true && items.first?["motion_duration"] as? Double == 1.5, "\(items)")
        #expect(FileManager.default.fileExists(atPath: cli.folder.path("Downloads/Takeout/Google Photos/Rom/IMG_0001.MP4")), "the motion extracted with its still")
        let loose = try #require(try cli.json(try cli.run("--json", "photos", "--in-no-album"))["photos"] as? [[String: Any]])
        #expect(loose.count == 1 && loose.first?["live_photo"] as? Bool == true, "\(loose)")
    }

    @Test("a Takeout's .tgz parts, extracted where --extract-to says; an archive cut short is refused and nothing is imported")
    func tgzParts() throws {
        let cli = try CLI()
        let (first, second) = try twoParts(cli)
        try FileManager.default.createDirectory(atPath: cli.folder.path("Downloads"), withIntermediateDirectories: true)
        try pack(["tar", "czf", first + ".tgz", "Takeout"], in: cli.folder.path("part1"))
        try pack(["tar", "czf", second + ".tgz", "Takeout"], in: cli.folder.path("part2"))
        let result = try cli.run("import", first + ".tgz", second + ".tgz", "--extract-to", cli.folder.path("Photos"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try files(cli, "Sommer in Rom") == ["a.png", "b.jpg", "c.jpg", "d.webp"])
        #expect(FileManager.default.fileExists(atPath: cli.folder.path("Photos/Takeout/Google Photos/Rom/d.webp")))

        // The second part cut short, as an unfinished download leaves it.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: second + ".tgz"))
        let cut = cli.folder.path("Cut/takeout-1-002.tgz")
        try FileManager.default.createDirectory(atPath: cli.folder.path("Cut"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first + ".tgz", toPath: cli.folder.path("Cut/takeout-1-001.tgz"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let before = try cli.run("--json", "albums").stdout
        let refused = try cli.run("import", "--from", "takeout", cut, "--into", "Elsewhere")
        #expect(refused.status == 65 && refused.stderr.contains("cannot read \(cut): it ends inside a"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 2, "\(refused.stderr)")  // the parts read, then why not
        #expect(try cli.run("--json", "albums").stdout == before)
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("Cut/Takeout")))
    }

    @Test("an archive entry that would land outside the folder is never written; a file that is no archive is refused with one line")
    func hostileArchives() throws {
        let cli = try CLI()
        try cli.copyExample("01-harbour.jpg", to: cli.folder.path("src/a.jpg"))
        // writestr keeps a name as given; write and the command line would clean it.
        let script = [
            "z = __import__('zipfile').ZipFile('takeout-9-001.zip', 'w')",
            "z.write('src/a.jpg', 'Takeout/Google Photos/Rom/a.jpg')",
            "z.writestr('Takeout/Google Photos/../../escaped.jpg', open('src/a.jpg', 'rb').read())",
            "z.writestr('Takeout/Google Photos/Rom/../../../escaped2.jpg', open('src/a.jpg', 'rb').read())",
            "z.writestr('Takeout/Google Photos/../escaped3.jpg', open('src/a.jpg', 'rb').read())",
            "z.writestr('/Takeout/Google Photos/Rom/absolute.jpg', open('src/a.jpg', 'rb').read())",
            "z.close()",
        ].joined(separator: "\n")
        try pack(["python3", "-c", script], in: cli.folder.path(""))
        let result = try cli.run("import", cli.folder.path("takeout-9-001.zip"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try files(cli, "Rom") == ["a.jpg"])
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("escaped.jpg")))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("escaped2.jpg")))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("Takeout/escaped3.jpg")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("Takeout/Google Photos/Rom")) == ["a.jpg"])

        try write("not an archive", to: cli.folder.path("takeout-8-001.zip"))
        let refused = try cli.run("import", "--from", "takeout", cli.folder.path("takeout-8-001.zip"))
        #expect(refused.status == 65 && refused.stderr.contains("is not a ZIP archive, or one cut short"), "\(refused.stderr)")
    }

    @Test("a crafted tar header (a size past 64 bits, a negative one, one whose offsets overflow, a 1 GiB long name) is refused with one line, exit 65")
    func craftedTarHeaders() throws {
        let cli = try CLI()
        // Each archive: one header whose size field is the given bytes (base-256 when the first has its high bit set), then a little data.
        // (__import__: a line beginning with "import" would read as a Swift import to scripts/check-dependencies.)
        let script = #"""
            gzip = __import__("gzip")
            def header(size_field, typeflag):
                h = bytearray(512)
                name = b"Takeout/Google Photos/Rom/a.jpg"
                h[0:len(name)] = name
                h[100:108] = b"0000644\0"; h[108:116] = b"0000000\0"; h[116:124] = b"0000000\0"
                h[124:136] = size_field
                h[136:148] = b"00000000000\0"
                h[148:156] = b" " * 8
                h[156] = ord(typeflag)
                h[257:263] = b"ustar\0"; h[263:265] = b"00"
                h[148:156] = b"%06o\0 " % sum(h)
                return bytes(h)
            cases = {
                "beyond-64-bits": (b"\x80" + b"\xff" * 11, "0"),
                "negative": (b"\xff" * 12, "0"),
                "offset-overflow": (b"\x80\x00\x00\x00" + b"\xff" * 8, "0"),
                "huge-long-name": (b"\x80" + b"\x00" * 7 + (1 << 30).to_bytes(4, "big"), "L"),
                "long-name-past-int64": (b"\x80\x00\x00\x00" + (1 << 63).to_bytes(8, "big"), "L"),
                "huge-pax-record": (b"\x80" + b"\x00" * 7 + (1 << 30).to_bytes(4, "big"), "x"),
            }
            for name, (field, flag) in cases.items():
                with gzip.open(f"{name}/takeout-1-001.tgz", "wb") as out:
                    out.write(header(field, flag) + b"\xff" * 4096 + b"\0" * 1024)
            """#
        let cases = ["beyond-64-bits": "larger than 64 bits", "negative": "is negative", "offset-overflow": "more than a tar archive can hold",
                     "huge-long-name": "a name record of 1073741824 bytes", "long-name-past-int64": "more than a tar archive can hold", "huge-pax-record": "a name record of 1073741824 bytes"]
        for name in cases.keys { try FileManager.default.createDirectory(atPath: cli.folder.path(name), withIntermediateDirectories: true) }
        try pack(["python3", "-c", script], in: cli.folder.path(""))
        try cli.run("album", "create", "Kept")
        let before = try cli.run("--json", "albums").stdout
        for (name, reason) in cases.sorted(by: { $0.key < $1.key }) {
            let refused = try cli.run("import", "--from", "takeout", cli.folder.path("\(name)/takeout-1-001.tgz"))
            #expect(refused.status == 65, "\(name): \(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").last?.contains(reason) == true, "\(name): \(refused.stderr)")
            #expect(!refused.stderr.contains("Fatal error"), "\(name): \(refused.stderr)")
            #expect(try cli.run("--json", "albums").stdout == before, "\(name): nothing imported")
        }
    }
}
