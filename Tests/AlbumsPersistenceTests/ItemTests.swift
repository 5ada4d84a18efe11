import AlbumsImageFacts
import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

@Suite("Items: insert, remove, move, swap, placeholders")
struct ItemTests {
    let library: Library
    let trip: AlbumID
    let other: AlbumID
    let photos: [PhotoID]
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
        library = fixture.library
        (trip, other, photos) = try library.write { writer in
            (try writer.createAlbum(named: "Trip").id, try writer.createAlbum(named: "Other").id, try writer.addTestPhotos(count: 6))
        }
    }

    @Test("photos go in at an index, in the order given; a photo stands once per album")
    func insert() throws {
        try library.write { try $0.insertPhotos([photos[0], photos[1]], into: trip) }
        try library.write { try $0.insertPhotos([photos[3], photos[2]], into: trip, at: 1) }
        #expect(try library.photoOrder(of: trip) == [photos[0], photos[3], photos[2], photos[1]])
        #expect(throws: LibraryError.photoAlreadyInAlbum(photos[2], album: "Trip")) {
            try library.write { try $0.insertPhotos([photos[2]], into: trip) }
        }
        #expect(throws: LibraryError.photoAlreadyInAlbum(photos[4], album: "Trip")) {
            try library.write { try $0.insertPhotos([photos[4], photos[4]], into: trip) }
        }
        #expect(throws: LibraryError.positionOutOfRange(index: 5, valid: 0..<5, album: "Trip")) {
            try library.write { try $0.insertPhotos([photos[4]], into: trip, at: 5) }
        }
        #expect(throws: LibraryError.photoNotFound(PhotoID(rawValue: 999))) {
            try library.write { try $0.insertPhotos([PhotoID(rawValue: 999)], into: trip) }
        }
        #expect(try library.photoOrder(of: trip).count == 4)
    }

    @Test("the same bytes make one photo; its source moves only when the recorded one is gone")
    func photoDeduplication() throws {
        let folder = try TemporaryFolder()
        let source = folder.path("a.png")
        #expect(FileManager.default.createFile(atPath: source, contents: Data("abc".utf8)))
        let content = PhotoContent(
            sha256: Data(repeating: 7, count: 32), byteCount: 3, mediaType: "image/png", pixelWidth: 2, pixelHeight: 1,
            capturedAt: CaptureDate("2026-07-01T10:00:00"), originalName: "a.png", sourcePath: source)
        let first = try library.write { try $0.addPhoto(content) }
        var again = content
        again.sourcePath = "/elsewhere/copy.png"
        let second = try library.write { try $0.addPhoto(again) }
        #expect(first.isNew && !second.isNew)
        #expect(first.photo.id == second.photo.id)
        #expect(second.photo.content.sourcePath == source)
        #expect(try library.read { try $0.photo(first.photo.id) }.content == content)

        try FileManager.default.removeItem(atPath: source)
        let third = try library.write { try $0.addPhoto(again) }
        #expect(!third.isNew && third.photo.id == first.photo.id)
        #expect(third.photo.content.sourcePath == "/elsewhere/copy.png")
    }

    @Test("moving across albums carries items and counts; a photo the destination has is refused")
    func moveAcross() throws {
        let items = try library.write { try $0.insertPhotos(Array(photos[0..<4]), into: trip) }
        try library.write { try $0.insertPhotos([photos[4]], into: other) }
        try library.write { try $0.moveItems([items[3], items[1]], to: other, at: 0) }
        #expect(try library.photoOrder(of: trip) == [photos[0], photos[2]])
        #expect(try library.photoOrder(of: other) == [photos[3], photos[1], photos[4]])
        try library.write { try $0.insertPhotos([photos[0]], into: other) }
        #expect(throws: LibraryError.photoAlreadyInAlbum(photos[0], album: "Other")) {
            try library.write { try $0.moveItems([items[0]], to: other) }
        }
        #expect(throws: LibraryError.duplicateItem(.item(items[2]))) {
            try library.write { try $0.moveItems([items[2], items[2]], to: other) }
        }
        #expect(throws: LibraryError.positionOutOfRange(index: 3, valid: 0..<3, album: "Trip")) {
            // Trip has 2 items, 1 of them moving: valid indexes are 0…1... plus the moved ones don't count.
            try library.write { try $0.moveItems([items[3]], to: trip, at: 3) }
        }
        #expect(try library.read { try $0.album(trip).itemCount } == 2)
        #expect(try library.read { try $0.album(other).itemCount } == 4)
        #expect(try library.violations() == [])
    }

    @Test("two moving items of one photo cannot both enter an album")
    func moveSamePhotoTwice() throws {
        let third = try library.write { try $0.createAlbum(named: "Third").id }
        let fromTrip = try library.write { try $0.insertPhotos([photos[0]], into: trip) }[0]
        let fromOther = try library.write { try $0.insertPhotos([photos[0]], into: other) }[0]
        #expect(throws: LibraryError.photoAlreadyInAlbum(photos[0], album: "Third")) {
            try library.write { try $0.moveItems([fromTrip, fromOther], to: third) }
        }
        #expect(try library.photoOrder(of: third) == [])
    }

    @Test("swapping exchanges places within and across albums")
    func swap() throws {
        let tripItems = try library.write { try $0.insertPhotos(Array(photos[0..<3]), into: trip) }
        let otherItems = try library.write { try $0.insertPhotos(Array(photos[3..<5]), into: other) }
        try library.write { try $0.swapItems(tripItems[0], tripItems[2]) }
        #expect(try library.photoOrder(of: trip) == [photos[2], photos[1], photos[0]])
        try library.write { try $0.swapItems(tripItems[1], otherItems[1]) }
        #expect(try library.photoOrder(of: trip) == [photos[2], photos[4], photos[0]])
        #expect(try library.photoOrder(of: other) == [photos[3], photos[1]])
        #expect(try library.violations() == [])
    }

    @Test("a placeholder is committed where it stands now, whatever moved around it")
    func placeholderCommit() throws {
        let items = try library.write { try $0.insertPhotos(Array(photos[0..<3]), into: trip) }
        let placeholders = try library.write {
            try $0.insertPlaceholders([testLoad("/in/x.jpg"), testLoad("/in/y.jpg")], into: trip, at: 1)
        }
        #expect(try library.photoOrder(of: trip) == [photos[0], nil, nil, photos[1], photos[2]])
        // Meanwhile the user moves things around the placeholders.
        try library.write { try $0.moveItems([items[2]], to: trip, at: 0) }
        try library.write { try $0.moveItems([placeholders[1]], to: trip, at: 4) }
        #expect(try library.read { try $0.index(of: placeholders[1]) } == 4)
        try library.write { try $0.commitPlaceholder(placeholders[1], with: photos[5]) }
        try library.write { try $0.commitPlaceholder(placeholders[0], with: photos[4]) }
        #expect(try library.photoOrder(of: trip) == [photos[2], photos[0], photos[4], photos[1], photos[5]])
        let album = try library.read { try $0.album(trip) }
        #expect(album.placeholderCount == 0 && album.itemCount == 5)
        #expect(try library.violations() == [])
    }

    @Test("a placeholder whose photo the album already has is deleted, and that is reported")
    func placeholderDuplicate() throws {
        try library.write { try $0.insertPhotos([photos[0]], into: trip) }
        let placeholder = try library.write { try $0.insertPlaceholders([testLoad("/in/dup.jpg")], into: trip) }[0]
        let result = try library.write { try $0.commitPlaceholder(placeholder, with: photos[0]) }
        #expect(result == nil)
        #expect(try library.photoOrder(of: trip) == [photos[0]])
        #expect(try library.read { try $0.album(trip).placeholderCount } == 0)
    }

    @Test("removing items keeps photos; a removed placeholder is gone")
    func remove() throws {
        let items = try library.write { try $0.insertPhotos(Array(photos[0..<3]), into: trip) }
        let placeholder = try library.write { try $0.insertPlaceholders([testLoad("/in/z.jpg")], into: trip, at: 0) }[0]
        try library.write { try $0.removeItems([items[1], placeholder]) }
        #expect(try library.photoOrder(of: trip) == [photos[0], photos[2]])
        #expect(try library.read { try $0.photoCount() } == photos.count)
        #expect(throws: LibraryError.itemNotFound(.item(items[1]))) { try library.write { try $0.removeItems([items[1]]) } }
        #expect(try library.read { try $0.album(trip) }.placeholderCount == 0)
    }

    @Test("ids of removed items are never given to new ones")
    func idsAreNotReused() throws {
        let items = try library.write { try $0.insertPhotos(Array(photos[0..<2]), into: trip) }
        try library.write { try $0.removeItems([items[1]]) }
        let placeholder = try library.write { try $0.insertPlaceholders([testLoad("/in/late.jpg")], into: trip) }[0]
        #expect(placeholder > items[1])
    }

    @Test("a failed write leaves the file exactly as it was")
    func atomicity() throws {
        try library.write { try $0.insertPhotos(Array(photos[0..<3]), into: trip) }
        try library.close()
        let path = fixture.folder.path("library.albums")
        let before = try fileBytes(path)
        // One connection: a pool's opening primes the WAL with a transaction of its own.
        let reopened = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
        #expect(throws: LibraryError.photoAlreadyInAlbum(photos[0], album: "Trip")) {
            try reopened.write { writer in
                try writer.insertPhotos([photos[4]], into: trip)  // applied, then rolled back
                try writer.insertPhotos([photos[0]], into: trip)
            }
        }
        try reopened.close()
        let after = try fileBytes(path)
        let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(after == before, "\(before.count) → \(after.count) bytes; differing offsets \(differing.prefix(20))")
    }
}
