import AlbumsPersistence
import Foundation
import GRDB

/// Finding photos in a library of `count` photos (a million by default):
/// each kind of search, a first page of 100 as `albums serve` reads it (in
/// process, median of 5), and `albums photos` as a whole process beside
/// `sqlite3` running the same query's SQL.
///
/// The photos are spread over ten years (a tenth without a date), twenty
/// cameras, four lenses, four formats and both shapes; 60% of them stand in
/// 1,000 albums, the rest in none; a third record a place. Every item
/// carries a caption, some a title, keywords, a heart or stars.
func runSearchBenchmark(in folder: URL, count: Int) throws {
    let path = folder.appending(path: "search-\(count).albums").path
    let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
    try library.write { writer in
        // Spread by a multiplicative hash of the row number: the same library every run.
        try writer.database.execute(
            sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?1),
                h(x, k) AS (SELECT x, (x * 2654435761) % 4294967296 FROM n)
                INSERT INTO photo (sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
                    camera_make, camera_model, lens, has_location, original_name, source_path)
                SELECT randomblob(32), x, CASE k % 4 WHEN 0 THEN 'image/jpeg' WHEN 1 THEN 'image/heic' WHEN 2 THEN 'image/jpeg' ELSE 'image/png' END,
                    CASE WHEN (k / 7) % 3 = 0 THEN 3000 ELSE 4000 END, CASE WHEN (k / 7) % 3 = 0 THEN 4000 ELSE 3000 END, 1,
                    CASE WHEN k % 10 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', 1420070400 + (k % 315360000), 'unixepoch') END,
                    CASE k % 5 WHEN 0 THEN 'FUJIFILM' WHEN 1 THEN 'Apple' WHEN 2 THEN 'Canon' WHEN 3 THEN 'SONY' ELSE 'NIKON CORPORATION' END,
                    'Model ' || (k % 20), CASE (k / 20) % 4 WHEN 0 THEN NULL ELSE 'Lens ' || ((k / 20) % 4) END, (k / 80) % 3 = 1,
                    'IMG_' || x || '.JPG', '/photos/IMG_' || x || '.JPG'
                FROM h
                """,
            arguments: [count])
        let ids = try PhotoID.fetchAll(writer.database, sql: "SELECT id FROM photo ORDER BY id")
        let inAlbums = ids.prefix(ids.count * 6 / 10)
        let perAlbum = max(1, inAlbums.count / 1000)
        for (index, start) in stride(from: inAlbums.startIndex, to: inAlbums.endIndex, by: perAlbum).enumerated() {
            let album = try writer.createAlbum(named: "Album \(index)").id
            try writer.insertPhotos(Array(inAlbums[start..<min(start + perAlbum, inAlbums.endIndex)]), into: album)
        }
        // Words and marks on the items, as people write them: every item a
        // caption (a tenth of them at the beach), one in five a title, one in
        // twenty the keyword "family", one in fifty a heart, one in seven stars.
        try writer.database.execute(sql: """
            UPDATE album_item SET
                caption = 'Day ' || id || ' at the ' || CASE id % 10 WHEN 0 THEN 'beach' WHEN 1 THEN 'harbour' WHEN 2 THEN 'market'
                    WHEN 3 THEN 'cliffs' WHEN 4 THEN 'lighthouse' WHEN 5 THEN 'forest' WHEN 6 THEN 'meadow' WHEN 7 THEN 'station'
                    WHEN 8 THEN 'museum' ELSE 'garden' END || ' with grandma',
                title = CASE WHEN id % 5 = 0 THEN 'Summer ' || (2015 + id % 10) END,
                keywords = CASE WHEN id % 20 = 0 THEN '["family","trip"]' WHEN id % 20 = 1 THEN '["trip"]' END,
                is_favorite = id % 50 = 0, rating = CASE WHEN id % 7 = 0 THEN 1 + id % 5 END
            WHERE photo_id IS NOT NULL
            """)
    }
    // What each search asks, and the same in the CLI's words.
    let searches: [(String, [String], (inout PhotoSearch) throws -> Void)] = [
        ("every photo, newest first", [], { _ in }),
        ("taken in a month (2019-07)", ["--taken", "2019-07"], { $0.taken = try CaptureRange("2019-07") }),
        ("taken on a day", ["--taken", "2021-03-14"], { $0.taken = try CaptureRange("2021-03-14") }),
        ("a camera (model 7)", ["--camera", "model 7"], { $0.camera = "model 7" }),
        ("in no album", ["--in-no-album"], { $0.membership = .inNoAlbum }),
        ("portrait HEIC with a place", ["--shape", "portrait", "--format", "heic", "--with-location"], {
            $0.shape = .portrait
            $0.format = "heic"
            $0.hasLocation = true
        }),
        ("a name matching one photo", ["--name", "IMG_777777."], { $0.name = "IMG_777777." }),
        ("a name matching none", ["--name", "no such name"], { $0.name = "no such name" }),
        ("text in one item's caption", ["--text", "Day 123457 at"], { $0.text = "Day 123457 at" }),
        ("text in a tenth (beach)", ["--text", "beach"], { $0.text = "beach" }),
        ("text in none", ["--text", "no such words"], { $0.text = "no such words" }),
        ("a keyword (family)", ["--keyword", "family"], { $0.keyword = "family" }),
        ("favourites", ["--favorite"], { $0.isFavorite = true }),
        ("four stars or more", ["--min-rating", "4"], { $0.minimumRating = 4 }),
    ]
    print("")
    print("finding photos — \(count) photos, 60% in 1,000 albums; first page of 100")
    print("  search                               in process (median of 5)   albums photos (process)")
    for (title, cli, apply) in searches {
        var search = PhotoSearch()
        try apply(&search)
        var times: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            _ = try library.read { try $0.photos(matching: search, limit: 100) }
            times.append(microseconds(ContinuousClock.now - start) / 1000)
        }
        let process = median(try (0..<3).map { _ in try runProcess(albumsBinary, ["--library", path, "--json", "photos", "--limit", "100"] + cli) })
        print("  \(title.padding(toLength: 36, withPad: " ", startingAt: 0)) \(pad(format(median(times)), 8)) ms                \(pad(format(process), 8)) ms")
    }
    // The timeline's scrubber: every photo counted by month, one walk of the index.
    for (title, cli, apply) in searches.prefix(2) {
        var search = PhotoSearch()
        try apply(&search)
        var times: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            _ = try library.read { try $0.photoMonths(matching: search) }
            times.append(microseconds(ContinuousClock.now - start) / 1000)
        }
        let process = median(try (0..<3).map { _ in try runProcess(albumsBinary, ["--library", path, "--json", "photos", "--months"] + cli) })
        let label = "months of " + title.replacingOccurrences(of: ", newest first", with: "")
        print("  \(label.padding(toLength: 36, withPad: " ", startingAt: 0)) \(pad(format(median(times)), 8)) ms                \(pad(format(process), 8)) ms")
    }
    try runSeenSearches(in: library, count: count, searches: searches.map { ($0.0, $0.2) })
    try library.close()
}

/// What a person who sees 1,000 photos of the library pays: the same
/// searches, first page and months, as pat (a viewer of one album of 1,000
/// photos spread over the whole library) beside the holder, in process.
/// A person's search starts from the photos they see, so its time is what
/// those cost, whatever the library hides from them.
func runSeenSearches(in library: Library, count: Int, searches: [(String, (inout PhotoSearch) throws -> Void)]) throws {
    let person = try library.write { writer -> Person in
        let ids = try PhotoID.fetchAll(writer.database, sql: "SELECT id FROM photo WHERE id % ? = 0 ORDER BY id LIMIT 1000", arguments: [max(1, count / 1000)])
        let album = try writer.createAlbum(named: "Seen by pat")
        try writer.insertPhotos(ids, into: album.id)
        let pat = try writer.addPerson(named: "pat", password: try PasswordHash(password: "correct horse", cost: 4))
        try writer.setRole(.viewer, of: pat.id, on: .album(album.id))
        return pat
    }
    func timed(_ principal: Principal, _ body: @escaping (LibraryReader) throws -> Void) throws -> Double {
        median(try (0..<5).map { _ in
            let start = ContinuousClock.now
            try library.read { reader in
                reader.act(as: principal)
                try body(reader)
            }
            return microseconds(ContinuousClock.now - start) / 1000
        })
    }
    print("")
    print("a person who sees 1,000 of the \(count) photos — first page of 100 and the months, in process (median of 5)")
    print("  search                               holder page   pat's page   holder months   pat's months")
    for (title, apply) in searches {
        var search = PhotoSearch()
        try apply(&search)
        if case .inNoAlbum = search.membership { continue }  // a person sees photos only through albums: none
        let holderPage = try timed(.holder) { _ = try $0.photos(matching: search, limit: 100) }
        let personPage = try timed(.person(person)) { _ = try $0.photos(matching: search, limit: 100) }
        let holderMonths = try timed(.holder) { _ = try $0.photoMonths(matching: search) }
        let personMonths = try timed(.person(person)) { _ = try $0.photoMonths(matching: search) }
        print("  \(title.padding(toLength: 36, withPad: " ", startingAt: 0)) \(pad(format(holderPage), 8)) ms  \(pad(format(personPage), 8)) ms  \(pad(format(holderMonths), 10)) ms  \(pad(format(personMonths), 10)) ms")
    }
}
