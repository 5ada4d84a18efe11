import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// Where a library keeps copies of its originals: its places, a photo's
/// `kept_in`, and the mark that makes a resumed load keep its copy.
@Suite("Storage places and kept copies")
struct StoragePlaceTests {
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
    }

    @Test("a copy's name is its content: two hex digits, all 64, one extension per type")
    func keptNames() {
        let hex = String(repeating: "ab", count: 32)
        #expect(StoragePlace.keptName(sha256Hex: hex, mediaType: "image/jpeg") == "ab/\(hex).jpg")
        #expect(StoragePlace.keptName(sha256Hex: hex, mediaType: "video/quicktime") == "ab/\(hex).mov")
        #expect(StoragePlace.keptName(sha256Hex: hex, mediaType: "image/x-unknown") == "ab/\(hex)")
        let folder = StoragePlace(id: StoragePlaceID(rawValue: 1), kind: .folder("/kept"), chosenAt: Date())
        let bucket = StoragePlace(
            id: StoragePlaceID(rawValue: 2), kind: .bucket(BucketAddress(name: "b", endpoint: "http://h", region: "r", prefix: "lib/")), chosenAt: Date())
        var content = PhotoContent.madeUp("x")
        content.sha256 = Data(repeating: 0xAB, count: 32)
        #expect(folder.path(of: content) == "/kept/ab/\(hex).jpg" && folder.objectName(of: content) == nil)
        #expect(bucket.objectName(of: content) == "lib/ab/\(hex).jpg" && bucket.path(of: content) == nil)
    }

    @Test("the place chosen last is current; choosing an older one again brings its copies to the front")
    func choosing() throws {
        let library = fixture.library
        #expect(try library.read { try $0.currentStoragePlace() } == nil)
        let first = try library.write { try $0.chooseStoragePlace(.folder("/one")) }
        var content = PhotoContent.madeUp("kept")
        content.keptIn = first.id
        let photo = try library.write { try $0.addPhoto(content).photo }
        #expect(photo.content.keptIn == first.id)
        #expect(try library.originalLocation(of: photo) == .keptFile(try #require(first.path(of: photo.content)), place: first))

        let second = try library.write { try $0.chooseStoragePlace(.folder("/two")) }
        #expect(try library.read { try $0.currentStoragePlace() }?.kind == .folder("/two"))
        #expect(try library.read { try $0.photosKept(elsewhereThan: second.id).map(\.id) } == [photo.id])
        #expect(try library.write { try $0.chooseStoragePlace(.folder("/two")) }.id == second.id, "choosing the current place again changes nothing")

        let again = try library.write { try $0.chooseStoragePlace(.folder("/one")) }
        #expect(again.id > second.id)
        let places = try library.read { try $0.storagePlaces() }
        #expect(places.map(\.kind) == [.folder("/two"), .folder("/one")], "one record per place, the current last")
        #expect(try library.read { try $0.photo(photo.id).content.keptIn } == again.id)
        #expect(try library.read { try $0.keptPhotoCounts() } == [again.id: 1])
    }

    @Test("the same bytes kept later are recorded kept; a photo kept nowhere counts under nil")
    func keptOnReimport() throws {
        let library = fixture.library
        let place = try library.write { try $0.chooseStoragePlace(.folder("/kept")) }
        let plain = try library.write { try $0.addPhoto(.madeUp("a")).photo }
        #expect(plain.content.keptIn == nil)
        #expect(try library.originalLocation(of: plain) == .source("/in/a"))
        var kept = PhotoContent.madeUp("a")
        kept.keptIn = place.id
        let (again, isNew) = try library.write { try $0.addPhoto(kept) }
        #expect(!isNew && again.id == plain.id && again.content.keptIn == place.id)
        _ = try library.write { try $0.addPhoto(.madeUp("b")) }
        #expect(try library.read { try $0.keptPhotoCounts() } == [place.id: 1, nil: 1])
        #expect(try library.read { try $0.photosNotKept().map(\.content.originalName) } == ["b"])
    }

    @Test("a placeholder begun to keep a copy says so until it commits")
    func pendingCopies() throws {
        let library = fixture.library
        let (album, ids) = try library.write { writer in
            let album = try writer.createAlbum(named: "Trip").id
            let ids = try writer.insertPlaceholders([PendingLoad(source: "/in/a", keepsCopy: true), PendingLoad(source: "/in/b")], into: album)
            return (album, ids)
        }
        let pending = try library.read { try $0.pendingPlaceholders(in: album) }
        #expect(pending.map(\.load.keepsCopy) == [true, false])
        try library.write { writer in
            let photo = try writer.addPhoto(.madeUp("a")).photo
            try writer.commitPlaceholder(ids[0], with: photo.id)
            try writer.markCopies(of: [ids[1]], kept: true)
        }
        #expect(try library.read { try $0.pendingPlaceholders(in: album).map(\.load.keepsCopy) } == [true])
    }

    @Test("only the holder or an admin chooses where originals are kept")
    func rights() throws {
        let library = fixture.library
        let (editor, admin) = try library.write { writer in
            let hash = try PasswordHash(password: "correct horse", cost: 4)
            return (try writer.addPerson(named: "ana", password: hash), try writer.addPerson(named: "ben", password: hash, isAdmin: true))
        }
        #expect(throws: LibraryError.self) {
            try library.write { writer in
                writer.act(as: .person(editor))
                try writer.chooseStoragePlace(.folder("/kept"))
            }
        }
        #expect(try library.read { try $0.storagePlaces() }.isEmpty)
        let place = try library.write { writer in
            writer.act(as: .person(admin))
            return try writer.chooseStoragePlace(.folder("/kept"))
        }
        #expect(place.kind == .folder("/kept"))
    }

    @Test("the schema refuses a folder that is no absolute path and a bucket without its service")
    func schema() throws {
        #expect(throws: (any Error).self) { try fixture.library.write { try $0.chooseStoragePlace(.folder("")) } }
        #expect(throws: (any Error).self) { try fixture.library.write { try $0.chooseStoragePlace(.folder("photos/kept")) } }
        #expect(throws: (any Error).self) {
            try fixture.library.write { try $0.chooseStoragePlace(.bucket(BucketAddress(name: "b", endpoint: "ftp://x", region: "r"))) }
        }
        #expect(try fixture.library.read { try $0.storagePlaces() }.isEmpty)
    }
}
