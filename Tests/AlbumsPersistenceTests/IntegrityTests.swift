import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import GRDB
import Testing

/// `check`'s invariants, each made to fire by a file corrupted behind the
/// library's back, and each `--repair` branch made to fix what it can.
@Suite("Integrity: every invariant fires, every repair repairs")
struct IntegrityTests {
    /// A library with album A of 3,000 items (two segments) and album B of 3.
    func makeLibrary() throws -> (LibraryFixture, AlbumID, AlbumID) {
        let fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        let (a, b) = try fixture.library.write { writer in
            let a = try writer.createAlbum(named: "A")
            let b = try writer.createAlbum(named: "B")
            try writer.insertPhotos(try writer.addTestPhotos(count: 3_000), into: a.id)
            try writer.insertPhotos(try writer.addTestPhotos(count: 3), into: b.id)
            return (a.id, b.id)
        }
        return (fixture, a, b)
    }

    /// Changes the file as a careless tool would: plain SQL, no foreign keys.
    func corrupt(_ fixture: LibraryFixture, _ sql: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: fixture.folder.path("library.albums"), configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    func codes(_ library: Library) throws -> [String] {
        try library.read { try $0.integrityReport().violations.map(\.code) }
    }

    func order(_ library: Library, _ album: AlbumID) throws -> [PhotoID?] {
        try library.read { try $0.items(in: album).map(\.photoID) }
    }

    /// Each case: the corruption, the code it must raise, and whether
    /// --repair fixes it (keeping every album's order).
    static let cases: [(name: String, sql: String, code: String, repairs: Bool)] = [
        ("album counter", "UPDATE album SET item_count = item_count + 2 WHERE name = 'B'", "album_count_mismatch", true),
        ("placeholder counter", "UPDATE album SET placeholder_count = 1 WHERE name = 'B'", "album_count_mismatch", true),
        ("video counter", "UPDATE album SET video_count = 2 WHERE name = 'B'", "album_video_count_mismatch", true),
        ("segment counter", "UPDATE album_segment SET item_count = item_count - 1 WHERE id = (SELECT min(id) FROM album_segment)",
         "segment_count_mismatch", true),
        ("overfull segment",
         "UPDATE album_item SET segment_id = (SELECT min(id) FROM album_segment), order_key = id * 1000 WHERE album_id = (SELECT id FROM album WHERE name = 'A'); "
            + "UPDATE album_segment SET item_count = 3000 WHERE id = (SELECT min(id) FROM album_segment); "
            + "DELETE FROM album_segment WHERE item_count != 3000 AND album_id = (SELECT id FROM album WHERE name = 'A')",
         "overfull_segment", true),
        ("item in another album than its segment",
         "UPDATE album_item SET album_id = (SELECT id FROM album WHERE name = 'A') WHERE id = (SELECT max(id) FROM album_item); "
            + "UPDATE album SET item_count = item_count + 1 WHERE name = 'A'; UPDATE album SET item_count = item_count - 1 WHERE name = 'B'",
         "item_album_mismatch", true),
        ("item key out of range", "UPDATE album_item SET order_key = \(1 << 46) + 5 WHERE id = (SELECT max(id) FROM album_item)",
         "order_key_out_of_range", true),
        ("segment key out of range",
         "UPDATE album_segment SET order_key = \(1 << 61) + 5 WHERE id = (SELECT max(id) FROM album_segment)", "order_key_out_of_range", true),
        ("album key out of range", "UPDATE album SET order_key = \(1 << 61) + 5 WHERE name = 'B'", "order_key_out_of_range", true),
        ("photo made apart from none", "UPDATE photo SET is_apart = 1 WHERE id = (SELECT min(id) FROM photo)", "photo_apart_alone", true),
        ("dangling reference", "DELETE FROM photo WHERE id = (SELECT photo_id FROM album_item WHERE id = (SELECT max(id) FROM album_item))",
         "dangling_reference", false),
    ]

    @Test("each corruption raises its code; --repair fixes what it safely can, keeping the order", arguments: cases.indices)
    func corruption(index: Int) throws {
        let (name, sql, code, repairs) = Self.cases[index]
        let (fixture, a, b) = try makeLibrary()
        let orders = [try order(fixture.library, a), try order(fixture.library, b)]
        #expect(try codes(fixture.library).isEmpty)
        try fixture.library.close()

        try corrupt(fixture, sql)
        let library = try Library.open(at: fixture.folder.path("library.albums"), options: Library.Options(allowsConcurrentReads: false))
        let found = try codes(library)
        #expect(found.contains(code), "\(name): \(found)")

        let repaired = try library.write { try $0.repairInvariants() }
        if repairs {
            #expect(!repaired.isEmpty, "\(name): nothing repaired")
            let after = try codes(library)
            #expect(after.isEmpty, "\(name) after repair: \(after)")
            if code != "item_album_mismatch" {
                #expect(try [order(library, a), order(library, b)] == orders, "\(name): repair changed an order")
            }
            #expect(try library.write { try $0.repairInvariants() }.isEmpty, "\(name): a second repair found more")
        } else {
            #expect(try codes(library).contains(code), "\(name): not repairable, so still reported")
        }
    }

    @Test("integrity_check's findings are violations too (code integrity); repair leaves them to a backup")
    func sqliteIntegrity() throws {
        let (fixture, _, _) = try makeLibrary()
        try fixture.library.close()
        // An index that no longer matches its table: SQLite forgets the
        // index, a row changes, and the index comes back as it was.
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let path = fixture.folder.path("library.albums")
        func session(_ body: (Database) throws -> Void) throws {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction(body)
            try queue.close()
        }
        var saved: Row?
        try session { db in
            saved = try Row.fetchOne(db, sql: "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE name = 'album_item_photo'")
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "DELETE FROM sqlite_master WHERE name = 'album_item_photo'")
        }
        try session { db in
            try db.execute(sql: "UPDATE album_item SET photo_id = 1 WHERE id = (SELECT max(id) FROM album_item)")
        }
        try session { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql: "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)",
                arguments: [saved![0], saved![1], saved![2], saved![3], saved![4]])
        }
        let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
        // quick_check does not compare indexes with their tables; check --full does.
        let report = try library.read { try $0.integrityReport(thorough: true) }
        #expect(report.violations.contains { $0.code == "integrity" && $0.message.contains("album_item_photo") }, "\(report.violations)")
        // Not albums' to fix: the repair says nothing of it, and check still fails.
        _ = try library.write { try $0.repairInvariants() }
        #expect(try library.read { try $0.integrityReport(thorough: true) }.violations.contains { $0.code == "integrity" })
    }
}
