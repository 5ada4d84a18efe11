import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// `albums import --from digikam digikam4.db`: album roots and physical
/// albums as folders and albums, each in its manual order where one was
/// set, from either schema.
@Suite("import --from digikam", .serialized)
struct DigikamImportCLITests {
    /// A digiKam catalog built from the tables digiKam creates (KDE/digikam,
    /// tests/databases/19/sqlite_digikam4.db.sql for the schema before
    /// manual order; `Images.manualOrder` added after it).
    struct Catalog {
        let path: String
        let hasManualOrder: Bool

        init(at path: String, hasManualOrder: Bool) throws {
            self.path = path
            self.hasManualOrder = hasManualOrder
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: """
                    CREATE TABLE AlbumRoots (id INTEGER PRIMARY KEY, label TEXT, status INTEGER NOT NULL, type INTEGER NOT NULL,
                        identifier TEXT, specificPath TEXT, UNIQUE(identifier, specificPath));
                    CREATE TABLE Albums (id INTEGER PRIMARY KEY, albumRoot INTEGER NOT NULL, relativePath TEXT NOT NULL, date DATE,
                        caption TEXT, collection TEXT, icon INTEGER, UNIQUE(albumRoot, relativePath));
                    CREATE TABLE Images (id INTEGER PRIMARY KEY, album INTEGER, name TEXT NOT NULL, status INTEGER NOT NULL,
                        category INTEGER NOT NULL, modificationDate DATETIME, fileSize INTEGER, uniqueHash TEXT,
                        \(hasManualOrder ? "manualOrder INTEGER," : "") UNIQUE (album, name));
                    CREATE TABLE ImageInformation (imageid INTEGER PRIMARY KEY, rating INTEGER, creationDate DATETIME,
                        digitizationDate DATETIME, orientation INTEGER, width INTEGER, height INTEGER, format TEXT, colorDepth INTEGER,
                        colorModel INTEGER);
                    CREATE TABLE ImageTags (imageid INTEGER NOT NULL, tagid INTEGER NOT NULL, UNIQUE (imageid, tagid));
                    CREATE TABLE Tags (id INTEGER PRIMARY KEY, pid INTEGER, name TEXT NOT NULL, icon INTEGER, iconkde TEXT, UNIQUE (name, pid));
                    INSERT INTO Tags (id, pid, name) VALUES (1, 0, '_Digikam_Internal_Tags_'), (2, 1, 'Color Label None'), (3, 1, 'Current Version');
                    INSERT INTO ImageTags VALUES (1, 2), (1, 3), (2, 2);
                    """)
            }
        }

        func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
            try DatabaseQueue(path: path).write { try $0.execute(sql: sql, arguments: arguments) }
        }

        func addImage(_ album: Int64, _ name: String, manualOrder: Int64? = nil, status: Int = 1, category: Int = 1) throws {
            if hasManualOrder {
                try execute(
                    "INSERT INTO Images (album, name, status, category, manualOrder) VALUES (?, ?, ?, ?, ?)", [album, name, status, category, manualOrder])
            } else {
                try execute("INSERT INTO Images (album, name, status, category) VALUES (?, ?, ?, ?)", [album, name, status, category])
            }
        }
    }

    /// One root, "Family", made on another machine under /mnt/old/Pictures:
    /// 2024 (its own photo, and Summer inside), and Été à Nîmes.
    func family(_ cli: CLI, hasManualOrder: Bool) throws -> (Catalog, pictures: String) {
        let pictures = cli.folder.path("Pictures")
        try cli.copyExample("05-sunset.heic", to: pictures + "/2024/sunset.heic")
        try cli.copyExample("01-harbour.jpg", to: pictures + "/2024/Summer/a-harbour.jpg")
        try cli.copyExample("02-market.png", to: pictures + "/2024/Summer/b-market.png")
        try cli.copyExample("03-cliffs.webp", to: pictures + "/2024/Summer/c-cliffs.webp")
        try cli.copyExample("11-forest.jpg", to: pictures + "/Été à Nîmes/forêt.jpg")
        let catalog = try Catalog(at: cli.folder.path("digikam4.db"), hasManualOrder: hasManualOrder)
        try catalog.execute(
            "INSERT INTO AlbumRoots VALUES (1, 'Family', 0, 1, 'volumeid:?uuid=800b21c2-dadc-4930-829e-a96b04ce26fa', '/mnt/old/Pictures')")
        try catalog.execute("INSERT INTO Albums (id, albumRoot, relativePath) VALUES (1, 1, '/2024'), (2, 1, '/2024/Summer'), (3, 1, '/Été à Nîmes')")
        try catalog.addImage(1, "sunset.heic")
        // By hand: cliffs, harbour; market has no manual place (NULL), which digiKam reads as 0: first.
        try catalog.addImage(2, "a-harbour.jpg", manualOrder: 2)
        try catalog.addImage(2, "b-market.png")
        try catalog.addImage(2, "c-cliffs.webp", manualOrder: 1)
        try catalog.addImage(2, "hidden.jpg", status: 2)
        try catalog.addImage(3, "forêt.jpg")
        return (catalog, pictures)
    }

    @Test("albums nest as their paths do, each in digiKam's manual order (an unset place first, as digiKam reads it), or in name order before manual order existed", arguments: [true, false])
    func manualOrder(_ hasManualOrder: Bool) throws {
        let cli = try CLI()
        let (catalog, pictures) = try family(cli, hasManualOrder: hasManualOrder)
        // A video (category 2) comes in beside the photos; a sound recording (3) does not.
        try cli.writeMovie(to: pictures + "/Été à Nîmes/vagues.mp4")
        try catalog.addImage(3, "vagues.mp4", category: 2)
        try catalog.addImage(3, "chant.m4a", category: 3)
        // A Live Photo, as digiKam lists it: its still and its motion, two images; one item here.
        try cli.copyExample("04-lighthouse.webp", to: pictures + "/Été à Nîmes/IMG_7.JPG")
        try cli.writeMovie(to: pictures + "/Été à Nîmes/IMG_7.MOV", milliseconds: 1_500)
        try catalog.addImage(3, "IMG_7.JPG")
        try catalog.addImage(3, "IMG_7.MOV", category: 2)
        let result = try cli.run("import", "--from", "digikam", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.run("show", "Family/Été à Nîmes:2").stdout.contains("live       a Live Photo: its motion IMG_7.MOV"))
        let summer = hasManualOrder ? ["b-market.png", "c-cliffs.webp", "a-harbour.jpg"] : ["a-harbour.jpg", "b-market.png", "c-cliffs.webp"]
        #expect(
            try cli.albumsByPath() == [
                "Family/2024/2024": ["sunset.heic"], "Family/2024/Summer": summer, "Family/Été à Nîmes": ["forêt.jpg", "IMG_7.JPG", "vagues.mp4"],
            ])
        #expect(result.stdout.contains("not carried: 1 hidden or trashed photos"), "\(result.stdout)")
        #expect(!result.stdout.contains("tags"), "digiKam's own labels are no tags of the person's: \(result.stdout)")
        #expect(try cli.run("check").status == 0)
        // Again: nothing new.
        let again = try cli.run("import", "--from", "digikam", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)")
        #expect(again.stdout.hasPrefix("nothing new"), "\(again.stdout)\(again.stderr)")
    }

    @Test("a root named by its mount path is found where digiKam finds it; titles, captions, ratings, picks, tags and album captions come along; a dry run names the root that is away")
    func rootsAndWords() throws {
        let cli = try CLI()
        let (catalog, pictures) = try family(cli, hasManualOrder: true)
        let dry = try cli.run("import", "--from", "digikam", catalog.path, "--dry-run")
        #expect(dry.stderr.contains("not on this machine: /mnt/old/Pictures (5 photos); --map /mnt/old/Pictures=WHERE says where it is here"), "\(dry.stderr)")
        // As digiKam writes a collection on a volume without a UUID: the mount path percent-encoded, the path on it "/".
        let encoded = try #require(pictures.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try catalog.execute("UPDATE AlbumRoots SET identifier = ?, specificPath = '/'", ["volumeid:?path=\(encoded)"])
        try catalog.execute("""
            CREATE TABLE ImageComments (id INTEGER PRIMARY KEY, imageid INTEGER, type INTEGER, language TEXT, author TEXT, date DATETIME, comment TEXT);
            INSERT INTO ImageComments (imageid, type, language, comment) VALUES (1, 1, 'x-default', 'Sunset over the bay'), (1, 3, 'x-default', 'Bay'),
                (2, 1, 'de-DE', 'Hafen'), (2, 1, 'x-default', 'Harbour'), (3, 1, 'x-default', '  ');
            UPDATE Albums SET caption = 'Our summer' WHERE id = 2;
            INSERT INTO Tags (id, pid, name) VALUES (4, 0, 'Trips'), (5, 4, 'Lisbon'), (6, 1, 'Pick Label Rejected'), (7, 1, 'Pick Label Accepted');
            INSERT INTO ImageTags VALUES (2, 5), (2, 4), (3, 6), (1, 7);
            INSERT INTO ImageInformation (imageid, rating) VALUES (2, 4), (4, -1);
            """)
        let result = try cli.run("import", "--from", "digikam", catalog.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Family/2024/Summer"] == ["b-market.png", "c-cliffs.webp", "a-harbour.jpg"], "no map needed, no '//' paths")
        #expect(result.stdout.contains("not carried: 1 hidden or trashed photos\n"), "\(result.stdout)")
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        #expect(albums.first { $0["name"] as? String == "Summer" }?["description"] as? String == "Our summer", "an album's caption: \(albums)")
        let summer = try #require(try cli.json(try cli.run("--json", "list", "Family/2024/Summer"))["items"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: summer.map { ($0["file"] as? String ?? "", $0) })
        #expect(byFile["a-harbour.jpg"]?["caption"] as? String == "Harbour", "the default language's caption")
        #expect(byFile["a-harbour.jpg"]?["rating"] as? Int == 4 && byFile["a-harbour.jpg"]?["keywords"] as? [String] == ["Trips", "Lisbon"])
        #expect(byFile["b-market.png"]?["rating"] as? String == "rejected" && byFile["b-market.png"]?["caption"] is NSNull)
        #expect(byFile["c-cliffs.webp"]?["rating"] is NSNull && byFile["c-cliffs.webp"]?["keywords"] as? [String] == [])
        let sunset = try #require((try cli.json(try cli.run("--json", "list", "Family/2024/2024"))["items"] as? [[String: Any]])?.first)
        #expect(sunset["title"] as? String == "Bay" && sunset["caption"] as? String == "Sunset over the bay" && sunset["favorite"] as? Bool == true)
        #expect(!result.stderr.contains("not on this machine"), "\(result.stderr)")
    }

    @Test("each album in the sort digiKam keeps in the digikamrc beside the catalog, either way; --order overrides it; another catalog refuses --order")
    func sortSetting() throws {
        let cli = try CLI()
        let (catalog, pictures) = try family(cli, hasManualOrder: true)
        // Summer's photos as digiKam dated them: market oldest, then harbour, cliffs unknown.
        try catalog.execute("INSERT INTO ImageInformation (imageid, creationDate, rating) VALUES (2, '2024-07-02T10:00:00', 1), (3, '2024-07-01T10:00:00', 5)")
        // Rating (5), descending: the best first.
        try "[General Settings]\nImage Sort Order=0\n\n[Album Settings]\nImage Sort Order=5\nImage Sorting=1\n"
            .write(toFile: cli.folder.path("digikamrc"), atomically: true, encoding: .utf8)
        let map = "/mnt/old/Pictures=\(pictures)"
        #expect(try cli.run("import", "--from", "digikam", catalog.path, "--map", map).status == 0)
        #expect(try cli.albumsByPath()["Family/2024/Summer"] == ["b-market.png", "a-harbour.jpg", "c-cliffs.webp"])

        let other = try CLI()
        let (again, _) = try family(other, hasManualOrder: true)
        try again.execute("INSERT INTO ImageInformation (imageid, creationDate) VALUES (2, '2024-07-02T10:00:00'), (3, '2024-07-01T10:00:00')")
        let dated = try other.run("import", "--from", "digikam", again.path, "--map", map, "--order", "capture-date")
        #expect(dated.status == 0, "\(dated.stderr)")
        #expect(try other.albumsByPath()["Family/2024/Summer"] == ["b-market.png", "a-harbour.jpg", "c-cliffs.webp"], "by date, the undated last")

        let refused = try other.run("import", "--from", "shotwell", again.path, "--order", "name")
        #expect(refused.status == 64 && refused.stderr.contains("--order goes with --tree, or with a digiKam catalog"), "\(refused.stderr)")
    }

    @Test("--with-hidden brings digiKam's hidden and trashed photos into a locked album of their own; its obsolete ones are gone and stay so")
    func withHidden() throws {
        let cli = try CLI()
        let (catalog, pictures) = try family(cli, hasManualOrder: true)
        try cli.copyExample("04-lighthouse.webp", to: pictures + "/2024/Summer/hidden.jpg")
        try catalog.addImage(2, "gone.jpg", status: 4)
        let result = try cli.run("import", "--from", "digikam", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)", "--with-hidden")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Hidden in digiKam"] == ["hidden.jpg"])
        let albums = try #require(try cli.json(try cli.run("--json", "album", "list"))["albums"] as? [[String: Any]])
        #expect(albums.first { $0["name"] as? String == "Hidden in digiKam" }?["locked"] as? Bool == true)
    }

    @Test("an original not found holds its place; a Shotwell catalog given as digiKam's is refused")
    func missingAndRefused() throws {
        let cli = try CLI()
        let (catalog, pictures) = try family(cli, hasManualOrder: true)
        try FileManager.default.removeItem(atPath: pictures + "/2024/Summer/a-harbour.jpg")
        #expect(try cli.run("import", "--from", "digikam", catalog.path, "--map", "/mnt/old/Pictures=\(pictures)").status == 0)
        #expect(try cli.albumsByPath()["Family/2024/Summer"] == ["b-market.png", "c-cliffs.webp", nil])
        let other = cli.folder.path("photo.db")
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE PhotoTable (id INTEGER PRIMARY KEY, filename TEXT)") }
        let refused = try cli.run("import", "--from", "digikam", other)
        #expect(refused.status == 1 && refused.stderr.contains("is not a digiKam catalog: it has no AlbumRoots"), "\(refused.stderr)")
    }

    @Test("a damaged catalog is refused with one line and left as it was")
    func damaged() throws {
        let cli = try CLI()
        let (catalog, _) = try family(cli, hasManualOrder: true)
        try cli.run("album", "create", "Kept")
        try cli.expectDamagedCatalogRefused("digikam", catalog: catalog.path, file: catalog.path)
    }
}
