import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Every forbidden reason: the proposal names it, performing throws it, and
/// the file (and its WAL) stay byte for byte as they were.
@Suite("Forbidden operations")
struct RefusalTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let photos: [PhotoID]
    let placeholder: AlbumItemID

    init() throws {
        fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        session = TransferSession(library: fixture.library)
        var photos: [PhotoID] = []
        var placeholder = AlbumItemID(rawValue: 0)
        try session.library.write { writer in
            photos = try writer.addTestPhotos(count: 6)
            let trip = try writer.createAlbum(named: "Trip").id
            let book = try writer.createAlbum(named: "Book").id
            let vault = try writer.createAlbum(named: "Vault").id
            try writer.insertPhotos(Array(photos[0..<4]), into: trip)  // Trip: 0 1 2 3
            try writer.insertPhotos([photos[0], photos[4]], into: book)  // Book: 0 4
            try writer.insertPhotos([photos[5]], into: vault)
            placeholder = try writer.insertPlaceholders([testLoad("/in/pending.jpg")], into: trip)[0]  // Trip: 0 1 2 3 P
            try writer.setAlbumLocked(vault, true)
        }
        self.photos = photos
        self.placeholder = placeholder
    }

    func files() throws -> [Data] {
        let path = fixture.folder.path("library.albums")
        return try [path, path + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try fileBytes($0) : Data() }
    }

    func expectRefused(_ operation: TransferOperation, _ refusal: LibraryError, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try files()
        #expect(try session.propose(operation).verdict == .forbidden(refusal), sourceLocation: sourceLocation)
        #expect(throws: refusal, sourceLocation: sourceLocation) { try session.perform(operation) }
        #expect(!refusal.description.contains("\n"), sourceLocation: sourceLocation)
        #expect(try files() == before, "the file changed", sourceLocation: sourceLocation)
    }

    @Test("an album that does not exist")
    func albumNotFound() throws {
        try expectRefused(.move([.position(0, in: "Trip")], to: .into("Nowhere")), .albumNotFound("Nowhere"))
        try expectRefused(.remove([.position(0, in: "Nowhere")]), .albumNotFound("Nowhere"))
    }

    @Test("an item that does not exist")
    func itemNotFound() throws {
        let ghost = ItemReference.item(AlbumItemID(rawValue: 987_654))
        try expectRefused(.remove([ghost]), .itemNotFound(ghost))
        let missingPhoto = ItemReference.photo(PhotoID(rawValue: 987_654), in: nil)
        try expectRefused(.copy([missingPhoto], to: .into("Book")), .itemNotFound(missingPhoto))
        let notInBook = ItemReference.photo(photos[2], in: "Book")
        try expectRefused(.move([notInBook], to: .into("Trip")), .itemNotFound(notInBook))
    }

    @Test("a position out of range, never clamped")
    func positionOutOfRange() throws {
        try expectRefused(.move([.position(0, in: "Trip")], to: .at(5, in: "Trip")), .positionOutOfRange(index: 5, valid: 0..<5, album: "Trip"))
        try expectRefused(.copy([.position(0, in: "Trip")], to: .at(3, in: "Book")), .positionOutOfRange(index: 3, valid: 0..<3, album: "Book"))
        try expectRefused(.remove([.position(7, in: "Trip")]), .positionOutOfRange(index: 7, valid: 0..<5, album: "Trip"))
        #expect(LibraryError.positionOutOfRange(index: 5, valid: 0..<5, album: "Trip").description
            == "position 6 is out of range for album 'Trip': valid positions are 1…5")
    }

    @Test("a photo id in several albums needs its album")
    func ambiguousPhoto() throws {
        try expectRefused(.move([.photo(photos[0], in: nil)], to: .into("Trip")), .ambiguousPhoto(photos[0], albums: ["Trip", "Book"]))
        #expect(LibraryError.ambiguousPhoto(photos[0], albums: ["Trip", "Book"]).description == "photo id:\(photos[0]) is in 2 albums ('Trip', 'Book')")
    }

    @Test("a locked album: nothing enters, leaves or moves")
    func locked() throws {
        let locked = LibraryError.albumLocked(name: "Vault")
        try expectRefused(.move([.position(1, in: "Trip")], to: .into("Vault")), locked)
        try expectRefused(.copy([.position(1, in: "Trip")], to: .into("Vault")), locked)
        try expectRefused(.move([.position(0, in: "Vault")], to: .into("Trip")), locked)
        try expectRefused(.remove([.position(0, in: "Vault")]), locked)
        try expectRefused(.swap(.position(0, in: "Vault"), .position(1, in: "Trip")), locked)
        try expectRefused(.move([.position(0, in: "Vault")], to: .at(0, in: "Vault")), locked)
        #expect(locked.description == "album 'Vault' is locked")
    }

    @Test("a photo the destination already holds")
    func photoAlreadyInAlbum() throws {
        try expectRefused(.move([.position(0, in: "Trip")], to: .into("Book")), .photoAlreadyInAlbum(photos[0], album: "Book"))
        try expectRefused(.copy([.position(1, in: "Trip")], to: .into("Trip")), .photoAlreadyInAlbum(photos[1], album: "Trip"))
        try expectRefused(.swap(.position(0, in: "Book"), .position(1, in: "Trip")), .photoAlreadyInAlbum(photos[0], album: "Trip"))
    }

    @Test("a placeholder as a source of move, copy or swap")
    func placeholderAsSource() throws {
        let pending = ItemReference.item(placeholder)
        try expectRefused(.move([pending], to: .into("Book")), .placeholderNotAllowed(pending))
        try expectRefused(.copy([pending], to: .into("Book")), .placeholderNotAllowed(pending))
        try expectRefused(.swap(pending, .position(0, in: "Trip")), .placeholderNotAllowed(pending))
    }

    @Test("the same item, or the same photo for a copy, twice")
    func duplicateSource() throws {
        try expectRefused(.move([.position(1, in: "Trip"), .photo(photos[1], in: "Trip")], to: .into("Book")), .duplicateItem(.photo(photos[1], in: "Trip")))
        try expectRefused(.swap(.position(1, in: "Trip"), .position(1, in: "Trip")), .duplicateItem(.position(1, in: "Trip")))
        try expectRefused(.copy([.position(0, in: "Trip"), .position(0, in: "Book")], to: .into("Vault")), .duplicateItem(.position(0, in: "Book")))
    }

    @Test("a revision the album has moved past")
    func revisionMismatch() throws {
        let revision = try session.library.read { try $0.album(named: "Trip").revision }
        try expectRefused(.remove([.position(0, in: "Trip")], expecting: ["Trip": revision - 1]),
            .revisionMismatch(album: "Trip", expected: revision - 1, actual: revision))
        #expect(try session.propose(.remove([.position(0, in: "Trip")], expecting: ["Trip": revision])).isAllowed)
    }

    @Test("a drop next to an item that is itself moving")
    func neighbourIsTransferred() throws {
        try expectRefused(.move([.position(0, in: "Trip"), .position(2, in: "Trip")], to: .before(.position(2, in: "Trip"))),
            .neighbourIsTransferred(.position(2, in: "Trip")))
    }

    @Test("no items, or a swap without exactly two")
    func wrongSourceCount() throws {
        try expectRefused(.remove([]), .wrongItemCount(operation: "remove", count: 0))
        try expectRefused(TransferOperation(action: .swap, sources: [.position(0, in: "Trip")]), .wrongItemCount(operation: "swap", count: 1))
    }
}
