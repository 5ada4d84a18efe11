import AlbumsImageFacts
import AlbumsTestSupport
import Crypto
import Foundation
import GRDB
import Testing

@testable import AlbumsPersistence
@testable import AlbumsTransfer

@Suite("Upgrading photo facts (migration 0003)")
struct FactsUpgradeTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/Photos")

    /// A JPEG with an EXIF block whose only entry is Orientation, put right after SOI.
    static func jpeg(_ data: Data, orientation: UInt16) -> Data {
        var tiff: [UInt8] = Array("II*\0".utf8) + [8, 0, 0, 0]
        tiff += [1, 0] + [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0] + [0, 0, 0, 0]
        let body = Array("Exif\0\0".utf8) + tiff
        let length = UInt16(body.count + 2)
        return data.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body) + data.dropFirst(2)
    }

    @Test("an older library keeps its photo ids and id counter, and its photos' facts are read again where the source still holds the bytes")
    func upgradeRereadsFacts() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        let turned = Self.jpeg(try Data(contentsOf: Self.photos.appending(path: "11-forest.jpg")), orientation: 6)
        try turned.write(to: folder.url.appending(path: "turned.jpg"))
        let scan = try Data(contentsOf: Self.photos.appending(path: "07-scan.tiff"))

        var old = Library.Options(allowsConcurrentReads: false)
        old.migrations = Array(EmbeddedMigrations.all.prefix(2))
        let before = try Library.open(at: path, options: old)
        try before.database.write { db in
            // As albums of schema 2 recorded them: no orientation; the scan's DateTime taken as its capture date.
            let rows: [(Data, Int, String?, String)] = [
                (turned, 600, "2026-07-17T07:30:00", folder.path("turned.jpg")),
                (scan, 240, "2026-07-16T08:00:00", Self.photos.appending(path: "07-scan.tiff").path),
                (Data("gone".utf8), 10, "2020-01-01T00:00:00", folder.path("gone.jpg")),
                (Data("deleted".utf8), 10, nil, folder.path("deleted.jpg")),
            ]
            for (bytes, height, captured, source) in rows {
                try db.execute(
                    sql: """
                        INSERT INTO photo (sha256, byte_count, media_type, pixel_width, pixel_height, captured_at, original_name, source_path)
                        VALUES (?, ?, 'image/jpeg', 400, ?, ?, ?, ?)
                        """,
                    arguments: [Data(SHA256.hash(data: bytes)), bytes.count, height, captured, (source as NSString).lastPathComponent, source])
            }
            try db.execute(sql: "DELETE FROM photo WHERE id = 4")
        }
        try before.close()

        let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
        #expect(try library.read { try $0.photosWithOutdatedFacts().map(\.id.rawValue) } == [1, 2, 3])
        let report = try library.refreshOutdatedPhotoFacts()
        #expect(report == PhotoFactsRefresh(refreshed: 2, unreadable: 1))
        try library.read { reader in
            #expect(try reader.hasPhotosWithOutdatedFacts() == false)
            let first = try reader.photo(PhotoID(rawValue: 1)).content
            #expect(first.orientation == .right)
            #expect(first.displayWidth == 600 && first.displayHeight == 400)
            #expect(first.capturedAt == (try ImageHeaderReader.read(turned)).capturedAt)
            // IFD0's DateTime is when a program saved the scan, not when it was taken.
            #expect(try reader.photo(PhotoID(rawValue: 2)).content.capturedAt == nil)
            // A photo whose source is gone keeps what it had.
            #expect(try reader.photo(PhotoID(rawValue: 3)).content.capturedAt?.text == "2020-01-01T00:00:00")
        }
        // Ids are never reused: the counter came through the table's rebuild.
        let next = try library.write { try $0.addPhoto(PhotoContent(sha256: Data(repeating: 9, count: 32), byteCount: 1, mediaType: "image/png", originalName: "n.png", sourcePath: "/n.png")) }
        #expect(next.photo.id.rawValue == 5)
        #expect(try library.violations() == [])
    }

    @Test(
        "opening for use upgrades, reads facts again and hands over the upgrade's notes, once; read-only, it only opens",
        arguments: [false, true])
    func openForUse(concurrentReads: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        let turned = Self.jpeg(try Data(contentsOf: Self.photos.appending(path: "11-forest.jpg")), orientation: 6)
        try turned.write(to: folder.url.appending(path: "turned.jpg"))
        var old = Library.Options(allowsConcurrentReads: false)
        old.migrations = Array(EmbeddedMigrations.all.prefix(2))
        let before = try Library.open(at: path, options: old)
        try before.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO photo (sha256, byte_count, media_type, pixel_width, pixel_height, original_name, source_path)
                    VALUES (?, ?, 'image/jpeg', 400, 600, 'turned.jpg', ?)
                    """,
                arguments: [Data(SHA256.hash(data: turned)), turned.count, folder.path("turned.jpg")])
            // A name schema 4 refuses: the upgrade renames the album and leaves a note.
            try db.execute(sql: "INSERT INTO album (name, order_key) VALUES ('id', 1024)")
        }
        try before.close()

        let (library, opening) = try Library.openForUse(at: path, options: Library.Options(allowsConcurrentReads: concurrentReads))
        #expect(opening.factsRefresh == PhotoFactsRefresh(refreshed: 1, unreadable: 0))
        #expect(opening.upgradeNotes.count == 1)
        #expect(try library.read { try $0.photo(PhotoID(rawValue: 1)).content.orientation } == .right)
        try library.close()
        let (_, again) = try Library.openForUse(at: path, options: Library.Options(allowsConcurrentReads: concurrentReads))
        #expect(again.upgradeNotes.isEmpty && again.factsRefresh == PhotoFactsRefresh())
    }
}
