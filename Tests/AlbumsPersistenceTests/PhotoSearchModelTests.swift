import AlbumsImageFacts
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsPersistence

/// Search against a model: random libraries (random facts, random album
/// membership, a person who sees some albums), random searches of every
/// filter and their combinations, each read page by page and compared with
/// the same filters applied here, in Swift, to what the library holds.
@Suite("Photo search against a model")
struct PhotoSearchModelTests {
    /// One photo as the model knows it.
    struct Model {
        let id: PhotoID
        let name: String
        let mediaType: String
        let width: Int?
        let height: Int?
        let orientation: Int
        let capturedAt: String?
        let importedAt: String
        let make: String?
        let model: String?
        let lens: String?
        let hasLocation: Bool
        var albums: Set<AlbumID>
        /// What its item in each album carries.
        var marks: [AlbumID: ItemMarks] = [:]
    }

    static let texts: [String?] = [nil, "Grandma's 80th", "at the harbour", "Été à Nîmes", "100% sure_thing"]
    static let keywords: [[String]] = [[], ["family"], ["Family", "trip"], ["été", "a,b"], ["x\"y"]]

    static let makes: [(String?, String?)] = [("FUJIFILM", "X100V"), ("Apple", "iPhone 15 Pro"), ("Canon", "EOS R6"), (nil, nil), ("FUJIFILM", "X-T5")]
    static let lenses: [String?] = [nil, "XF23mmF2 R WR", "RF24-105mm F4 L IS USM", "iPhone 15 Pro back camera 6.765mm f/1.78"]
    static let formats = ["image/jpeg", "image/png", "image/heic", "image/webp"]
    static let dates: [String?] = [nil, "2025", "2025-07", "2025-07-14T09:12:00", "2025-07-31T23:59:59+02:00", "2025-08-01T00:00:00", "2024-12-31T10:00:00", "2025-07-14T18:00:00.5-05:00", "2026-02-28T12:00:00"]

    func randomLibrary(_ rng: inout SplitMix64) throws -> (LibraryFixture, [Model], albums: [AlbumID], person: Person) {
        let fixture = try LibraryFixture()
        var models: [Model] = []
        let (albums, person) = try fixture.library.write { writer -> ([AlbumID], Person) in
            let albums = try (0..<4).map { try writer.createAlbum(named: "Album \($0)").id }
            let person = try writer.addPerson(named: "pat", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.viewer, of: person.id, on: .album(albums[0]))
            try writer.setRole(.editor, of: person.id, on: .album(albums[2]))
            for index in 0..<Int.random(in: 20...60, using: &rng) {
                let (make, model) = Self.makes.randomElement(using: &rng)!
                let width = Bool.random(using: &rng) ? nil : [100, 400, 3000, 4000].randomElement(using: &rng)!
                let height = width == nil ? nil : [100, 300, 3000, 6000].randomElement(using: &rng)!
                var content = PhotoContent(
                    sha256: Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }), byteCount: Int64(index + 1),
                    mediaType: Self.formats.randomElement(using: &rng)!, pixelWidth: width, pixelHeight: height,
                    orientation: PhotoOrientation(rawValue: Int.random(in: 1...8, using: &rng))!,
                    capturedAt: Self.dates.randomElement(using: &rng)!.flatMap(CaptureDate.init),
                    cameraMake: make, cameraModel: model, lens: Self.lenses.randomElement(using: &rng)!, hasLocation: Bool.random(using: &rng),
                    originalName: ["IMG_\(1000 + index).JPG", "holiday_\(index).png", "100%_sure_\(index).heic", "Ärger \(index).webp"].randomElement(using: &rng)!,
                    sourcePath: "/photos/\(index)")
                if content.capturedAt == nil && Bool.random(using: &rng) { content.capturedAt = nil }
                let photo = try writer.addPhoto(content).photo
                var holders = Set<AlbumID>()
                var marks: [AlbumID: ItemMarks] = [:]
                for album in albums where Int.random(in: 0..<3, using: &rng) == 0 {
                    let item = try writer.insertPhotos([photo.id], into: album)[0]
                    holders.insert(album)
                    // Words on some items: each item its own.
                    guard Bool.random(using: &rng) else { continue }
                    let written = ItemMarks(
                        title: Self.texts.randomElement(using: &rng)!, caption: Self.texts.randomElement(using: &rng)!,
                        isFavorite: Bool.random(using: &rng), rating: [nil, -1, 1, 3, 5].randomElement(using: &rng)!.flatMap(ItemRating.init(value:)),
                        keywords: Self.keywords.randomElement(using: &rng)!)
                    try writer.writeMarks(written, on: item)
                    marks[album] = written
                }
                models.append(
                    Model(
                        id: photo.id, name: content.originalName, mediaType: content.mediaType, width: width, height: height,
                        orientation: content.orientation.rawValue, capturedAt: content.capturedAt?.text, importedAt: Timestamp.text(photo.importedAt),
                        make: make, model: model, lens: content.lens, hasLocation: content.hasLocation, albums: holders, marks: marks))
            }
            return (albums, person)
        }
        return (fixture, models, albums, person)
    }

    func randomSearch(_ rng: inout SplitMix64, albums: [AlbumID]) throws -> PhotoSearch {
        var search = PhotoSearch()
        if Bool.random(using: &rng) { search.taken = try CaptureRange(["2025", "2025-07", "2025-07-14", "2024-12..2025-07", "2025-07-31..2025-08-01", "2026"].randomElement(using: &rng)!) }
        if Int.random(in: 0..<3, using: &rng) == 0 { search.name = ["img_1", "HOLIDAY", "%", "_", "ärger", ".png"].randomElement(using: &rng)! }
        if Int.random(in: 0..<3, using: &rng) == 0 { search.format = ["jpeg", "jpg", "image/png", "heic", "gif"].randomElement(using: &rng)! }
        if Int.random(in: 0..<3, using: &rng) == 0 { search.shape = PhotoShape.allCases.randomElement(using: &rng)! }
        if Int.random(in: 0..<4, using: &rng) == 0 { search.minimumMegapixels = [0.05, 1, 12, 24].randomElement(using: &rng)! }
        if Int.random(in: 0..<3, using: &rng) == 0 { search.camera = ["fuji", "X100V", "iphone", "canon eos", "x-"].randomElement(using: &rng)! }
        if Int.random(in: 0..<4, using: &rng) == 0 { search.lens = ["xf23", "F4", "f/1.78"].randomElement(using: &rng)! }
        if Int.random(in: 0..<4, using: &rng) == 0 { search.hasLocation = Bool.random(using: &rng) }
        if Int.random(in: 0..<4, using: &rng) == 0 { search.text = ["grandma", "HARBOUR", "été", "%", "_t", "\",\"", "a,b", "x\"y", "family"].randomElement(using: &rng)! }
        if Int.random(in: 0..<5, using: &rng) == 0 { search.keyword = ["family", "FAMILY", "trip", "a,b", "fam"].randomElement(using: &rng)! }
        if Int.random(in: 0..<5, using: &rng) == 0 { search.isFavorite = true }
        if Int.random(in: 0..<5, using: &rng) == 0 { search.minimumRating = [1, 3, 5].randomElement(using: &rng)! }
        if Int.random(in: 0..<6, using: &rng) == 0 { search.isRejected = true }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: search.membership = .inNoAlbum
        case 1: search.membership = .inAlbum(albums.randomElement(using: &rng)!)
        default: break
        }
        return search
    }

    /// The model's answer: the photos `visible` (nil: all albums) allows that pass every filter, newest first.
    func expected(_ search: PhotoSearch, _ models: [Model], visible: Set<AlbumID>?) -> [PhotoID] {
        func contains(_ text: String?, _ part: String?) -> Bool {
            guard let part = part?.trimmingCharacters(in: .whitespaces), !part.isEmpty else { return true }
            // SQLite's LIKE folds ASCII letters only.
            func fold(_ s: String) -> String { String(s.map { $0.isASCII ? Character($0.lowercased()) : $0 }) }
            return text.map { fold($0).contains(fold(part)) } ?? false
        }
        let matching = models.filter { photo in
            let seen = visible.map { photo.albums.intersection($0) } ?? photo.albums
            if visible != nil && seen.isEmpty { return false }
            if let taken = search.taken { guard let date = photo.capturedAt, date >= taken.start, date < taken.end else { return false } }
            if !contains(photo.name, search.name) { return false }
            if let format = search.format, photo.mediaType != PhotoSearch.mediaType(of: format) { return false }
            if let shape = search.shape {
                guard let width = photo.width, let height = photo.height else { return false }
                let (seenWidth, seenHeight) = photo.orientation >= 5 ? (height, width) : (width, height)
                switch shape {
                case .landscape: if !(seenWidth > seenHeight) { return false }
                case .portrait: if !(seenWidth < seenHeight) { return false }
                case .square: if seenWidth != seenHeight { return false }
                }
            }
            if let megapixels = search.minimumMegapixels {
                guard let width = photo.width, let height = photo.height, Double(width * height) >= (megapixels * 1_000_000).rounded(.up) else { return false }
            }
            if search.camera != nil && !contains((photo.make ?? "") + " " + (photo.model ?? ""), search.camera) { return false }
            if !contains(photo.lens, search.lens) { return false }
            if let hasLocation = search.hasLocation, photo.hasLocation != hasLocation { return false }
            // Each filter of words holds when an item the asker sees carries it.
            let seenMarks = photo.marks.filter { seen.contains($0.key) }.map(\.value)
            func onAnItem(_ holds: (ItemMarks) -> Bool) -> Bool { seenMarks.contains(where: holds) }
            if let text = search.text, !onAnItem({ contains($0.title, text) || contains($0.caption, text) || $0.keywords.contains { contains($0, text) } }) {
                return false
            }
            if let keyword = search.keyword {
                func fold(_ s: String) -> String { String(s.map { $0.isASCII ? Character($0.lowercased()) : $0 }) }
                if !onAnItem({ $0.keywords.contains { fold($0) == fold(keyword) } }) { return false }
            }
            if search.isFavorite == true, !onAnItem(\.isFavorite) { return false }
            if let stars = search.minimumRating, !onAnItem({ ($0.rating?.value ?? 0) >= max(1, stars) }) { return false }
            if search.isRejected == true, !onAnItem({ $0.rating?.isRejected == true }) { return false }
            switch search.membership {
            case .inAlbum(let album): if !seen.contains(album) { return false }
            case .inNoAlbum: if !seen.isEmpty { return false }
            case nil: break
            }
            return true
        }
        return matching.sorted { a, b in
            // Newest first by capture date; the undated ('') last, the last imported (highest id) first.
            let (ta, tb) = (a.capturedAt ?? "", b.capturedAt ?? "")
            return ta != tb ? ta > tb : a.id.rawValue > b.id.rawValue
        }.map(\.id)
    }

    /// Every page of `search`, `size` at a time, for `principal`.
    /// With `walking`, a person's search walks the whole time index as the
    /// holder's does, instead of starting from the photos they see; without
    /// `candidates`, a name's or words' trigrams never name where it starts.
    func allPages(
        _ search: PhotoSearch, size: Int, in library: Library, as principal: Principal, walking: Bool = false, candidates: Bool = true
    ) throws -> [PhotoID] {
        var found: [PhotoID] = []
        var cursor: PhotoSearchCursor?
        repeat {
            let page = try library.read { reader in
                reader.act(as: principal)
                if walking { reader.searchStartsFromSeenUpTo = -1 }
                if !candidates { reader.searchStartsFromCandidatesUpTo = -1 }
                return try reader.photos(matching: search, limit: size, after: cursor)
            }
            found += page.photos.map(\.photo.id)
            #expect(page.photos.count <= size)
            cursor = page.next
        } while cursor != nil
        return found
    }

    @Test("every filter and their combinations find what the model finds, page by page, for the holder and for a person who sees some albums")
    func searchesMatchTheModel() throws {
        let (seed, steps) = randomTestSettings(defaultSteps: 6)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<steps {
            let (fixture, models, albums, person) = try randomLibrary(&rng)
            let visible: Set<AlbumID> = [albums[0], albums[2]]
            for _ in 0..<40 {
                let search = try randomSearch(&rng, albums: albums)
                let size = Int.random(in: 1...7, using: &rng)
                // From the trigrams' few candidates, and as when too many share the words: down the index, or (months, counts) from the items.
                for candidates in [true, false] {
                    #expect(
                        try allPages(search, size: size, in: fixture.library, as: .holder, candidates: candidates) == expected(search, models, visible: nil),
                        "seed \(seed), candidates \(candidates): \(search)")
                    try checkMonths(search, models, in: fixture.library, as: .holder, visible: nil, candidates: candidates, "seed \(seed), candidates \(candidates): \(search)")
                }
                if case .inAlbum(let album) = search.membership, !visible.contains(album) {
                    // An album the person cannot see is not found, as if absent.
                    #expect(throws: LibraryError.self) { try allPages(search, size: size, in: fixture.library, as: .person(person)) }
                    continue
                }
                // Every way a person's search can go: from the photos they see, and down the whole time index, from candidates or not.
                for (walking, candidates) in [(false, true), (true, true), (true, false)] {
                    let context = "seed \(seed), walking \(walking), candidates \(candidates): \(search)"
                    #expect(
                        try allPages(search, size: size, in: fixture.library, as: .person(person), walking: walking, candidates: candidates)
                            == expected(search, models, visible: visible), "\(context)")
                    try checkMonths(search, models, in: fixture.library, as: .person(person), visible: visible, walking: walking, candidates: candidates, context)
                }
            }
            try checkMonths(PhotoSearch(), models, in: fixture.library, as: .holder, visible: nil, "seed \(seed)")
        }
    }

    /// The months a search counts are those of what it finds, and each
    /// month's start begins a page at that month's newest photo.
    func checkMonths(
        _ search: PhotoSearch, _ models: [Model], in library: Library, as principal: Principal, visible: Set<AlbumID>?, walking: Bool = false,
        candidates: Bool = true, _ context: String
    ) throws {
        let found = expected(search, models, visible: visible)
        let byID = Dictionary(uniqueKeysWithValues: models.map { ($0.id, $0) })
        let monthOf = { (id: PhotoID) in String((byID[id]!.capturedAt ?? "").prefix(7)) }
        var counts: [String: Int] = [:]
        for id in found { counts[monthOf(id), default: 0] += 1 }
        let months = try library.read { reader in
            reader.act(as: principal)
            if walking { reader.searchStartsFromSeenUpTo = -1 }
            if !candidates { reader.searchStartsFromCandidatesUpTo = -1 }
            return try reader.photoMonths(matching: search)
        }
        let count = try library.read { reader in
            reader.act(as: principal)
            if walking { reader.searchStartsFromSeenUpTo = -1 }
            if !candidates { reader.searchStartsFromCandidatesUpTo = -1 }
            return try reader.photoCount(matching: search)
        }
        #expect(count == found.count, "\(context): the count")
        #expect(months.map(\.month) == counts.keys.sorted(by: >), "\(context)")
        #expect(months.map(\.count) == counts.keys.sorted(by: >).map { counts[$0]! }, "\(context)")
        for month in months {
            let page = try library.read { reader in
                reader.act(as: principal)
                if walking { reader.searchStartsFromSeenUpTo = -1 }
                if !candidates { reader.searchStartsFromCandidatesUpTo = -1 }
                return try reader.photos(matching: search, limit: 1, after: month.start)
            }
            #expect(page.photos.first?.photo.id == found.first { monthOf($0) <= month.month }, "\(context): the start of \(month.month)")
        }
    }

    @Test("a person's answers do not depend on albums they cannot see: the same search over a library with a hidden album's photos changed")
    func hiddenAlbumsChangeNothing() throws {
        var rng = SplitMix64(seed: 7)
        let (fixture, _, albums, person) = try randomLibrary(&rng)
        let before = try (0..<30).map { _ in try randomSearch(&rng, albums: [albums[0], albums[2]]) }
        let answers = try before.map { try allPages($0, size: 5, in: fixture.library, as: .person(person)) }
        // Everything in the hidden albums renamed, moved to the other hidden album, or put there.
        try fixture.library.write { writer in
            let already = Set(try writer.items(in: albums[3]).compactMap(\.photoID))
            let hidden = try writer.items(in: albums[1]).compactMap(\.photoID).filter { !already.contains($0) }
            try writer.insertPhotos(hidden, into: albums[3])
            try writer.insertPhotos(try writer.addTestPhotos(count: 10), into: albums[1])
        }
        let after = try before.map { try allPages($0, size: 5, in: fixture.library, as: .person(person)) }
        #expect(after == answers)
        #expect(try before.map { try allPages($0, size: 5, in: fixture.library, as: .person(person), walking: true) } == answers, "down the whole index too")
    }

    @Test("a keyword holding a quote or a backslash is found by its text from the words' trigrams, which hold it as its JSON array writes it")
    func escapedKeywordsFromTheTrigrams() throws {
        let fixture = try LibraryFixture()
        let photos = try fixture.library.write { writer -> [PhotoID] in
            let photos = try writer.addTestPhotos(count: 10)
            let items = try writer.insertPhotos(photos, into: try writer.createAlbum(named: "Records").id)
            try writer.writeMarks(ItemMarks(keywords: ["12\" vinyl"]), on: items[3])
            try writer.writeMarks(ItemMarks(keywords: ["C:\\scans"]), on: items[7])
            return photos
        }
        func found(_ text: String) throws -> [PhotoID] {
            var search = PhotoSearch()
            search.text = text
            return try fixture.library.read { reader in
                // A handful carry it: the search starts from the trigrams' candidates, which must hold it.
                reader.searchStartsFromCandidatesUpTo = 5
                return try reader.photos(matching: search).photos.map(\.photo.id)
            }
        }
        #expect(try found("2\" vin") == [photos[3]])
        #expect(try found(":\\sca") == [photos[7]])
        #expect(try found("vinyl") == [photos[3]])
    }

    @Test("a name many photos share is found newest first from the whole library; one few share, from the names' trigrams; both exactly")
    func namesCommonAndRare() throws {
        let fixture = try LibraryFixture()
        let count = LibraryReader.nameCandidateLimit + 50
        try fixture.library.write { writer in
            _ = try writer.addTestPhotos(count: count)  // photo1.jpg … , all imported now: newest first is by id
            let album = try writer.createAlbum(named: "Renamed").id
            let items = try writer.insertPhotos([PhotoID(rawValue: 5)], into: album)
            try writer.database.execute(sql: "UPDATE album_item SET file_name = 'Quokka.jpg' WHERE id = ?", arguments: [items[0].rawValue])
        }
        func names(_ text: String, limit: Int = 5) throws -> [String] {
            var search = PhotoSearch()
            search.name = text
            return try fixture.library.read { try $0.photos(matching: search, limit: limit) }.photos.map(\.photo.content.originalName)
        }
        let newest = count
        // More than the limit share "photo": the walk newest first.
        #expect(try names("photo") == (0..<5).map { "photo\(newest - $0).jpg" })
        // A handful share "photo123": from the trigrams, still newest first.
        #expect(try names("PHOTO123", limit: 20) == ["photo1239.jpg", "photo1238.jpg", "photo1237.jpg", "photo1236.jpg", "photo1235.jpg", "photo1234.jpg",
            "photo1233.jpg", "photo1232.jpg", "photo1231.jpg", "photo1230.jpg", "photo123.jpg"])
        // An item's own name finds its photo, which the trigrams of photos' names do not hold.
        #expect(try names("quokka") == ["photo5.jpg"])
        #expect(try names("no such name").isEmpty)
        #expect(try names("1_2").isEmpty, "_ is a character, not a wildcard")
    }

    @Test("dates are read as a year, a month, a day or a range of them, and nothing else")
    func captureRanges() throws {
        let month = try CaptureRange("2025-07")
        #expect(month.start == "2025-07" && month.end == "2025-08")
        #expect(try CaptureRange("2025-07..2025-07").end == month.end)
        let range = try CaptureRange("2024-12-31..2025-02")
        #expect(range.start == "2024-12-31" && range.end == "2025-03")
        #expect(try CaptureRange("2024-02-29").end == "2024-03-01")
        #expect(try CaptureRange("2025-12").end == "2026-01")
        for bad in ["July", "2025-13", "2025-02-30", "2025-07..2025-06", "", "2025..", "0000", "2025-7"] {
            #expect(throws: CaptureRange.Failure.self, "\(bad)") { try CaptureRange(bad) }
        }
        // Digits of other scripts, which Regex's \d matches and Int() refuses: refused, never a trap.
        for other in ["\u{662}\u{660}\u{662}\u{665}", "\u{FF12}\u{FF10}\u{FF12}\u{FF15}", "2025-\u{BD}", "2\u{301}025", "2025-0\u{667}", "\u{968}\u{966}\u{968}\u{96B}"] {
            #expect(throws: CaptureRange.Failure.self, "\(other)") { try CaptureRange(other) }
        }
    }

    @Test("a camera is named as people name it: the model alone where it names its maker")
    func cameraNames() {
        func name(_ make: String?, _ model: String?) -> String? {
            PhotoContent(sha256: Data(count: 32), byteCount: 1, mediaType: "image/jpeg", cameraMake: make, cameraModel: model, originalName: "a.jpg", sourcePath: "/a.jpg").cameraName
        }
        #expect(name("Canon", "Canon EOS 400D DIGITAL") == "Canon EOS 400D DIGITAL")
        #expect(name("NIKON CORPORATION", "NIKON D750") == "NIKON CORPORATION NIKON D750")
        #expect(name("FUJIFILM", "X100V") == "FUJIFILM X100V")
        #expect(name("Apple", "apple iPhone") == "apple iPhone")
        #expect(name(nil, "X100V") == "X100V" && name("FUJIFILM", nil) == "FUJIFILM" && name(nil, nil) == nil && name(" ", " ") == nil)
    }
}
