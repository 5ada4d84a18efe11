import AlbumsImporting
import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// `albums import --from shotwell CATALOG`: Shotwell's events as albums in
/// its order, originals not found holding their places, paths mapped,
/// imported again without harm, and a file that is not a catalog refused.
@Suite("import --from shotwell", .serialized)
struct CatalogImportCLITests {
    /// A Shotwell catalog built from the tables Shotwell itself creates
    /// (GNOME/shotwell, src/db/PhotoTable.vala and EventTable.vala): the
    /// early schema (PhotoTable of ten columns, EventTable of four) or the
    /// current one (ratings, titles, edits; TagTable, VideoTable, VersionTable).
    struct ShotwellCatalog {
        enum Schema { case early, current }

        let path: String
        let schema: Schema

        init(at path: String, schema: Schema) throws {
            self.path = path
            self.schema = schema
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                switch schema {
                case .early:
                    try db.execute(sql: """
                        CREATE TABLE PhotoTable (id INTEGER PRIMARY KEY, filename TEXT UNIQUE NOT NULL, width INTEGER, height INTEGER,
                            filesize INTEGER, timestamp INTEGER, exposure_time INTEGER, orientation INTEGER, import_id INTEGER, event_id INTEGER);
                        CREATE TABLE EventTable (id INTEGER PRIMARY KEY, name TEXT, primary_photo_id INTEGER, time_created INTEGER);
                        """)
                case .current:
                    try db.execute(sql: """
                        CREATE TABLE VersionTable (id INTEGER PRIMARY KEY, schema_version INTEGER, app_version TEXT, user_data TEXT NULL);
                        INSERT INTO VersionTable (schema_version, app_version) VALUES (20, '0.32.7');
                        CREATE TABLE PhotoTable (id INTEGER PRIMARY KEY, filename TEXT UNIQUE NOT NULL, width INTEGER, height INTEGER,
                            filesize INTEGER, timestamp INTEGER, exposure_time INTEGER, orientation INTEGER, original_orientation INTEGER,
                            import_id INTEGER, event_id INTEGER, transformations TEXT, md5 TEXT, thumbnail_md5 TEXT, exif_md5 TEXT,
                            time_created INTEGER, flags INTEGER DEFAULT 0, rating INTEGER DEFAULT 0, file_format INTEGER DEFAULT 0,
                            title TEXT, backlinks TEXT, time_reimported INTEGER, editable_id INTEGER DEFAULT -1, metadata_dirty INTEGER DEFAULT 0,
                            developer TEXT, develop_shotwell_id INTEGER DEFAULT -1, develop_camera_id INTEGER DEFAULT -1,
                            develop_embedded_id INTEGER DEFAULT -1, comment TEXT);
                        CREATE TABLE EventTable (id INTEGER PRIMARY KEY, name TEXT, primary_photo_id INTEGER, time_created INTEGER,
                            primary_source_id TEXT, comment TEXT);
                        CREATE TABLE TagTable (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, photo_id_list TEXT, time_created INTEGER);
                        INSERT INTO TagTable (name, photo_id_list) VALUES ('beach', 'thumb0000000000000001,');
                        CREATE TABLE VideoTable (id INTEGER PRIMARY KEY, filename TEXT UNIQUE NOT NULL, width INTEGER, height INTEGER,
                            clip_duration REAL, is_interpretable INTEGER, filesize INTEGER, timestamp INTEGER, exposure_time INTEGER,
                            import_id INTEGER, event_id INTEGER, md5 TEXT, time_created INTEGER, rating INTEGER DEFAULT 0, title TEXT,
                            backlinks TEXT, time_reimported INTEGER, flags INTEGER DEFAULT 0, comment TEXT);
                        """)
                }
            }
        }

        /// A video in event 1, taken between the market and the harbour, with a title;
        /// and a hidden one beside it. Only the current schema has a VideoTable.
        func addVideos(_ cli: CLI, pictures: String) throws {
            try cli.writeMovie(to: pictures + "/2024/clip.mp4")
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: """
                    INSERT INTO VideoTable (filename, exposure_time, event_id, title) VALUES ('/mnt/old/Pictures/2024/clip.mp4', 1720959600, 1, 'Les vagues');
                    INSERT INTO VideoTable (filename, exposure_time, event_id, flags) VALUES ('/mnt/old/Pictures/2024/hidden.mp4', 1720959600, 1, 1);
                    """)
            }
        }

        func addEvent(_ id: Int64, name: String?) throws {
            try DatabaseQueue(path: path).write { try $0.execute(sql: "INSERT INTO EventTable (id, name) VALUES (?, ?)", arguments: [id, name]) }
        }

        func addPhoto(_ filename: String, exposure: Int64, event: Int64?, rating: Int = 0) throws {
            try DatabaseQueue(path: path).write { db in
                if schema == .current {
                    try db.execute(
                        sql: "INSERT INTO PhotoTable (filename, exposure_time, event_id, rating) VALUES (?, ?, ?, ?)",
                        arguments: [filename, exposure, event ?? -1, rating])
                } else {
                    try db.execute(
                        sql: "INSERT INTO PhotoTable (filename, exposure_time, event_id) VALUES (?, ?, ?)", arguments: [filename, exposure, event ?? -1])
                }
            }
        }
    }

    /// 2024-07-14 12:00 UTC, and that plus `minutes`.
    static func time(_ minutes: Int64) -> Int64 { 1_720_958_400 + minutes * 60 }

    /// A household's catalog: an event whose exposure order is not its name
    /// order (with a non-ASCII name and path), an unnamed event, a photo in
    /// no event, and originals under `/mnt/old/Pictures` that lie in the test's folder.
    func household(_ cli: CLI, schema: ShotwellCatalog.Schema) throws -> (ShotwellCatalog, pictures: String) {
        let pictures = cli.folder.path("Pictures")
        try cli.copyExample("01-harbour.jpg", to: pictures + "/2024/a-harbour.jpg")
        try cli.copyExample("02-market.png", to: pictures + "/2024/b-market.png")
        try cli.copyExample("03-cliffs.webp", to: pictures + "/2024/Nîmes/c-falaises.webp")
        try cli.copyExample("11-forest.jpg", to: pictures + "/2024/d-forest.jpg")
        try cli.copyExample("04-lighthouse.webp", to: pictures + "/loose.webp")
        let catalog = try ShotwellCatalog(at: cli.folder.path("photo.db"), schema: schema)
        try catalog.addEvent(1, name: "Fête à Nîmes")
        try catalog.addEvent(2, name: nil)
        let old = "/mnt/old/Pictures"
        // Taken cliffs first, then market, then harbour: neither name nor file order.
        try catalog.addPhoto(old + "/2024/a-harbour.jpg", exposure: Self.time(30), event: 1, rating: 4)
        try catalog.addPhoto(old + "/2024/Nîmes/c-falaises.webp", exposure: Self.time(0), event: 1)
        try catalog.addPhoto(old + "/2024/b-market.png", exposure: Self.time(10), event: 1)
        try catalog.addPhoto(old + "/2024/d-forest.jpg", exposure: Self.time(24 * 60), event: 2)
        try catalog.addPhoto(old + "/loose.webp", exposure: Self.time(60), event: nil)
        return (catalog, pictures)
    }

    @Test("events become albums in Shotwell's order, with either schema; paths are mapped; what is not carried is counted", arguments: [ShotwellCatalog.Schema.early, .current])
    func eventsInOrder(_ schema: ShotwellCatalog.Schema) throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: schema)
        if schema == .current { try catalog.addVideos(cli, pictures: pictures) }
        let result = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported \(schema == .current ? 6 : 5) photos: 1 new folder, 3 new albums"), "\(result.stdout)")
        #expect(
            try cli.albumsByPath() == [
                "Shotwell/Fête à Nîmes": schema == .current
                    ? ["c-falaises.webp", "b-market.png", "clip.mp4", "a-harbour.jpg"] : ["c-falaises.webp", "b-market.png", "a-harbour.jpg"],
                "Shotwell/2024-07-15": ["d-forest.jpg"], "Shotwell/No Event": ["loose.webp"],
            ])
        let tree = try cli.run("album", "list", "--tree").stdout
        #expect(tree.contains("Shotwell"), "\(tree)")
        if schema == .current {
            // The video stands in its event by its time; the hidden one stays out, counted.
            #expect(result.stdout.contains("1 hidden, trashed or rejected videos") && !result.stdout.contains(" videos,"), "\(result.stdout)")
        }
        #expect(try cli.run("check").status == 0)
    }

    @Test("titles, comments, ratings and tags written in Shotwell come along on the items, over what the files carry; found by them")
    func wordsFromShotwell() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try catalog.addVideos(cli, pictures: pictures)
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: "UPDATE PhotoTable SET title = 'Le port', comment = ' Grand-père\u{0007} et les bateaux ' WHERE filename LIKE '%a-harbour.jpg'")
            try db.execute(sql: "UPDATE PhotoTable SET rating = 5 WHERE filename LIKE '%b-market.png'")
            try db.execute(sql: "UPDATE EventTable SET comment = 'Trois jours à Nîmes' WHERE id = 1")
            // Photo 2 (the cliffs) in a nested tag, a video in it too.
            try db.execute(sql: "INSERT INTO TagTable (name, photo_id_list) VALUES ('/Trips/Nîmes', 'thumb0000000000000002,video-0000000000000001,thumbzz,')")
        }
        let result = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Shotwell/Fête à Nîmes"))["items"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: items.map { ($0["file"] as? String ?? "", $0) })
        #expect(byFile["a-harbour.jpg"]?["title"] as? String == "Le port")
        #expect(byFile["a-harbour.jpg"]?["caption"] as? String == "Grand-père et les bateaux", "a control character is left out, not refused")
        #expect(byFile["a-harbour.jpg"]?["rating"] as? Int == 4 && byFile["a-harbour.jpg"]?["keywords"] as? [String] == ["beach"])
        #expect(byFile["b-market.png"]?["rating"] as? Int == 5)
        #expect(byFile["c-falaises.webp"]?["keywords"] as? [String] == ["Nîmes"])
        #expect(byFile["clip.mp4"]?["keywords"] as? [String] == ["Nîmes"] && byFile["clip.mp4"]?["title"] as? String == "Les vagues", "a video's words")
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        #expect(albums.first { $0["name"] as? String == "Fête à Nîmes" }?["description"] as? String == "Trois jours à Nîmes", "an event's comment")
        let found = try #require(try cli.json(try cli.run("--json", "photos", "--text", "bateaux"))["photos"] as? [[String: Any]])
        #expect(found.compactMap { $0["file"] as? String } == ["a-harbour.jpg"])
    }

    @Test("a photo turned in Shotwell (kept in its catalog, not the file) is shown turned; its edits are counted by kind")
    func turnedInShotwell() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: "UPDATE PhotoTable SET orientation = 6 WHERE filename LIKE '%a-harbour.jpg'")
            try db.execute(sql: "UPDATE PhotoTable SET orientation = 1 WHERE filename LIKE '%b-market.png'")
            try db.execute(sql: "UPDATE PhotoTable SET transformations = '[crop]\nleft=1\n\n[adjustments]\nexposure=0.2\n' WHERE filename LIKE '%b-market.png'")
            try db.execute(sql: "UPDATE PhotoTable SET transformations = '[redeye]\nnum_points=1\n' WHERE filename LIKE '%d-forest.jpg'")
        }
        let result = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 crops, 1 colour adjustments, 1 red-eye fixes"), "\(result.stdout)")
        let photos = try #require(try cli.json(try cli.run("--json", "photos"))["photos"] as? [[String: Any]])
        let harbour = try #require(photos.first { $0["file"] as? String == "a-harbour.jpg" })
        #expect(harbour["orientation"] as? Int == 6, "\(harbour)")
        #expect(harbour["display_width"] as? Int == 427 && harbour["display_height"] as? Int == 640, "\(harbour)")
        let market = try #require(photos.first { $0["file"] as? String == "b-market.png" })
        #expect(market["orientation"] as? Int == 1)
        let shown = try cli.run("show", "id:\(try #require(harbour["photo_id"] as? Int))").stdout
        #expect(shown.contains("427×640 pixels as seen (stored 640×427, turned 90° clockwise; the file itself is upright"), "\(shown)")
        #expect(try cli.run("check").status == 0)
    }

    @Test("a raw file Shotwell paired with its camera's JPEG comes in as that JPEG")
    func rawPlusJPEG() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try cli.copyExample("05-sunset.heic", to: pictures + "/2024/IMG_9.JPG")
        try Data("II*\0\u{8}\0\0\0CR raw bytes".utf8).write(to: URL(fileURLWithPath: pictures + "/2024/IMG_9.CR2"))
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: """
                CREATE TABLE BackingPhotoTable (id INTEGER PRIMARY KEY, filepath TEXT UNIQUE NOT NULL, timestamp INTEGER, filesize INTEGER,
                    width INTEGER, height INTEGER, original_orientation INTEGER, file_format INTEGER, time_created INTEGER);
                INSERT INTO BackingPhotoTable (id, filepath, file_format) VALUES (3, '/mnt/old/Pictures/2024/IMG_9.JPG', 0);
                INSERT INTO PhotoTable (filename, exposure_time, event_id, file_format, develop_camera_id)
                    VALUES ('/mnt/old/Pictures/2024/IMG_9.CR2', \(Self.time(40)), 1, 1, 3);
                """)
        }
        let result = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", "b-market.png", "a-harbour.jpg", "IMG_9.JPG"])
    }

    @Test("events newest first, as Shotwell lists them; an unnamed event spanning days named by its span; a photo taken before 1970 keeps its time")
    func eventsAsShotwellShowsThem() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try cli.copyExample("05-sunset.heic", to: pictures + "/1965.heic")
        try cli.copyExample("06-map.gif", to: pictures + "/1966.gif")
        try catalog.addEvent(3, name: nil)
        // Noon (UTC) on 1 January 1965 and two days later: before 1970, so negative; the same days in any time zone.
        try catalog.addPhoto("/mnt/old/Pictures/1966.gif", exposure: -157_550_400, event: 3)
        try catalog.addPhoto("/mnt/old/Pictures/1965.heic", exposure: -157_723_200, event: 3)
        let result = try cli.run(["import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let albums = try cli.albumsByPath()
        #expect(albums["Shotwell/1965-01-01 – 1965-01-03"] == ["1965.heic", "1966.gif"], "\(albums.keys.sorted())")
        let names = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["2024-07-15", "Fête à Nîmes", "1965-01-01 – 1965-01-03", "No Event"], "newest first: \(names)")
    }

    @Test("what Shotwell hides stays out, counted: a photo in its trash, a hidden one, a rejected one")
    func hiddenStaysOut() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try DatabaseQueue(path: catalog.path).write { db in
            // Shotwell's LibraryPhoto flags: 0x1 hidden, 0x4 in the trash; rating -1 rejected.
            try db.execute(sql: "UPDATE PhotoTable SET flags = 4 WHERE filename LIKE '%a-harbour.jpg'")
            try db.execute(sql: "UPDATE PhotoTable SET flags = 1 WHERE filename LIKE '%b-market.png'")
            try db.execute(sql: "UPDATE PhotoTable SET rating = -1 WHERE filename LIKE '%d-forest.jpg'")
        }
        let result = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath() == ["Shotwell/Fête à Nîmes": ["c-falaises.webp"], "Shotwell/No Event": ["loose.webp"]])
        #expect(result.stdout.contains("1 photos in the trash, 1 hidden photos, 1 rejected photos"), "\(result.stdout)")
        let inLibrary = try cli.json(try cli.run("--json", "photos"))["photos"] as? [Any]
        #expect(!result.stderr.contains("set aside") && inLibrary?.count == 2, "what is hidden never reaches the library")

        // Asked for, they come into a locked album of their own, at the top level, and again adds nothing twice.
        let dry = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)", "--with-hidden", "--dry-run")
        #expect(dry.stderr.contains("would set aside 3 photos Shotwell hid or threw away in locked album 'Hidden in Shotwell'"), "\(dry.stderr)")
        for _ in 0..<2 {
            let hidden = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)", "--with-hidden")
            #expect(hidden.status == 0, "\(hidden.stdout)\(hidden.stderr)")
            #expect(hidden.stderr.contains("set aside in locked album 'Hidden in Shotwell', at the top level, shared with nobody"), "\(hidden.stderr)")
        }
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        let set = try #require(albums.first { $0["name"] as? String == "Hidden in Shotwell" })
        #expect(set["locked"] as? Bool == true && set["parent_id"] is NSNull && set["count"] as? Int == 3)
        #expect(try cli.albumsByPath()["Hidden in Shotwell"] == ["a-harbour.jpg", "b-market.png", "d-forest.jpg"])
        #expect(try cli.run("check").status == 0)
        #expect(try cli.run("import", pictures, "--with-hidden").status == 64, "a folder has nothing hidden")
    }

    @Test("originals not found hold their places as placeholders; pending resume fills them in place once the drive is back")
    func missingOriginals() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try FileManager.default.moveItem(atPath: pictures + "/2024/b-market.png", toPath: cli.folder.path("aside.png"))
        let result = try cli.run("--json", "import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stderr)")
        let nodes = try #require(try cli.json(result)["nodes"] as? [[String: Any]])
        #expect(nodes.first { $0["path"] as? String == "Shotwell/Fête à Nîmes" }?["missing"] as? Int == 1, "\(nodes)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", nil, "a-harbour.jpg"])
        #expect(try cli.run("pending").stdout.contains("b-market.png"))
        // Importing again while it is still missing keeps its place.
        try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", nil, "a-harbour.jpg"])

        try FileManager.default.moveItem(atPath: cli.folder.path("aside.png"), toPath: pictures + "/2024/b-market.png")
        #expect(try cli.run("pending", "resume").status == 0)
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", "b-market.png", "a-harbour.jpg"])
        #expect(try cli.run("check").status == 0)
    }

    @Test("relink finds a missing original somewhere else by its name and loads it into its placeholder's slot")
    func relinkPlaceholders() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        try FileManager.default.createDirectory(atPath: cli.folder.path("Moved/deep"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: pictures + "/2024/b-market.png", toPath: cli.folder.path("Moved/deep/b-market.png"))
        try cli.run("import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", nil, "a-harbour.jpg"])
        let dry = try cli.run("relink", cli.folder.path("Moved"), "--recursive", "--dry-run")
        #expect(dry.stdout.contains("would load placeholder"), "\(dry.stdout)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", nil, "a-harbour.jpg"], "a dry run loads nothing")
        let result = try cli.run("relink", cli.folder.path("Moved"), "--recursive")
        #expect(result.status == 0 && result.stdout.contains("loaded 1 placeholder"), "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", "b-market.png", "a-harbour.jpg"])
        #expect(try cli.run("check").status == 0)
    }

    @Test("importing again changes nothing already imported, finds albums renamed since, and adds what is new")
    func again() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .current)
        let arguments = ["import", "--from", "shotwell", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)"]
        try cli.run(arguments)
        try cli.run("album", "rename", "Fête à Nîmes", "Nîmes 2024")
        let nothing = try cli.run(arguments)
        #expect(nothing.stdout.hasPrefix("nothing new: 3 albums found, 5 photos there from before"), "\(nothing.stdout)")
        try cli.copyExample("10-meadow.webp", to: pictures + "/2024/e-meadow.webp")
        try catalog.addPhoto("/mnt/old/Pictures/2024/e-meadow.webp", exposure: Self.time(5), event: 1)
        #expect(try cli.run(arguments).status == 0)
        let albums = try cli.albumsByPath()
        #expect(albums["Shotwell/Nîmes 2024"] == ["c-falaises.webp", "b-market.png", "a-harbour.jpg", "e-meadow.webp"])
        #expect(albums.count == 3)
    }

    @Test("a catalog given without --from is recognized from its tables and imported as its organizer's")
    func recognized() throws {
        let cli = try CLI()
        let (catalog, pictures) = try household(cli, schema: .early)
        let result = try cli.run("import", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0 && result.stderr.contains("as a catalog of Shotwell, importing its albums (--from shotwell)"), "\(result.stderr)")
        #expect(try cli.albumsByPath()["Shotwell/Fête à Nîmes"] == ["c-falaises.webp", "b-market.png", "a-harbour.jpg"])
        // A photo is still a photo.
        #expect(try cli.run("import", pictures + "/loose.webp", "--to", "No Event").status == 0)
    }

    @Test("a file that is not a Shotwell catalog, or a damaged one, is refused with one line and left as it was")
    func refusals() throws {
        let cli = try CLI()
        let (catalog, _) = try household(cli, schema: .current)
        try cli.run("album", "create", "Kept")
        let library = try cli.run("import", "--from", "shotwell", cli.libraryPath)
        #expect(library.status == 1 && library.stderr.contains("is not a Shotwell catalog"), "\(library.stderr)")
        let text = cli.folder.path("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let notSQLite = try cli.run("import", "--from", "shotwell", text)
        #expect(notSQLite.status == 65 && notSQLite.stderr.contains("is not an SQLite database"), "\(notSQLite.stderr)")
        // Damaged: the header intact, the pages after it overwritten.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: catalog.path))
        for index in 100..<bytes.count { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: catalog.path))
        let before = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("")).sorted()
        let damaged = try cli.run("import", "--from", "shotwell", catalog.path)
        #expect(damaged.status == 65 && damaged.stderr.split(separator: "\n").count == 1, "\(damaged.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog.path)) == bytes, "the catalog is never written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path("")).sorted() == before, "no file beside it")
        let badMap = try cli.run("import", "--from", "shotwell", catalog.path, "--map", "nothing")
        #expect(badMap.status == 64 && badMap.stderr.contains("OLD=NEW"), "\(badMap.stderr)")
        #expect(try cli.albumsByPath() == ["Kept": []])
    }
}
