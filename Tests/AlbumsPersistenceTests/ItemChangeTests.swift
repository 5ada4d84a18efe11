import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsPersistence

/// The one door for changes to items: a change is checked by the library,
/// foresees exactly what its write records, and is written only by the
/// transaction that checked it, before anything else is written.
@Suite("Item changes: checked once, written as checked")
struct ItemChangeTests {
    let fixture: LibraryFixture
    let trip: Album
    let book: Album

    init() throws {
        fixture = try LibraryFixture()
        (trip, book) = try fixture.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            let book = try writer.createAlbum(named: "Book")
            let photos = try writer.addTestPhotos(count: 8)
            try writer.insertPhotos(Array(photos[0..<5]), into: trip.id)
            try writer.insertPhotos(Array(photos[5..<8]), into: book.id)
            return (try writer.album(trip.id), try writer.album(book.id))
        }
    }

    @Test("what a check foresees is what its write records: moves within and across albums, swaps, removals")
    func foreseenIsRecorded() throws {
        let cases: [(String, (LibraryWriter) throws -> ItemChange)] = [
            ("move within", { writer in
                let trip = try writer.album(self.trip.id)
                return try writer.checkTransfer(of: [try writer.placedItem(at: 0, in: trip)], photos: [], copying: false, to: trip, at: 3)
            }),
            ("move across", { writer in
                let (trip, book) = (try writer.album(self.trip.id), try writer.album(self.book.id))
                let moving = [try writer.placedItem(at: 4, in: trip), try writer.placedItem(at: 1, in: trip)]
                return try writer.checkTransfer(of: moving, photos: moving.compactMap(\.item.photoID), copying: false, to: book, at: 1)
            }),
            ("swap across", { writer in
                let (trip, book) = (try writer.album(self.trip.id), try writer.album(self.book.id))
                return try writer.checkSwap(try writer.placedItem(at: 2, in: trip), try writer.placedItem(at: 0, in: book))
            }),
            ("remove", { writer in
                let (trip, book) = (try writer.album(self.trip.id), try writer.album(self.book.id))
                return try writer.checkRemoval(of: [try writer.placedItem(at: 1, in: book), try writer.placedItem(at: 2, in: trip)])
            }),
        ]
        for (name, check) in cases {
            try fixture.library.write { writer in
                let change = try check(writer)
                #expect(!change.isNoOp, "\(name)")
                let recorded = try writer.apply(change)
                #expect(recorded == change.foreseenChanges, "\(name)")
            }
        }
    }

    @Test("a move that leaves every item where it is writes nothing")
    func noOp() throws {
        let before = try fixture.library.read { try $0.album(trip.id).revision }
        try fixture.library.write { writer in
            let trip = try writer.album(self.trip.id)
            let change = try writer.checkTransfer(of: [try writer.placedItem(at: 2, in: trip)], photos: [], copying: false, to: trip, at: 2)
            #expect(change.isNoOp)
            #expect(try writer.apply(change).isEmpty)
        }
        #expect(try fixture.library.read { try $0.album(trip.id).revision } == before)
    }

    @Test("a change is refused by another transaction, and after another write of its own: nothing is written")
    func writtenOnlyAsChecked() throws {
        let order = try fixture.library.read { try $0.items(in: trip.id).map(\.id) }
        let stale = try fixture.library.read { reader in
            try reader.checkTransfer(of: [try reader.placedItem(at: 0, in: reader.album(trip.id))], photos: [], copying: false, to: try reader.album(trip.id), at: 4)
        }
        #expect(throws: LibraryError.self) { try fixture.library.write { try $0.apply(stale) } }
        #expect(throws: LibraryError.self) {
            try fixture.library.write { writer in
                let trip = try writer.album(self.trip.id)
                let change = try writer.checkTransfer(of: [try writer.placedItem(at: 0, in: trip)], photos: [], copying: false, to: trip, at: 4)
                try writer.removeItems([order[4]])
                try writer.apply(change)
            }
        }
        #expect(try fixture.library.read { try $0.items(in: trip.id).map(\.id) } == order)
    }

    @Test("the checks refuse what the rules refuse, destination first: a locked album, a photo twice, a place past the end")
    func refusals() throws {
        try fixture.library.write { try $0.setAlbumLocked(self.book.id, true) }
        try fixture.library.write { writer in
            let (trip, book) = (try writer.album(self.trip.id), try writer.album(self.book.id))
            let first = try writer.placedItem(at: 0, in: trip)
            #expect(throws: LibraryError.albumLocked(name: "Book")) {
                try writer.checkTransfer(of: [first], photos: [first.item.photoID!], copying: false, to: book, at: 0)
            }
            #expect(throws: LibraryError.albumLocked(name: "Book")) { try writer.checkSwap(first, try writer.placedItem(at: 0, in: book)) }
            #expect(throws: LibraryError.photoAlreadyInAlbum(first.item.photoID!, album: "Trip")) {
                try writer.checkTransfer(of: [], photos: [first.item.photoID!], copying: true, to: trip, at: 0)
            }
            #expect(throws: LibraryError.positionOutOfRange(index: 6, valid: 0..<5, album: "Trip")) {
                try writer.checkTransfer(of: [first], photos: [], copying: false, to: trip, at: 6)
            }
        }
    }
}
