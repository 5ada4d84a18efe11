import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// `albums import --from lightroom CATALOG.lrcat`: collections as albums in
/// their custom order, collection sets as folders, smart collections
/// counted and left.
@Suite("import --from lightroom", .serialized)
struct LightroomImportCLITests {
    /// A Lightroom Classic catalog with the tables an `.lrcat` holds (as
    /// `sqlite3 .schema` shows them in a Lightroom 6 catalog), or the
    /// Lightroom 4 shape, whose collections had no `systemOnly` and no `genealogy`.
    struct Catalog {
        let path: String

        init(at path: String, lightroom4: Bool) throws {
            self.path = path
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: """
                    CREATE TABLE AgLibraryRootFolder (id_local INTEGER PRIMARY KEY, id_global UNIQUE NOT NULL, absolutePath UNIQUE NOT NULL DEFAULT '',
                        name NOT NULL DEFAULT '', relativePathFromCatalog);
                    CREATE TABLE AgLibraryFolder (id_local INTEGER PRIMARY KEY, id_global UNIQUE NOT NULL, pathFromRoot NOT NULL DEFAULT '',
                        rootFolder INTEGER NOT NULL DEFAULT 0, visibility INTEGER);
                    CREATE TABLE AgLibraryFile (id_local INTEGER PRIMARY KEY, id_global UNIQUE NOT NULL, baseName NOT NULL DEFAULT '',
                        errorMessage, errorTime, extension NOT NULL DEFAULT '', externalModTime, folder INTEGER NOT NULL DEFAULT 0,
                        idx_filename NOT NULL DEFAULT '', importHash, lc_idx_filename NOT NULL DEFAULT '',
                        lc_idx_filenameExtension NOT NULL DEFAULT '', md5, modTime, originalFilename NOT NULL DEFAULT '', sidecarExtensions);
                    CREATE TABLE Adobe_images (id_local INTEGER PRIMARY KEY, id_global UNIQUE NOT NULL, aspectRatioCache NOT NULL DEFAULT -1,
                        bitDepth NOT NULL DEFAULT 0, captureTime, colorLabels NOT NULL DEFAULT '', copyName, fileFormat NOT NULL DEFAULT 'unset',
                        masterImage INTEGER, orientation, pick NOT NULL DEFAULT 0, rating, rootFile INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE AgLibraryCollectionImage (id_local INTEGER PRIMARY KEY, collection INTEGER NOT NULL DEFAULT 0,
                        image INTEGER NOT NULL DEFAULT 0, pick NOT NULL DEFAULT 0, positionInCollection);
                    CREATE TABLE AgLibraryKeywordImage (id_local INTEGER PRIMARY KEY, image INTEGER NOT NULL DEFAULT 0, tag INTEGER NOT NULL DEFAULT 0);
                    """)
                try db.execute(sql: lightroom4
                    ? "CREATE TABLE AgLibraryCollection (id_local INTEGER PRIMARY KEY, creationId NOT NULL DEFAULT '', imageCount, name NOT NULL DEFAULT '', parent INTEGER)"
                    : """
                    CREATE TABLE AgLibraryCollection (id_local INTEGER PRIMARY KEY, creationId NOT NULL DEFAULT '', genealogy NOT NULL DEFAULT '',
                        imageCount, name NOT NULL DEFAULT '', parent INTEGER, systemOnly NOT NULL DEFAULT '')
                    """)
            }
        }

        func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
            try DatabaseQueue(path: path).write { try $0.execute(sql: sql, arguments: arguments) }
        }
    }

    /// Photos on a Windows drive (`D:/Fotos/`), in a collection set "Reisen"
    /// holding "Rom" (a custom order) and "Leer" (empty); "Beste" holds one
    /// of Rom's photos first; a smart collection and Quick Collection too.
    func catalog(_ cli: CLI, lightroom4: Bool) throws -> (Catalog, pictures: String) {
        let pictures = cli.folder.path("Fotos")
        for (example, name) in [("01-harbour.jpg", "Hafen"), ("02-market.png", "Markt"), ("03-cliffs.webp", "Klippen")] {
            try cli.copyExample(example, to: pictures + "/2024/Rom/\(name).\((example as NSString).pathExtension)")
        }
        let catalog = try Catalog(at: cli.folder.path("Katalog.lrcat"), lightroom4: lightroom4)
        try catalog.execute("INSERT INTO AgLibraryRootFolder (id_local, id_global, absolutePath, name) VALUES (1, 'r1', 'D:/Fotos/', 'Fotos')")
        try catalog.execute("INSERT INTO AgLibraryFolder (id_local, id_global, pathFromRoot, rootFolder) VALUES (2, 'f2', '2024/Rom/', 1)")
        for (id, base, ext) in [(3, "Hafen", "jpg"), (4, "Markt", "png"), (5, "Klippen", "webp"), (6, "Fehlt", "jpg")] as [(Int, String, String)] {
            try catalog.execute("INSERT INTO AgLibraryFile (id_local, id_global, baseName, extension, folder) VALUES (?, ?, ?, ?, 2)", [id, "l\(id)", base, ext])
            try catalog.execute(
                "INSERT INTO Adobe_images (id_local, id_global, rootFile, captureTime, rating) VALUES (?, ?, ?, ?, ?)",
                [id + 10, "i\(id)", id, "2024-05-0\(id)T10:00:00", id == 3 ? 5 : nil])
        }
        let system = lightroom4 ? "" : ", systemOnly"
        func collection(_ id: Int, _ name: String, _ kind: String, parent: Int? = nil, systemOnly: Int = 0) throws {
            try catalog.execute(
                "INSERT INTO AgLibraryCollection (id_local, name, creationId, parent\(system)) VALUES (?, ?, ?, ?\(lightroom4 ? "" : ", ?"))",
                lightroom4 ? [id, name, kind, parent] : [id, name, kind, parent, systemOnly])
        }
        try collection(20, "Reisen", "com.adobe.ag.library.group")
        try collection(21, "Rom", "com.adobe.ag.library.collection", parent: 20)
        try collection(22, "Leer", "com.adobe.ag.library.collection", parent: 20)
        try collection(23, "Beste", "com.adobe.ag.library.collection")
        try collection(24, "Fünf Sterne", "com.adobe.ag.library.smart_collection")
        // Quick Collection: marked systemOnly, or, in a catalog older than that column, known by its name.
        try collection(25, "Quick Collection", "com.adobe.ag.library.collection", systemOnly: 1)
        try collection(26, "Urlaub", "com.adobe.ag.slideshow")
        try collection(27, "", "com.adobe.ag.slideshow.unsaved")
        // Rom by hand: Klippen, Fehlt (missing), Hafen, then Markt with no place.
        for (image, position) in [(15, 1.0), (16, 1.5), (13, 2.0)] {
            try catalog.execute("INSERT INTO AgLibraryCollectionImage (collection, image, positionInCollection) VALUES (21, ?, ?)", [image, position])
        }
        try catalog.execute("INSERT INTO AgLibraryCollectionImage (collection, image) VALUES (21, 14)")
        try catalog.execute("INSERT INTO AgLibraryCollectionImage (collection, image, positionInCollection) VALUES (23, 14, 1), (23, 13, 2)")
        return (catalog, pictures)
    }

    @Test("collections in their custom order, sets as folders, smart collections counted; a photo in two collections stands in each", arguments: [false, true])
    func customOrder(_ lightroom4: Bool) throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: lightroom4)
        let result = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            try cli.albumsByPath() == [
                "Lightroom/Reisen/Rom": ["Klippen.webp", nil, "Hafen.jpg", "Markt.png"], "Lightroom/Reisen/Leer": [],
                "Lightroom/Beste": ["Markt.png", "Hafen.jpg"],
                // The Folders panel beside the collections: the folder's photos by capture time; "Rom" is the collection's.
                "Lightroom/Folders/Fotos/2024/Rom (2024)": ["Hafen.jpg", "Markt.png", "Klippen.webp", nil],
            ])
        #expect(result.stdout.contains("not carried: 1 smart collections, 1 saved books, slideshows, prints and web galleries\n"), "\(result.stdout)")
        #expect(try cli.run("pending").stdout.contains("Fehlt.jpg"))
        #expect(try cli.run("check").status == 0)
        let again = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(again.stdout.hasPrefix("nothing new"), "\(again.stdout)")
    }

    @Test("captions, titles (from the XMP Lightroom keeps), ratings, flags and keywords come along on every item of the photo")
    func wordsFromLightroom() throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: false)
        try catalog.execute("""
            CREATE TABLE AgLibraryIPTC (id_local INTEGER PRIMARY KEY, altTextAccessibility, caption, copyright, extDescrAccessibility,
                image INTEGER NOT NULL DEFAULT 0);
            INSERT INTO AgLibraryIPTC (image, caption) VALUES (13, 'Der Hafen am Morgen'), (14, '   ');
            CREATE TABLE Adobe_AdditionalMetadata (id_local INTEGER PRIMARY KEY, image INTEGER, xmp NOT NULL DEFAULT '');
            INSERT INTO Adobe_AdditionalMetadata (image, xmp) VALUES (13, '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Hafen &amp; Boote</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>');
            CREATE TABLE AgLibraryKeyword (id_local INTEGER PRIMARY KEY, id_global UNIQUE NOT NULL, name, parent INTEGER);
            INSERT INTO AgLibraryKeyword (id_local, id_global, name, parent) VALUES (40, 'k0', NULL, NULL), (41, 'k1', 'Italien', 40), (42, 'k2', 'Rom', 41);
            INSERT INTO AgLibraryKeywordImage (image, tag) VALUES (13, 42), (13, 41), (14, 41);
            UPDATE Adobe_images SET pick = 1 WHERE id_local = 14;
            UPDATE Adobe_images SET rating = 1e300 WHERE id_local = 15;
            """)
        let result = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("keywords") && !result.stdout.contains("ratings"), "\(result.stdout)")
        let best = try #require(try cli.json(try cli.run("--json", "list", "Lightroom/Beste"))["items"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: best.map { ($0["file"] as? String ?? "", $0) })
        let hafen = try #require(byFile["Hafen.jpg"])
        #expect(hafen["title"] as? String == "Hafen & Boote" && hafen["caption"] as? String == "Der Hafen am Morgen", "\(hafen)")
        #expect(hafen["rating"] as? Int == 5 && hafen["keywords"] as? [String] == ["Rom", "Italien"] && hafen["favorite"] as? Bool == false)
        let markt = try #require(byFile["Markt.png"])
        #expect(markt["favorite"] as? Bool == true && markt["caption"] is NSNull && markt["keywords"] as? [String] == ["Italien"], "flagged: a favourite")
        let rom = try #require(try cli.json(try cli.run("--json", "list", "Lightroom/Reisen/Rom"))["items"] as? [[String: Any]])
        #expect(rom.first { $0["file"] as? String == "Klippen.webp" }?["rating"] as? Int == 5, "a rating past five stars is five, never a trap")
        // The same photo in another collection carries the same words.
        #expect(rom.first { $0["file"] as? String == "Hafen.jpg" }?["title"] as? String == "Hafen & Boote")
    }

    @Test("each collection in the order Lightroom shows it: its sort (capture time, file name, added order, custom) either way")
    func collectionSorts() throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: false)
        try catalog.execute("CREATE TABLE AgLibraryCollectionContent (id_local INTEGER PRIMARY KEY, collection INTEGER NOT NULL DEFAULT 0, content, owningModule)")
        // Rom holds Klippen (captured 5 May), Fehlt (6), Hafen (3), Markt (4), in its custom order.
        for (collection, name, type, direction) in [
            (30, "Zeit", "captureTime", "descending"), (31, "Namen", "fileName", "ascending"), (32, "Hinzugefügt", "addedOrder", "descending"),
            (33, "Eigene", "user", "descending"),
        ] as [(Int, String, String, String)] {
            try catalog.execute("INSERT INTO AgLibraryCollection (id_local, name, creationId, parent, systemOnly) VALUES (?, ?, 'com.adobe.ag.library.collection', NULL, 0)", [collection, name])
            for (image, position) in [(15, 1.0), (13, 2.0), (14, 3.0)] {
                try catalog.execute("INSERT INTO AgLibraryCollectionImage (collection, image, positionInCollection) VALUES (?, ?, ?)", [collection, image, position])
            }
            try catalog.execute(
                "INSERT INTO AgLibraryCollectionContent (collection, content, owningModule) VALUES (?, ?, 'com.adobe.ag.library.sortType'), (?, ?, 'com.adobe.ag.library.sortDirection')",
                [collection, type, collection, direction])
        }
        let result = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let albums = try cli.albumsByPath()
        #expect(albums["Lightroom/Zeit"] == ["Klippen.webp", "Markt.png", "Hafen.jpg"], "newest first")
        #expect(albums["Lightroom/Namen"] == ["Hafen.jpg", "Klippen.webp", "Markt.png"])
        #expect(albums["Lightroom/Hinzugefügt"] == ["Klippen.webp", "Markt.png", "Hafen.jpg"], "the last added first")
        #expect(albums["Lightroom/Eigene"] == ["Markt.png", "Hafen.jpg", "Klippen.webp"], "the custom order, reversed")
        #expect(albums["Lightroom/Reisen/Rom"] == ["Klippen.webp", nil, "Hafen.jpg", "Markt.png"], "no sort kept: the custom order")
    }

    @Test("a photo flagged rejected stays out of its collections, counted")
    func rejectedStaysOut() throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: false)
        try catalog.execute("UPDATE Adobe_images SET pick = -1 WHERE id_local = 13")  // Hafen
        let result = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            try cli.albumsByPath() == [
                "Lightroom/Reisen/Rom": ["Klippen.webp", nil, "Markt.png"], "Lightroom/Reisen/Leer": [], "Lightroom/Beste": ["Markt.png"],
                "Lightroom/Folders/Fotos/2024/Rom (2024)": ["Markt.png", "Klippen.webp", nil],
            ])
        #expect(result.stdout.contains("1 rejected photos"), "\(result.stdout)")
    }

    @Test("a catalog organized by folders alone: every photo and video in the Folders tree, a RAW+JPEG pair as its JPEG, a virtual copy once")
    func foldersOnly() throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: false)
        try catalog.execute("DELETE FROM AgLibraryCollection")
        try catalog.execute("DELETE FROM AgLibraryCollectionImage")
        // 2024/ holds a photo of its own and the folder Rom; the root itself holds one photo too.
        try catalog.execute("INSERT INTO AgLibraryFolder (id_local, id_global, pathFromRoot, rootFolder) VALUES (7, 'f7', '2024/', 1), (8, 'f8', '', 1)")
        try cli.copyExample("10-meadow.webp", to: pictures + "/2024/Wiese.webp")
        try cli.copyExample("11-forest.jpg", to: pictures + "/2024/IMG_7.JPG")
        try cli.copyExample("04-lighthouse.webp", to: pictures + "/Steg.webp")
        try Data("not a picture Lightroom could show".utf8).write(to: URL(fileURLWithPath: pictures + "/2024/IMG_7.CR2"))
        try cli.writeMovie(to: pictures + "/2024/Clip.mp4")
        for (id, base, ext, folder, format, sidecars) in [
            (40, "Wiese", "webp", 7, "WEBP", nil), (41, "IMG_7", "CR2", 7, "RAW", "JPG,xmp"), (42, "Clip", "mp4", 7, "VIDEO", nil),
            (43, "Steg", "webp", 8, "WEBP", nil),
        ] as [(Int, String, String, Int, String, String?)] {
            try catalog.execute(
                "INSERT INTO AgLibraryFile (id_local, id_global, baseName, extension, folder, sidecarExtensions) VALUES (?, ?, ?, ?, ?, ?)",
                [id, "l\(id)", base, ext, folder, sidecars])
            try catalog.execute(
                "INSERT INTO Adobe_images (id_local, id_global, rootFile, captureTime, fileFormat) VALUES (?, ?, ?, ?, ?)",
                [id + 10, "i\(id)", id, "2024-06-0\(id - 39)T10:00:00", format])
        }
        // A virtual copy of Hafen: the same file, another edit.
        try catalog.execute("INSERT INTO Adobe_images (id_local, id_global, rootFile, captureTime, masterImage) VALUES (60, 'i60', 3, '2024-05-03T10:00:00', 13)")
        let result = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            try cli.albumsByPath() == [
                "Lightroom/Folders/Fotos/Fotos": ["Steg.webp"],
                "Lightroom/Folders/Fotos/2024/2024": ["Wiese.webp", "IMG_7.JPG", "Clip.mp4"],
                "Lightroom/Folders/Fotos/2024/Rom": ["Hafen.jpg", "Markt.png", "Klippen.webp", nil],
            ])
        #expect(!result.stdout.contains("videos"), "\(result.stdout)")
        #expect(result.stdout.contains("1 virtual copies"), "\(result.stdout)")
        #expect(try cli.json(try cli.run("--json", "photos"))["photos"].map { ($0 as? [Any])?.count } == 7, "Hafen, Markt, Klippen, Wiese, IMG_7, Clip, Steg")
        let again = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(again.stdout.hasPrefix("nothing new"), "\(again.stdout)")
    }

    @Test("a catalog moved with its photos finds them beside it, as Lightroom does; a map's drive letter in any case")
    func foundBesideTheCatalog() throws {
        let cli = try CLI()
        let (catalog, _) = try catalog(cli, lightroom4: false)
        // Lightroom keeps the root's path from the catalog's folder too: the photos moved along with it.
        try catalog.execute("UPDATE AgLibraryRootFolder SET absolutePath = '/Users/ana/Pictures/Fotos/', relativePathFromCatalog = 'Fotos/'")
        let moved = try cli.run("import", "--from", "lightroom", catalog.path, "--dry-run")
        #expect(moved.status == 0 && moved.stdout.contains("Rom  (new album: 4 to import, 1 of them missing)"), "\(moved.stdout)\(moved.stderr)")
        #expect(!moved.stderr.contains("not on this machine"), "\(moved.stderr)")

        let other = try CLI()
        let (windows, pictures) = try self.catalog(other, lightroom4: false)
        let lower = try other.run("import", "--from", "lightroom", windows.path, "--map", "d:\\fotos=\(pictures)", "--albums-only")
        #expect(lower.status == 0, "\(lower.stderr)")
        #expect(try other.albumsByPath()["Lightroom/Reisen/Rom"] == ["Klippen.webp", nil, "Hafen.jpg", "Markt.png"])
    }

    @Test("a dry run names the root it cannot reach; importing again with the map fills the first import's placeholders in their places")
    func mappedTheSecondTime() throws {
        let cli = try CLI()
        let (catalog, pictures) = try catalog(cli, lightroom4: false)
        let dry = try cli.run("import", "--from", "lightroom", catalog.path, "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.stderr.contains("not on this machine: D:/Fotos (4 photos); --map D:/Fotos=WHERE says where it is here"), "\(dry.stderr)")
        let json = try cli.json(try cli.run("--json", "import", "--from", "lightroom", catalog.path, "--dry-run"))
        #expect((json["unreached"] as? [[String: Any]])?.first?["photos"] as? Int == 4, "\(json)")

        let first = try cli.run("import", "--from", "lightroom", catalog.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try cli.albumsByPath()["Lightroom/Reisen/Rom"] == [nil, nil, nil, nil])
        let second = try cli.run("import", "--from", "lightroom", catalog.path, "--map", "D:/Fotos=\(pictures)")
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let albums = try cli.albumsByPath()
        #expect(albums["Lightroom/Reisen/Rom"] == ["Klippen.webp", nil, "Hafen.jpg", "Markt.png"], "\(second.stdout)")
        #expect(albums["Lightroom/Beste"] == ["Markt.png", "Hafen.jpg"])
        #expect(albums["Lightroom/Folders/Fotos/2024/Rom (2024)"] == ["Hafen.jpg", "Markt.png", "Klippen.webp", nil])
        let pending = try cli.run("pending").stdout
        #expect(pending.contains("/Fotos/2024/Rom/Fehlt.jpg") && !pending.contains("Hafen"), "\(pending)")
    }

    @Test("a digiKam catalog given as Lightroom's is refused with one line")
    func refused() throws {
        let cli = try CLI()
        let other = cli.folder.path("digikam4.db")
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE Albums (id INTEGER PRIMARY KEY)") }
        let refused = try cli.run("import", "--from", "lightroom", other)
        #expect(refused.status == 1 && refused.stderr.contains("is not a Lightroom Classic catalog"), "\(refused.stderr)")
    }

    @Test("a damaged catalog is refused with one line and left as it was")
    func damaged() throws {
        let cli = try CLI()
        let (catalog, _) = try catalog(cli, lightroom4: false)
        try cli.run("album", "create", "Kept")
        try cli.expectDamagedCatalogRefused("lightroom", catalog: catalog.path, file: catalog.path)
    }
}
