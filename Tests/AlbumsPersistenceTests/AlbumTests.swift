import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

@Suite("Albums")
struct AlbumTests {
    @Test("albums keep the order they are created and moved in")
    func albumOrder() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { writer in
            try writer.createAlbum(named: "B")
            try writer.createAlbum(named: "A", at: 0)
            try writer.createAlbum(named: "C")
            try writer.createAlbum(named: "Ü 🌅 日本", at: 1)
        }
        #expect(try library.read { try $0.albums().map(\.name) } == ["A", "Ü 🌅 日本", "B", "C"])
        try library.write { try $0.moveAlbum(try $0.album(named: "A").id, to: 3) }
        #expect(try library.read { try $0.albums().map(\.name) } == ["Ü 🌅 日本", "B", "C", "A"])
        #expect(try library.read { try $0.albums().map(\.index) } == [0, 1, 2, 3])
        #expect(throws: LibraryError.albumIndexOutOfRange(index: 4, valid: 0..<4)) {
            try library.write { try $0.moveAlbum(try $0.album(named: "A").id, to: 4) }
        }
    }

    @Test("many inserts at the front respace album keys and keep the order")
    func albumKeyRespacing() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { writer in
            try writer.createAlbum(named: "0")
            for number in 1..<200 { try writer.createAlbum(named: "\(number)", at: 1) }
        }
        let names = try library.read { try $0.albums().map(\.name) }
        #expect(names == ["0"] + (1..<200).reversed().map(String.init))
        #expect(try library.violations() == [])
    }

    @Test("names are unique, case-sensitive, never empty or with control characters")
    func names() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { try $0.createAlbum(named: "Trip") }
        #expect(throws: LibraryError.albumNameTaken("Trip")) { try library.write { try $0.createAlbum(named: "Trip") } }
        try library.write { try $0.createAlbum(named: "trip") }
        #expect(throws: LibraryError.invalidAlbumName("", reason: "a name cannot be empty")) {
            try library.write { try $0.createAlbum(named: "") }
        }
        for bad in ["a\nb", "tab\t", "nul\u{0}", "del\u{7F}", "c1\u{85}"] {
            #expect(throws: LibraryError.invalidAlbumName(bad, reason: "a name cannot contain control characters")) {
                try library.write { try $0.createAlbum(named: bad) }
            }
        }
        try library.write { try $0.renameAlbum(try $0.album(named: "trip").id, to: "Trip 2") }
        #expect(throws: LibraryError.albumNameTaken("Trip")) {
            try library.write { try $0.renameAlbum(try $0.album(named: "Trip 2").id, to: "Trip") }
        }
        #expect(try library.read { try $0.albums().map(\.name) } == ["Trip", "Trip 2"])
    }

    @Test("names are what they look like: NFC, never invisible, no bidirectional controls, never 'id'")
    func namesThatLookAlike() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let decomposed = "Cafe\u{301}"  // e + combining acute accent
        let composed = "Caf\u{E9}"
        let created = try library.write { try $0.createAlbum(named: decomposed) }
        #expect(created.name.unicodeScalars.elementsEqual(composed.unicodeScalars))
        #expect(throws: LibraryError.albumNameTaken(composed)) { try library.write { try $0.createAlbum(named: composed) } }
        #expect(try library.read { try $0.album(named: decomposed).id } == created.id)
        #expect(try library.read { try $0.album(named: composed).id } == created.id)
        // SQLite reads a bound text up to its NUL: "Café\0x" must not find "Café".
        #expect(throws: LibraryError.albumNotFound(.named(composed + "\u{0}x"))) { try library.read { try $0.album(named: composed + "\u{0}x") } }
        try library.write { try $0.createAlbum(named: "Other") }
        #expect(throws: LibraryError.albumNameTaken(composed)) {
            try library.write { try $0.renameAlbum(try $0.album(named: "Other").id, to: decomposed) }
        }
        for invisible in ["\u{200B}", " \u{200D}\u{FEFF} ", "\u{3164}", "\u{2800}", "\u{00A0}\u{2060}"] {
            #expect(throws: LibraryError.invalidAlbumName(invisible, reason: "a name cannot be only spaces or invisible characters")) {
                try library.write { try $0.createAlbum(named: invisible) }
            }
        }
        for (bidi, scalar) in [("abc\u{202E}fed", "202E"), ("\u{2066}Trip\u{2069}", "2066"), ("a\u{200F}", "200F")] {
            #expect(throws: LibraryError.invalidAlbumName(bidi, reason: "a name cannot contain bidirectional controls (U+\(scalar)): they make it display as another")) {
                try library.write { try $0.createAlbum(named: bidi) }
            }
        }
        #expect(throws: LibraryError.invalidAlbumName("id", reason: "'id' is reserved: id:N names a photo")) {
            try library.write { try $0.createAlbum(named: "id") }
        }
        // Scripts written right to left, emoji with joiners and names with a zero-width joiner inside are fine.
        for fine in ["\u{5E2}\u{5D1}\u{5E8}\u{5D9}\u{5EA}", "👩\u{200D}👩\u{200D}👧 2026", "ID", "identity"] {
            #expect(throws: Never.self) { try library.write { try $0.createAlbum(named: fine) } }
        }
    }

    @Test("revisions grow once per committed transaction that changes the album")
    func revisions() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let (trip, other, photos) = try library.write { writer in
            (try writer.createAlbum(named: "Trip").id, try writer.createAlbum(named: "Other").id, try writer.addTestPhotos(count: 3))
        }
        func revision(_ album: AlbumID) throws -> Int64 { try library.read { try $0.album(album).revision } }
        #expect(try revision(trip) == 1)
        try library.write { writer in
            try writer.insertPhotos([photos[0]], into: trip)
            try writer.insertPhotos([photos[1]], into: trip)
        }
        #expect(try revision(trip) == 2)
        #expect(try revision(other) == 1)
        try library.write { try $0.setAlbumLocked(trip, true) }
        #expect(try revision(trip) == 3)
        _ = try? library.write { try $0.insertPhotos([photos[2]], into: trip) }
        #expect(try revision(trip) == 3)
    }

    @Test("a locked album refuses every change to its items and leaves the file unchanged")
    func locked() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let (trip, other, photos, items) = try library.write { writer in
            let trip = try writer.createAlbum(named: "Trip").id
            let other = try writer.createAlbum(named: "Other").id
            let photos = try writer.addTestPhotos(count: 4)
            let items = try writer.insertPhotos(Array(photos[0..<2]), into: trip)
            try writer.insertPhotos([photos[2]], into: other)
            try writer.setAlbumLocked(trip, true)
            return (trip, other, photos, items)
        }
        let before = try library.photoOrder(of: trip)
        let locked = LibraryError.albumLocked(name: "Trip")
        #expect(throws: locked) { try library.write { try $0.insertPhotos([photos[3]], into: trip) } }
        #expect(throws: locked) { try library.write { try $0.removeItems([items[0]]) } }
        #expect(throws: locked) { try library.write { try $0.moveItems([items[0]], to: trip, at: 1) } }
        #expect(throws: locked) { try library.write { try $0.moveItems([items[0]], to: other) } }
        #expect(throws: locked) { try library.write { try $0.swapItems(items[0], items[1]) } }
        #expect(throws: locked) { try library.write { try $0.insertPlaceholders([testLoad("/x.jpg")], into: trip) } }
        #expect(throws: locked) { try library.write { try $0.deleteAlbum(trip) } }
        #expect(try library.photoOrder(of: trip) == before)
        try library.write { try $0.setAlbumLocked(trip, false) }
        try library.write { try $0.moveItems([items[0]], to: trip, at: 1) }
        #expect(try library.photoOrder(of: trip) == before.reversed())
    }

    @Test("deleting an album with pending loads needs force; photos stay in the library")
    func deleteWithPending() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let (trip, photos) = try library.write { writer in
            let trip = try writer.createAlbum(named: "Trip").id
            let photos = try writer.addTestPhotos(count: 2)
            try writer.insertPhotos(photos, into: trip)
            try writer.insertPlaceholders([testLoad("/a.jpg"), testLoad("/b.jpg")], into: trip, at: 1)
            return (trip, photos)
        }
        let album = try library.read { try $0.album(trip) }
        #expect(album.itemCount == 4)
        #expect(album.placeholderCount == 2)
        #expect(album.hasUncommittedUpdates)
        #expect(throws: LibraryError.albumHasPendingLoads(name: "Trip", count: 2)) {
            try library.write { try $0.deleteAlbum(trip) }
        }
        try library.write { try $0.deleteAlbum(trip, force: true) }
        #expect(try library.read { try $0.albumCount() } == 0)
        #expect(try library.read { try $0.photoCount() } == photos.count)
        #expect(try library.violations() == [])
    }
}
