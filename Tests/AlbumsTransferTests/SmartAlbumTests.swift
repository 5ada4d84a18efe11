import AlbumsImageFacts
import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import GRDB
import Testing

@testable import AlbumsTransfer

/// Smart albums: a saved search shown as an album, always current, read-only,
/// seen with its reader's rights, frozen into an ordinary album on demand.
@Suite("Smart albums")
struct SmartAlbumTests {
    let fixture: LibraryFixture
    let photos: [PhotoID]
    var library: Library { fixture.library }

    /// Six photos taken in July 2025 (the 10th to the 15th, the even ones
    /// portrait), in Trip (0–2) or in no album (3–5); Secret holds photo 2.
    init() throws {
        fixture = try LibraryFixture()
        var photos: [PhotoID] = []
        try fixture.library.write { writer in
            for index in 0..<6 {
                photos.append(try writer.addPhoto(PhotoContent(
                    sha256: Data(repeating: UInt8(index + 1), count: 32), byteCount: 3, mediaType: "image/jpeg",
                    pixelWidth: index % 2 == 0 ? 3 : 4, pixelHeight: index % 2 == 0 ? 4 : 3,
                    capturedAt: CaptureDate("2025-07-1\(index)T09:00:00"), originalName: "p\(index).jpg", sourcePath: "/nowhere/p\(index).jpg")).photo.id)
            }
            let trip = try writer.createAlbum(named: "Trip")
            try writer.insertPhotos(Array(photos[0..<3]), into: trip.id)
            let secret = try writer.createAlbum(named: "Secret")
            try writer.insertPhotos([photos[2]], into: secret.id)
        }
        self.photos = photos
    }

    func search(_ configure: (inout PhotoSearchRequest) throws -> Void) rethrows -> PhotoSearchRequest {
        var request = PhotoSearchRequest()
        try configure(&request)
        return request
    }

    func shown(_ name: String, as principal: Principal = .holder) throws -> [PhotoID] {
        try library.read { reader in
            reader.act(as: principal)
            return try reader.smartAlbumPhotos(try reader.album(named: name), limit: 100).photos.map(\.photo.id)
        }
    }

    func perform(_ operation: AlbumOperation) throws -> TransferResult {
        try library.write { try $0.perform(operation) }
    }

    @Test("a smart album's count and cover are searched once per committed state and kept; anything committed reads them again")
    func countsAndCoversKept() throws {
        _ = try perform(.createSmart(name: "July", search: search { $0.search.taken = try CaptureRange("2025-07") }))
        func countAndCover(as principal: Principal = .holder) throws -> (Int, PhotoID?) {
            try library.read { reader in
                reader.act(as: principal)
                let album = try reader.album(named: "July")
                return (try reader.smartAlbumCount(album), try reader.cover(of: album)?.photo)
            }
        }
        #expect(try countAndCover() == (6, photos[5]))
        // A photo written behind the library's back (no journal entry, as no transaction of its own would): the kept answers stand.
        try library.write { writer in
            try writer.database.execute(
                sql: "UPDATE photo SET captured_at = '2025-07-31T09:00:00' WHERE id = ?", arguments: [photos[0].rawValue])
        }
        #expect(try countAndCover() == (6, photos[5]), "kept, not searched again")
        // A person who sees Trip alone has answers of their own.
        let pat = try library.write { writer in
            let pat = try writer.addPerson(named: "pat", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.viewer, of: pat.id, on: .album(try writer.album(named: "Trip").id))
            try writer.setRole(.viewer, of: pat.id, on: .album(try writer.album(named: "July").id))
            return pat
        }
        // Rights changed, so the journal moved: everything is searched again, the photo moved to the 31st among it.
        #expect(try countAndCover() == (6, photos[0]))
        #expect(try countAndCover(as: .person(pat)) == (3, photos[0]))
        // Anything committed through the library reads them again: a new photo of July, in no album.
        let new = try library.write { writer in
            try writer.addPhoto(PhotoContent(
                sha256: Data(repeating: 9, count: 32), byteCount: 3, mediaType: "image/jpeg", pixelWidth: 4, pixelHeight: 3,
                capturedAt: CaptureDate("2025-07-30T09:00:00"), originalName: "new.jpg", sourcePath: "/nowhere/new.jpg")).photo.id
        }
        #expect(try countAndCover() == (7, photos[0]))
        #expect(try countAndCover(as: .person(pat)) == (3, photos[0]), "not in an album pat sees")
        try library.write { try $0.insertPhotos([new], into: try $0.album(named: "Trip").id) }
        #expect(try countAndCover(as: .person(pat)) == (4, photos[0]))
    }

    @Test("a person keeps at most smartAlbumsPerPerson smart albums; freezing one frees its place; admins and the holder are not counted")
    func smartAlbumsPerPerson() throws {
        let pat = try library.write { writer in
            let folder = try writer.createFolder(named: "Pat's", placement: .into(nil))
            let pat = try writer.addPerson(named: "pat", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.editor, of: pat.id, on: .folder(folder.id))
            return pat
        }
        let limit = LibraryWriter.smartAlbumsPerPerson
        var search = PhotoSearch()
        search.taken = try CaptureRange("2025-07")
        func create(_ name: String) throws {
            try library.write { writer in
                writer.act(as: .person(pat))
                try writer.createSmartAlbum(named: name, placement: .into(.path("Pat's")), search: search)
            }
        }
        for index in 0..<limit { try create("Smart \(index)") }
        #expect(throws: LibraryError.tooManySmartAlbums(limit: limit)) { try create("One more") }
        try library.write { writer in
            writer.act(as: .person(pat))
            try writer.freezeSmartAlbum(try writer.album(named: "Smart 0").id)
        }
        try create("One more")
        // The holder is not counted: they hold the file.
        try library.write { try $0.createSmartAlbum(named: "The holder's", placement: .into(nil), search: search) }
    }

    @Test("freezing shows the freezer's photos to the album's whole audience: widening what any of them sees takes its owner")
    func freezingWidensOnlyWithTheOwner() throws {
        _ = try perform(.createSmart(name: "July", search: search { $0.search.taken = try CaptureRange("2025-07") }))
        // sam edits July and sees Trip (photos 0–2); gran views July and sees Trip too; lee views July and sees nothing else.
        let (sam, lee) = try library.write { writer -> (Person, Person) in
            let (july, trip) = (try writer.album(named: "July").id, try writer.album(named: "Trip").id)
            let hash = try PasswordHash(password: "correct horse", cost: 4)
            let sam = try writer.addPerson(named: "sam", password: hash)
            let gran = try writer.addPerson(named: "gran", password: hash)
            let lee = try writer.addPerson(named: "lee", password: hash)
            try writer.setRole(.editor, of: sam.id, on: .album(july))
            try writer.setRole(.viewer, of: gran.id, on: .album(july))
            for person in [sam, gran] { try writer.setRole(.viewer, of: person.id, on: .album(trip)) }
            try writer.setRole(.viewer, of: lee.id, on: .album(july))
            return (sam, lee)
        }
        func freeze(as person: Person, dryRun: Bool = true) throws -> TransferResult {
            try TransferSession(library: library, acting: .person(person)).perform(.album(.freeze(.named("July"))), dryRun: dryRun)
        }
        // lee would see Trip's photos in July, which lee cannot see now: sam may not freeze it.
        #expect(throws: LibraryError.self) { try freeze(as: sam) }
        do { _ = try freeze(as: sam) } catch LibraryError.forbidden(let reason) { #expect(reason.contains("takes its owner"), "\(reason)") }
        // Without lee, everyone who sees July sees Trip: sam may freeze it.
        try library.write { try $0.setRole(nil, of: lee.id, on: .album(try $0.album(named: "July").id)) }
        _ = try freeze(as: sam)
        // No link is made to a smart album: it would show nothing, as a link reaches no photo of its own.
        #expect(throws: LibraryError.smartAlbumLink(name: "July")) {
            try library.write { _ = try $0.createShareLink(for: try $0.album(named: "July").id, expiresAt: nil, password: nil) }
        }
        // A library made before that rule may hold one, and a live link shows the frozen album to anyone
        // holding it: that takes the owner too.
        try library.write { writer in
            try writer.database.execute(
                sql: "INSERT INTO share_link (album_id, token_sha256) VALUES (?, ?)",
                arguments: [try writer.album(named: "July").id.rawValue, String(repeating: "ab", count: 32)])
        }
        #expect(throws: LibraryError.self) { try freeze(as: sam) }
        // The owner may: sharing is theirs to do.
        try library.write { try $0.setRole(.owner, of: sam.id, on: .album(try $0.album(named: "July").id)) }
        _ = try freeze(as: sam, dryRun: false)
        #expect(try library.read { try $0.album(named: "July").isSmart } == false)
    }

    @Test("a smart album shows what its search finds now, newest first: new photos come, photos that leave an album go")
    func keptCurrent() throws {
        _ = try perform(.createSmart(name: "Loose portraits", search: search { $0.inNoAlbum = true; $0.search.shape = .portrait }))
        _ = try perform(.createSmart(name: "In Trip", search: search { $0.album = "Trip" }, placement: .position(0)))
        #expect(try shown("Loose portraits") == [photos[4]])
        let album = try library.read { try $0.album(named: "Loose portraits") }
        #expect(album.isSmart && album.itemCount == 0)
        // A photo taken out of Trip enters the photos in no album; one added leaves them.
        _ = try library.write { try $0.perform(TransferOperation.remove([.photo(photos[0], in: .named("Trip"))])) }
        #expect(try shown("Loose portraits") == [photos[4], photos[0]])
        _ = try library.write { try $0.perform(TransferOperation.copy([.photo(photos[4], in: nil)], to: .into(.named("Trip")))) }
        #expect(try shown("Loose portraits") == [photos[0]])
        #expect(try library.read { try $0.smartAlbumCount(try $0.album(named: "Loose portraits")) } == 1)
        // A photo imported into no album, a portrait taken later than the rest, comes first.
        let imported = try library.write { writer in
            try writer.addPhoto(PhotoContent(
                sha256: Data(repeating: 99, count: 32), byteCount: 3, mediaType: "image/jpeg", pixelWidth: 3, pixelHeight: 4,
                capturedAt: CaptureDate("2025-08-01T09:00:00"), originalName: "new.jpg", sourcePath: "/nowhere/new.jpg")).photo.id
        }
        #expect(try shown("Loose portraits") == [imported, photos[0]])
        // Undoing the copy into Trip puts photo 4 back among the photos in no album.
        _ = try library.write { try $0.undo() }
        #expect(try shown("Loose portraits") == [imported, photos[4], photos[0]])
        #expect(try shown("In Trip") == [photos[2], photos[1]])
        // It follows its album through a rename; the album deleted, it shows nothing.
        _ = try perform(.rename(.named("Trip"), to: "Journey"))
        #expect(try shown("In Trip").count == 2)
        _ = try perform(.delete(.named("Journey"), force: false))
        #expect(try shown("In Trip") == [])
    }

    @Test("nothing is put in, taken out or moved in a smart album by hand, and it takes no chosen cover; what it shows is copied out by position")
    func readOnly() throws {
        _ = try perform(.createSmart(name: "July", search: search { $0.search.taken = try CaptureRange("2025-07") }))
        let refusals: [() throws -> Void] = [
            { _ = try library.write { try $0.perform(TransferOperation.copy([.photo(photos[3], in: nil)], to: .into(.named("July")))) } },
            { _ = try library.write { try $0.perform(TransferOperation.move([.position(0, in: .named("July"))], to: .into(.named("Trip")))) } },
            { _ = try library.write { try $0.perform(TransferOperation.remove([.position(0, in: .named("July"))])) } },
            { _ = try perform(.sort(.named("July"), by: .name, ascending: true)) },
            { _ = try library.write { try $0.insertPlaceholders([testLoad("/in/x.jpg")], into: try $0.album(named: "July").id) } },
        ]
        for refusal in refusals {
            #expect(throws: LibraryError.smartAlbum(name: "July")) { try refusal() }
        }
        #expect(throws: LibraryError.smartAlbumCover(name: "July")) { _ = try perform(.setCover(.named("July"), to: .photo(self.photos[0], in: nil))) }
        #expect(try shown("July").count == 6)
        // Copying out changes nothing in it: positions count what it shows, newest first.
        let shownNow = try shown("July")
        _ = try perform(.create(name: "Best"))
        let copy = TransferOperation.copy([.position(4, in: .named("July")), .position(1, in: .named("July"))], to: .into(.named("Best")))
        #expect(try library.write { try $0.perform(copy) }.outcome == .copy)
        #expect(try library.photoOrder(of: try library.read { try $0.album(named: "Best").id }) == [shownNow[4], shownNow[1]])
        #expect(try shown("July") == shownNow)
        #expect(throws: LibraryError.positionOutOfRange(index: 6, valid: 0..<6, album: "July")) {
            _ = try library.write { try $0.perform(TransferOperation.copy([.position(6, in: .named("July"))], to: .into(.named("Best")))) }
        }
        // Its cover is its newest photo.
        #expect(try library.read { try $0.cover(of: try $0.album(named: "July")) } == AlbumCovers.Cover(photo: photos[5], isChosen: false))
        #expect(try library.violations() == [])
    }

    @Test("freezing gives an ordinary album the photos shown, newest first; undo brings the search back, redo the photos")
    func freeze() throws {
        _ = try perform(.createSmart(name: "Landscapes", search: search { $0.search.shape = .landscape }))
        let frozen = try perform(.freeze(.named("Landscapes")))
        #expect(frozen.outcome == .changed(.freezeAlbum))
        #expect(frozen.changes.first?.albumEvents == [.frozen] && frozen.changes.first?.inserted == [0, 1, 2])
        let id = try library.read { try $0.album(named: "Landscapes").id }
        #expect(try library.photoOrder(of: id) == [photos[5], photos[3], photos[1]])
        #expect(try library.read { try $0.album(id).isSmart } == false)
        let entry = try #require(try library.read { try $0.history(limit: 1).first })
        #expect(entry.description == "make an album of smart album 'Landscapes' (3 photos)")

        _ = try library.write { try $0.undo() }
        #expect(try library.read { try $0.album(id).isSmart } && (try library.photoOrder(of: id)).isEmpty)
        #expect(try shown("Landscapes") == [photos[5], photos[3], photos[1]])
        _ = try library.write { try $0.redo() }
        #expect(try library.photoOrder(of: id) == [photos[5], photos[3], photos[1]])
        #expect(try perform(.freeze(.named("Landscapes"))).outcome == .noOp, "an ordinary album has nothing to freeze")

        // Deleting a smart album and undoing it keeps its search.
        _ = try perform(.createSmart(name: "Portraits", search: search { $0.search.shape = .portrait }))
        _ = try perform(.delete(.named("Portraits"), force: false))
        _ = try library.write { try $0.undo() }
        #expect(try shown("Portraits") == [photos[4], photos[2], photos[0]])
        #expect(try library.violations() == [])
    }

    @Test("a smart album shows its reader only what they could see anyway; one naming an album they cannot see shows them nothing")
    func rights() throws {
        var gran: Person?
        try library.write { writer in
            gran = try writer.addPerson(named: "gran", password: try PasswordHash(password: "correct horse", cost: 4))
        }
        _ = try perform(.createSmart(name: "All July", search: search { $0.search.taken = try CaptureRange("2025-07") }))
        _ = try perform(.createSmart(name: "Secrets", search: search { $0.album = "Secret" }))
        try library.write { writer in
            try writer.setRole(.viewer, of: gran!.id, on: .album(try writer.album(named: "Trip").id))
            try writer.setRole(.viewer, of: gran!.id, on: .album(try writer.album(named: "All July").id))
            try writer.setRole(.viewer, of: gran!.id, on: .album(try writer.album(named: "Secrets").id))
        }
        let person = Principal.person(try #require(gran))
        #expect(try shown("All July", as: person) == [photos[2], photos[1], photos[0]], "Trip's photos only: a role on a smart album shows no other photo")
        #expect(try shown("Secrets", as: person) == [])
        #expect(try shown("Secrets") == [photos[2]])
        let session = TransferSession(library: library, acting: person)
        #expect(throws: LibraryError.albumNotFound(.named("Secret"))) {
            try session.perform(.album(.createSmart(name: "Mine", search: search { $0.album = "Secret" })))
        }
        #expect(throws: LibraryError.self) { try session.perform(.album(.freeze(.named("All July")))) }
    }

    @Test("batch lines make and freeze smart albums; a search of unknown keys or values is refused naming the line")
    func batchLines() throws {
        let lines = """
            {"op": "create_smart_album", "name": "Portraits", "search": {"shape": "portrait", "taken": "2025-07", "min_megapixels": 0}}
            {"op": "create_smart_album", "name": "Loose", "search": {"no_album": true}, "at": 1}
            {"op": "freeze_album", "album": "Loose"}
            """
        _ = try library.write { try $0.perform(batch: try TransferBatchFormat.operations(fromJSONLines: lines)) }
        #expect(try shown("Portraits") == [photos[4], photos[2], photos[0]])
        #expect(try library.read { try $0.albums().map(\.name) } == ["Loose", "Trip", "Secret", "Portraits"])
        for bad in [#"{"op": "create_smart_album", "name": "X", "search": {"colour": "red"}}"#,
                    #"{"op": "create_smart_album", "name": "X", "search": {"taken": "July"}}"#,
                    #"{"op": "create_smart_album", "name": "X", "search": {"album": "Trip", "no_album": true}}"#,
                    #"{"op": "create_smart_album", "name": "X"}"#] {
            #expect(throws: TransferBatchFormat.FormatError.self, "\(bad)") { try TransferBatchFormat.operations(fromJSONLines: bad) }
        }
    }

    @Test("a saved search keeps every filter through the file")
    func storedSearch() throws {
        var search = try PhotoSearch.everyFilter()
        search.membership = .inAlbum(try library.read { try $0.album(named: "Trip").id })
        let album = try library.write { try $0.createSmartAlbum(named: "All of it", placement: .into(nil), search: search) }
        #expect(try library.read { try $0.album(album.id).savedSearch } == search)
        search.membership = .inNoAlbum
        let loose = try library.write { try $0.createSmartAlbum(named: "Loose", placement: .into(nil), search: search) }
        #expect(try library.read { try $0.album(loose.id).savedSearch } == search)
    }
}
