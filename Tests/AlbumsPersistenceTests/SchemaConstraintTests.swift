import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

/// The schema refuses bad rows by itself, whoever writes them: these tests
/// write raw SQL, past every check the Swift code makes.
@Suite("Constraints enforced by SQLite")
struct SchemaConstraintTests {
    let folder: TemporaryFolder
    let queue: DatabaseQueue

    init() throws {
        folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        try Library.open(at: path).close()
        queue = try DatabaseQueue(path: path)  // GRDB enables foreign keys
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO album (id, name, order_key) VALUES (1, 'Trip', 1000);
                INSERT INTO photo (id, sha256, byte_count, media_type, original_name, source_path)
                    VALUES (1, zeroblob(32), 10, 'image/jpeg', 'a.jpg', '/a.jpg');
                INSERT INTO album_segment (id, album_id, order_key, item_count) VALUES (1, 1, 1000, 1);
                INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (1, 1, 500, 1);
                """)
        }
    }

    func expectRefused(_ sql: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try queue.write { try $0.execute(sql: sql) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
        }
    }

    @Test("album names: not empty, no control characters, unique")
    func albumNames() {
        expectRefused("INSERT INTO album (name, order_key) VALUES ('', 2000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES ('a' || char(9) || 'b', 2000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES ('new' || char(10), 2000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES ('c1' || char(133), 2000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES ('Trip', 2000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES (NULL, 2000)")
    }

    @Test("album order keys are unique and in range, flags are booleans")
    func albumColumns() {
        expectRefused("INSERT INTO album (name, order_key) VALUES ('Other', 1000)")
        expectRefused("INSERT INTO album (name, order_key) VALUES ('Other', 0)")
        expectRefused("INSERT INTO album (name, order_key, is_locked) VALUES ('Other', 3000, 2)")
        expectRefused("UPDATE album SET placeholder_count = 5 WHERE id = 1")
        expectRefused("UPDATE album SET item_count = -1 WHERE id = 1")
    }

    @Test("STRICT tables refuse values of the wrong type")
    func strictTypes() {
        expectRefused("INSERT INTO album (name, order_key) VALUES ('Typed', 'high')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path) VALUES (randomblob(32), 'big', 'image/png', 'b', '/b')")
    }

    @Test("photos: a 32-byte digest, unique but for photos made apart; an image media type; both pixel sizes or none")
    func photos() throws {
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path) VALUES (randomblob(31), 1, 'image/png', 'b', '/b')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path) VALUES (zeroblob(32), 1, 'image/png', 'b', '/b')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path) VALUES (randomblob(32), 1, 'text/plain', 'b', '/b')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, pixel_width, original_name, source_path) VALUES (randomblob(32), 1, 'image/png', 10, 'b', '/b')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, captured_at, original_name, source_path) VALUES (randomblob(32), 1, 'image/png', 'yesterday', 'b', '/b')")
        expectRefused("INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path, is_apart) VALUES (zeroblob(32), 1, 'image/png', 'b', '/b', 2)")
        // Made apart, for someone who sees no photo of those bytes: as many as there are such people.
        for name in ["b", "c"] {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path, is_apart) VALUES (zeroblob(32), 1, 'image/png', ?, '/b', 1)",
                    arguments: [name])
            }
        }
    }

    @Test("items: a photo at most once per album, unique keys per segment, photo xor placeholder")
    func items() {
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (1, 1, 600, 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, load_source, load_owner_host, load_owner_process_id) VALUES (1, 1, 500, '/x', 'h', 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key) VALUES (1, 1, 700)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id, load_source, load_owner_host, load_owner_process_id) VALUES (1, 1, 800, 1, '/x', 'h', 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, load_source, load_owner_host, load_owner_process_id) VALUES (1, 1, 900, '/x', NULL, 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (1, 1, 140737488355328, 1)")
    }

    @Test("foreign keys: no item of a missing album, segment or photo; photos in use stay")
    func foreignKeys() {
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (9, 1, 700, 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (1, 9, 700, 1)")
        expectRefused("INSERT INTO album_item (album_id, segment_id, order_key, photo_id) VALUES (1, 1, 700, 9)")
        expectRefused("DELETE FROM photo WHERE id = 1")
    }

    @Test("deleting an album takes its segments and items, not its photos")
    func cascade() throws {
        try queue.write { try $0.execute(sql: "DELETE FROM album WHERE id = 1") }
        try queue.read { (db) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM album_item") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM album_segment") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") == 1)
        }
    }
}
