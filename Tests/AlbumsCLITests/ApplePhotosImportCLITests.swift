import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// `albums import --from apple-photos LIBRARY.photoslibrary`: albums and
/// folders in Photos' order, each album in its manual order, originals from
/// the library's own folder, whichever version of Photos named the tables.
@Suite("import --from apple-photos", .serialized)
struct ApplePhotosImportCLITests {
    /// The shape of `database/Photos.sqlite` in one version of Photos: the
    /// asset table's name and the album–asset join's (Core Data names them by
    /// entity numbers), as osxphotos lists them for Photos 5 and for 6 on.
    enum Version: CaseIterable {
        case photos5, photos6

        var assets: String { self == .photos5 ? "ZGENERICASSET" : "ZASSET" }
        var join: (table: String, album: String, asset: String, order: String) {
            self == .photos5 ? ("Z_26ASSETS", "Z_26ALBUMS", "Z_34ASSETS", "Z_FOK_34ASSETS") : ("Z_28ASSETS", "Z_28ALBUMS", "Z_3ASSETS", "Z_FOK_3ASSETS")
        }
    }

    /// A library: folder "Reisen" holding album "Rom" (by hand: cliffs, a
    /// missing one, harbour, market), album "Beste" at the top (market
    /// first), a smart and a shared album, an import session (Photos' own
    /// record, no collection), a video (in "Rom", after the market) and a photo in the trash.
    func library(_ cli: CLI, _ version: Version) throws -> String {
        let library = cli.folder.path("Fotos.photoslibrary")
        try FileManager.default.createDirectory(atPath: library + "/database", withIntermediateDirectories: true)
        for (example, directory, name) in [("01-harbour.jpg", "A", "A1B2.jpeg"), ("02-market.png", "B", "B3C4.png"), ("03-cliffs.webp", "C", "C5D6.webp")] {
            try FileManager.default.createDirectory(atPath: "\(library)/originals/\(directory)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/" + example, toPath: "\(library)/originals/\(directory)/\(name)")
        }
        try cli.writeMovie(to: "\(library)/originals/E/E9F0.mov")
        let (assets, join) = (version.assets, version.join)
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            try db.execute(sql: """
                CREATE TABLE \(assets) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZTRASHEDSTATE INTEGER,
                    ZFAVORITE INTEGER, ZDATECREATED TIMESTAMP, ZDIRECTORY VARCHAR, ZFILENAME VARCHAR, ZUUID VARCHAR);
                CREATE TABLE ZGENERICALBUM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZTRASHEDSTATE INTEGER,
                    ZCUSTOMSORTASCENDING INTEGER, ZCUSTOMSORTKEY INTEGER, ZPARENTFOLDER INTEGER, Z_FOK_PARENTFOLDER INTEGER,
                    ZTITLE VARCHAR, ZUUID VARCHAR);
                CREATE TABLE \(join.table) (\(join.album) INTEGER, \(join.asset) INTEGER, \(join.order) INTEGER,
                    PRIMARY KEY (\(join.album), \(join.asset)));
                INSERT INTO \(assets) (Z_PK, ZKIND, ZTRASHEDSTATE, ZFAVORITE, ZDIRECTORY, ZFILENAME) VALUES
                    (1, 0, 0, 1, 'A', 'A1B2.jpeg'), (2, 0, 0, 0, 'B', 'B3C4.png'), (3, 0, 0, 0, 'C', 'C5D6.webp'),
                    (4, 0, 0, 0, 'D', 'D7E8.jpeg'), (5, 1, 0, 0, 'E', 'E9F0.mov'), (6, 0, 1, 0, 'F', 'F1A2.jpeg');
                INSERT INTO ZGENERICALBUM (Z_PK, ZKIND, ZTRASHEDSTATE, ZPARENTFOLDER, Z_FOK_PARENTFOLDER, ZTITLE) VALUES
                    (1, 3999, 0, NULL, NULL, NULL), (2, 4000, 0, 1, 2048, 'Reisen'), (3, 2, 0, 2, 1024, 'Rom'),
                    (4, 2, 0, 1, 1024, 'Beste'), (5, 1507, 0, 1, 3072, 'Lieblinge'), (6, 1505, 0, NULL, NULL, 'Familie'),
                    (10, 1506, 0, NULL, NULL, NULL);
                INSERT INTO \(join.table) VALUES (3, 3, 1024), (3, 4, 2048), (3, 1, 3072), (3, 2, 4096), (3, 5, 5120), (3, 6, 6144),
                    (4, 2, 1024), (4, 1, 2048);
                """)
        }
        return library
    }

    @Test("albums and folders in Photos' order, each album in its manual order, with the tables of either version", arguments: Version.allCases)
    func manualOrder(_ version: Version) throws {
        let cli = try CLI()
        let library = try library(cli, version)
        let result = try cli.run("import", "--from", "apple-photos", library)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            try cli.albumsByPath() == ["Photos/Beste": ["B3C4.png", "A1B2.jpeg"], "Photos/Reisen/Rom": ["C5D6.webp", nil, "A1B2.jpeg", "B3C4.png", "E9F0.mov"]])
        let tree = try cli.run("album", "list", "--tree").stdout
        #expect(tree.range(of: "Beste")!.lowerBound < tree.range(of: "Reisen")!.lowerBound, "Photos' order: \(tree)")
        #expect(result.stdout.contains("1 shared albums, 1 smart albums, projects and other collections, 1 photos in the trash"), "\(result.stdout)")
        #expect(try cli.run("check").status == 0)
    }

    @Test("what Photos does not show in an album stays out, counted: hidden photos and burst frames not picked")
    func hiddenStaysOut() throws {
        let cli = try CLI()
        let library = try library(cli, .photos6)
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            try db.execute(sql: """
                ALTER TABLE ZASSET ADD COLUMN ZHIDDEN INTEGER;
                ALTER TABLE ZASSET ADD COLUMN ZAVALANCHEPICKTYPE INTEGER;
                UPDATE ZASSET SET ZHIDDEN = 1 WHERE Z_PK = 1;
                UPDATE ZASSET SET ZAVALANCHEPICKTYPE = 2 WHERE Z_PK = 3;
                UPDATE ZASSET SET ZAVALANCHEPICKTYPE = 52 WHERE Z_PK = 2;
                """)
        }
        let result = try cli.run("import", "--from", "apple-photos", library)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // Harbour (hidden) and cliffs (a burst frame not picked) are in no album; market (a picked frame) is.
        #expect(try cli.albumsByPath() == ["Photos/Beste": ["B3C4.png"], "Photos/Reisen/Rom": [nil, "B3C4.png", "E9F0.mov"]])
        #expect(result.stdout.contains("1 hidden photos, 1 burst frames not picked"), "\(result.stdout)")
        #expect(try cli.run("--json", "photos").stdout.contains("A1B2") == false, "a hidden photo never reaches the library")

        // Asked for: the hidden one and the burst frame, and the trashed one whose original is gone, said so (exit 1).
        let hidden = try cli.run("import", "--from", "apple-photos", library, "--with-hidden")
        #expect(hidden.status == 1 && hidden.stderr.contains("2 photos Apple Photos hid or threw away set aside in locked album 'Hidden in Apple Photos'"), "\(hidden.stderr)")
        #expect(hidden.stderr.contains("1 file not found"), "\(hidden.stderr)")
        #expect(try cli.albumsByPath()["Hidden in Apple Photos"] == ["A1B2.jpeg", "C5D6.webp"])
    }

    @Test("each album in the order Photos shows it: by hand, by date newest or oldest first, or by title")
    func albumSorts() throws {
        let cli = try CLI()
        let library = try library(cli, .photos6)
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            // Taken: market first, then harbour, then cliffs; titled: "b", "c", "A".
            try db.execute(sql: """
                ALTER TABLE ZASSET ADD COLUMN ZADDITIONALATTRIBUTES INTEGER;
                CREATE TABLE ZADDITIONALASSETATTRIBUTES (Z_PK INTEGER PRIMARY KEY, ZASSET INTEGER, ZTITLE VARCHAR);
                INSERT INTO ZADDITIONALASSETATTRIBUTES VALUES (11, 1, 'c'), (12, 2, 'b'), (13, 3, 'A');
                UPDATE ZASSET SET ZADDITIONALATTRIBUTES = Z_PK + 10, ZDATECREATED = CASE Z_PK WHEN 2 THEN 100 WHEN 1 THEN 200 WHEN 3 THEN 300 END;
                INSERT INTO ZGENERICALBUM (Z_PK, ZKIND, ZTRASHEDSTATE, ZPARENTFOLDER, Z_FOK_PARENTFOLDER, ZTITLE, ZCUSTOMSORTKEY, ZCUSTOMSORTASCENDING)
                    VALUES (7, 2, 0, 1, 4096, 'Neueste', 1, 0), (8, 2, 0, 1, 5120, 'Älteste', 1, 1), (9, 2, 0, 1, 6144, 'Titel', 5, 1);
                INSERT INTO Z_28ASSETS VALUES (7, 1, 1), (7, 2, 2), (7, 3, 3), (8, 3, 1), (8, 1, 2), (8, 2, 3), (9, 1, 1), (9, 2, 2), (9, 3, 3);
                """)
        }
        let result = try cli.run("import", "--from", "apple-photos", library)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let albums = try cli.albumsByPath()
        #expect(albums["Photos/Neueste"] == ["C5D6.webp", "A1B2.jpeg", "B3C4.png"])
        #expect(albums["Photos/Älteste"] == ["B3C4.png", "A1B2.jpeg", "C5D6.webp"])
        #expect(albums["Photos/Titel"] == ["C5D6.webp", "B3C4.png", "A1B2.jpeg"])
        #expect(albums["Photos/Beste"] == ["B3C4.png", "A1B2.jpeg"], "by hand, as before")
    }

    @Test("titles, descriptions, keywords and hearts written in Photos come along on every item of the photo; a hidden photo's stay out with it")
    func wordsFromPhotos() throws {
        let cli = try CLI()
        let library = try library(cli, .photos6)
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            try db.execute(sql: """
                ALTER TABLE ZASSET ADD COLUMN ZADDITIONALATTRIBUTES INTEGER;
                UPDATE ZASSET SET ZADDITIONALATTRIBUTES = Z_PK + 10;
                CREATE TABLE ZADDITIONALASSETATTRIBUTES (Z_PK INTEGER PRIMARY KEY, ZASSET INTEGER, ZTITLE VARCHAR, ZASSETDESCRIPTION INTEGER);
                INSERT INTO ZADDITIONALASSETATTRIBUTES VALUES (11, 1, 'Porto', 21), (12, 2, NULL, NULL), (13, 3, '', 23), (16, 6, 'Thrown away', NULL);
                CREATE TABLE ZASSETDESCRIPTION (Z_PK INTEGER PRIMARY KEY, ZASSETATTRIBUTES INTEGER, ZLONGDESCRIPTION VARCHAR);
                INSERT INTO ZASSETDESCRIPTION VALUES (21, 11, 'Der Hafen im Juli'), (23, 13, '  ');
                CREATE TABLE ZKEYWORD (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR);
                INSERT INTO ZKEYWORD VALUES (31, 'Portugal'), (32, 'Meer');
                CREATE TABLE Z_1KEYWORDS (Z_1ASSETATTRIBUTES INTEGER, Z_38KEYWORDS INTEGER, PRIMARY KEY (Z_1ASSETATTRIBUTES, Z_38KEYWORDS));
                INSERT INTO Z_1KEYWORDS VALUES (11, 31), (11, 32), (12, 32);
                """)
        }
        let result = try cli.run("import", "--from", "apple-photos", library)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("favourites"), "carried, not counted: \(result.stdout)")
        for album in ["Photos/Beste", "Photos/Reisen/Rom"] {
            let items = try #require(try cli.json(try cli.run("--json", "list", album))["items"] as? [[String: Any]])
            let byFile = Dictionary(items.compactMap { item in (item["file"] as? String).map { ($0, item) } }) { a, _ in a }
            let harbour = try #require(byFile["A1B2.jpeg"])
            #expect(harbour["title"] as? String == "Porto" && harbour["caption"] as? String == "Der Hafen im Juli", "\(album): \(harbour)")
            #expect(harbour["favorite"] as? Bool == true && harbour["keywords"] as? [String] == ["Meer", "Portugal"])
            #expect(byFile["B3C4.png"]?["keywords"] as? [String] == ["Meer"] && byFile["B3C4.png"]?["favorite"] as? Bool == false)
        }
        let found = try #require(try cli.json(try cli.run("--json", "photos", "--keyword", "portugal"))["photos"] as? [[String: Any]])
        #expect(found.compactMap { $0["file"] as? String } == ["A1B2.jpeg"])
    }

    @Test("the library's photos that no album holds come in, in no album; --albums-only leaves them out")
    func photosInNoAlbum() throws {
        for albumsOnly in [false, true] {
            let cli = try CLI()
            let library = try library(cli, .photos6)
            try FileManager.default.createDirectory(atPath: library + "/originals/G", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/11-forest.jpg", toPath: library + "/originals/G/G1H2.jpeg")
            try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
                try db.execute(sql: "INSERT INTO ZASSET (Z_PK, ZKIND, ZTRASHEDSTATE, ZDIRECTORY, ZFILENAME) VALUES (11, 0, 0, 'G', 'G1H2.jpeg')")
            }
            let result = try cli.run(["import", "--from", "apple-photos", library] + (albumsOnly ? ["--albums-only"] : []))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let loose = try cli.json(try cli.run("--json", "photos", "--in-no-album"))["photos"] as? [[String: Any]]
            #expect(loose?.compactMap { $0["file"] as? String } == (albumsOnly ? [] : ["G1H2.jpeg"]), "albums only: \(albumsOnly)")
        }
    }

    @Test("a photo kept only in iCloud and a referenced file on another volume each say why they are not here; a map brings the referenced one")
    func whyNotHere() throws {
        let cli = try CLI()
        let library = try library(cli, .photos6)
        let disk = cli.folder.path("Fotoplatte")
        try cli.copyExample("11-forest.jpg", to: disk + "/Bilder/2024/Wald.jpg")
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            try db.execute(sql: """
                ALTER TABLE ZASSET ADD COLUMN ZSAVEDASSETTYPE INTEGER;
                CREATE TABLE ZINTERNALRESOURCE (Z_PK INTEGER PRIMARY KEY, ZASSET INTEGER, ZDATASTORESUBTYPE INTEGER, ZLOCALAVAILABILITY INTEGER,
                    ZFILESYSTEMBOOKMARK INTEGER, ZFILESYSTEMVOLUME INTEGER);
                CREATE TABLE ZFILESYSTEMBOOKMARK (Z_PK INTEGER PRIMARY KEY, ZRESOURCE INTEGER, ZPATHRELATIVETOVOLUME VARCHAR);
                CREATE TABLE ZFILESYSTEMVOLUME (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR, ZUUID VARCHAR);
                INSERT INTO ZASSET (Z_PK, ZKIND, ZTRASHEDSTATE, ZDIRECTORY, ZFILENAME, ZSAVEDASSETTYPE) VALUES (7, 0, 0, 'Z', 'Z1.jpeg', 10);
                INSERT INTO Z_28ASSETS VALUES (4, 7, 4096);
                INSERT INTO ZFILESYSTEMVOLUME VALUES (1, 'Fotoplatte', 'V1');
                INSERT INTO ZFILESYSTEMBOOKMARK VALUES (1, 9, 'Bilder/2024/Wald.jpg');
                -- Rom's missing photo (asset 4) is in iCloud only; the harbour (1) is here; the forest (7) is referenced.
                INSERT INTO ZINTERNALRESOURCE (ZASSET, ZDATASTORESUBTYPE, ZLOCALAVAILABILITY) VALUES (4, 1, -1), (1, 1, 1);
                INSERT INTO ZINTERNALRESOURCE (ZASSET, ZDATASTORESUBTYPE, ZLOCALAVAILABILITY, ZFILESYSTEMBOOKMARK, ZFILESYSTEMVOLUME) VALUES (7, 1, 1, 1, 1);
                """)
        }
        let dry = try cli.run("import", "--from", "apple-photos", library, "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("not here \(library)/originals/D/D7E8.jpeg: kept only in iCloud"), "\(dry.stderr)")
        #expect(dry.stderr.contains("not here /Volumes/Fotoplatte/Bilder/2024/Wald.jpg: a file Photos refers to where it was imported from, on the volume 'Fotoplatte'"), "\(dry.stderr)")
        #expect(dry.stderr.contains("not on this machine: /Volumes/Fotoplatte/Bilder/2024 (1 photo)"), "\(dry.stderr)")
        #expect(!dry.stderr.contains("originals/D ("), "a photo in iCloud is no folder's to map: \(dry.stderr)")
        let json = try cli.json(try cli.run("--json", "import", "--from", "apple-photos", library, "--dry-run"))
        #expect((json["why_missing"] as? [[String: Any]])?.count == 2, "\(json)")

        let result = try cli.run("import", "--from", "apple-photos", library, "--map", "/Volumes/Fotoplatte=\(disk)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Photos/Beste"] == ["B3C4.png", "A1B2.jpeg", "Wald.jpg"])
    }

    @Test("--edited brings a photo edited in Photos as Photos rendered it; without it the original comes, and the edit is counted")
    func renderedEdits() throws {
        for edited in [false, true] {
            let cli = try CLI()
            let library = try library(cli, .photos6)
            let uuid = "7A1C2E3F-0000-4000-8000-00000000AAAA"
            try cli.copyExample("11-forest.jpg", to: "\(library)/resources/renders/7/\(uuid)_1_201_a.jpeg")
            try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
                try db.execute(sql: "ALTER TABLE ZASSET ADD COLUMN ZHASADJUSTMENTS INTEGER")
                // The harbour (asset 1, in Beste and Rom) was turned and cropped in Photos.
                try db.execute(sql: "UPDATE ZASSET SET ZHASADJUSTMENTS = 1, ZUUID = ? WHERE Z_PK = 1", arguments: [uuid])
            }
            let result = try cli.run(["import", "--from", "apple-photos", library] + (edited ? ["--edited"] : []))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let rendered = "\(uuid)_1_201_a.jpeg"
            #expect(try cli.albumsByPath()["Photos/Beste"] == ["B3C4.png", edited ? rendered : "A1B2.jpeg"], "edited: \(edited)")
            #expect(result.stdout.contains("1 edited photos") == !edited, "\(result.stdout)")
        }
        let cli = try CLI()
        let refused = try cli.run("import", "--from", "shotwell", cli.folder.path("photo.db"), "--edited")
        #expect(refused.status == 64 && refused.stderr.contains("--edited goes with an Apple Photos library"), "\(refused.stderr)")
    }

    @Test("a library made before Photos 5 is refused with one line saying so")
    func olderLibrary() throws {
        let cli = try CLI()
        let library = cli.folder.path("Old.photoslibrary")
        try FileManager.default.createDirectory(atPath: library + "/database", withIntermediateDirectories: true)
        try Data("SQLite format 3\0".utf8).write(to: URL(fileURLWithPath: library + "/database/photos.db"))
        let refused = try cli.run("import", "--from", "apple-photos", library)
        #expect(refused.status == 1 && refused.stderr.contains("Photos 4 or earlier"), "\(refused.stderr)")
    }

    @Test("a library whose database is damaged is refused with one line and left as it was")
    func damaged() throws {
        let cli = try CLI()
        let library = try library(cli, Version.allCases[0])
        try cli.run("album", "create", "Kept")
        try cli.expectDamagedCatalogRefused("apple-photos", catalog: library, file: library + "/database/Photos.sqlite")
    }
}
