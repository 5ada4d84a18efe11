import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

@Suite("Migrations")
struct MigrationTests {
    /// The folder that holds the package's migrations/*.sql.
    static let migrationsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "migrations")

    @Test("the binary embeds exactly the files in migrations/")
    func embeddedCopiesEqualTheFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!names.isEmpty)
        #expect(EmbeddedMigrations.embeddedFiles.map(\.fileName) == names)
        for (name, embedded) in zip(names, EmbeddedMigrations.embeddedFiles) {
            let text = try String(contentsOf: Self.migrationsFolder.appending(path: name), encoding: .utf8)
            #expect(embedded.text == text, "migrations/\(name) differs from its embedded copy")
        }
        #expect(EmbeddedMigrations.all.map(\.version) == Array(1...names.count))
    }

    @Test("migrations/SHA256SUMS lists each migration's SHA-256, which the binary embeds rather than computes")
    func listedChecksumsAreTheTexts() {
        #expect(EmbeddedMigrations.embeddedSHA256.count == EmbeddedMigrations.embeddedFiles.count)
        for migration in EmbeddedMigrations.all {
            #expect(
                migration.checksum == Migration.checksum(of: migration.sql),
                "migrations/SHA256SUMS is out of date for migration \(migration.version): run (cd migrations && sha256sum *.sql > SHA256SUMS)")
        }
    }

    @Test("a new library is stamped, versioned and records every migration with its checksum")
    func newLibrary() throws {
        let fixture = try LibraryFixture()
        try fixture.library.close()
        let bytes = try fileBytes(fixture.folder.path("library.albums"))
        let header = try DatabaseFileHeader(bytes: [UInt8](bytes.prefix(100)), path: "library.albums")
        #expect(header.applicationID == Library.applicationID)
        #expect(Int(header.userVersion) == EmbeddedMigrations.latestVersion)
        #expect(header.isWAL)
        let queue = try DatabaseQueue(path: fixture.folder.path("library.albums"))
        let recorded = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT version, name, checksum FROM schema_migration ORDER BY version")
        }
        #expect(recorded.map { $0["version"] as Int } == EmbeddedMigrations.all.map(\.version))
        #expect(recorded.map { $0["checksum"] as String } == EmbeddedMigrations.all.map(\.checksum))
        #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test("an empty file, as touch makes it, becomes a library")
    func emptyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("touched.albums")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let library = try Library.open(at: path)
        #expect(try library.read { try $0.albumCount() } == 0)
    }

    @Test("every earlier version upgrades to the latest, keeping data and a backup")
    func upgradeFromEachEarlierVersion() throws {
        let all = EmbeddedMigrations.all
        for version in 0..<all.count {
            let folder = try TemporaryFolder()
            let path = folder.path("library.albums")
            var old = Library.Options()
            old.migrations = Array(all.prefix(version))
            if version > 0 {
                try Library.open(at: path, options: old).close()
                // Written as that version's albums wrote it: today's code writes today's schema.
                try DatabaseQueue(path: path).write { try $0.execute(sql: "INSERT INTO album (name, order_key) VALUES ('Kept', 1099511627776)") }
            }
            let upgraded = try Library.open(at: path)
            if version > 0 {
                #expect(try upgraded.read { try $0.album(named: "Kept") }.itemCount == 0)
                #expect(try folder.fileNames().contains("library.albums.schema-\(version).backup"))
            }
            try upgraded.close()
            let queue = try DatabaseQueue(path: path)
            #expect(try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == all.last!.version)
        }
    }

    @Test("upgrading renames albums whose names break today's rules, keeping their items and places, and says so once")
    func albumNamesUpgraded() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        var old = Library.Options(allowsConcurrentReads: false)
        old.migrations = Array(EmbeddedMigrations.all.prefix(3))
        let before = try Library.open(at: path, options: old)
        let names = ["id", "Cafe\u{301}", "Caf\u{E9}", "\u{200B}", "Trip\u{202E}gnirps", "Fine"]
        // Written past today's checks, as older albums could.
        for (index, name) in names.enumerated() {
            try before.database.write { db in
                try db.execute(sql: "INSERT INTO album (name, order_key) VALUES (?, ?)", arguments: [name, (index + 1) * 1000])
            }
        }
        // A photo, into album 'id', as schema 3 holds them (today's code writes today's schema).
        try before.database.write { db in
            try db.execute(
                sql: "INSERT INTO photo (id, sha256, byte_count, media_type, original_name, source_path) VALUES (1, ?, 1, 'image/png', 'a.png', '/a.png')",
                arguments: [Data(repeating: 1, count: 32)])
            try db.execute(
                sql: """
                    INSERT INTO album_segment (album_id, order_key, item_count) SELECT id, 1099511627776, 1 FROM album WHERE name = 'id';
                    INSERT INTO album_item (album_id, segment_id, order_key, photo_id)
                        SELECT album_id, id, 17179869184, ? FROM album_segment WHERE id = last_insert_rowid();
                    UPDATE album SET item_count = 1, revision = revision + 1 WHERE name = 'id';
                    """,
                arguments: [1])
        }
        try before.close()

        let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
        let albums = try library.read { try $0.albums() }
        #expect(albums.map(\.name) == ["id (album)", "Caf\u{E9} (2)", "Caf\u{E9}", "Untitled album", "Tripgnirps", "Fine"])
        #expect(albums.first?.itemCount == 1, "the renamed album keeps its items")
        #expect(albums.map(\.revision) == [2, 1, 0, 1, 1, 0].map { $0 + albums[5].revision })
        let notes = try library.takeUpgradeNotes()
        #expect(notes.count == 4)
        #expect(notes.first == "renamed album 'id' to 'id (album)': 'id' is reserved: id:N names a photo")
        #expect(notes.contains(#"renamed album '\u{200B}' to 'Untitled album': a name cannot be only spaces or invisible characters"#))
        #expect(notes.contains("renamed album 'Cafe\u{301}' to 'Caf\u{E9} (2)': names are now stored in Unicode NFC, and another album looks the same"))
        #expect(try library.takeUpgradeNotes().isEmpty, "each note is said once")
        #expect(try library.violations() == [])
    }

    /// A later schema, made up for the tests that need two versions.
    static let nextMigration = Migration(
        version: EmbeddedMigrations.latestVersion + 1, name: "add_album_note",
        sql: "ALTER TABLE album ADD COLUMN note TEXT;")

    @Test("the folders upgrade puts every album at the top level in its order, and undo reaches back past it")
    func foldersUpgrade() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        var old = Library.Options()
        old.migrations = EmbeddedMigrations.all.filter { $0.version < 7 }
        let library = try Library.open(at: path, options: old)
        try library.close()
        // Three albums as schema 6 wrote them, and a move of one in the history.
        try DatabaseQueue(path: path).write { db in
            for (name, key) in [("A", 3), ("B", 1), ("C", 2)] {
                try db.execute(sql: "INSERT INTO album (name, order_key) VALUES (?, ?)", arguments: [name, key << 40])
            }
        }
        let upgraded = try Library.open(at: path)
        #expect(try upgraded.read { try $0.albums().map(\.name) } == ["B", "C", "A"])
        #expect(try upgraded.read { try $0.albums().map(\.index) } == [0, 1, 2])
        #expect(try upgraded.read { try $0.albums().map(\.parentID) } == [nil, nil, nil])
        #expect(try folder.fileNames().contains("library.albums.schema-6.backup"))
        // The tree works on the upgraded file, and so does undo.
        try upgraded.write { writer in
            let travel = try writer.createFolder(named: "Travel", placement: .into(nil))
            try writer.moveAlbum(try writer.album(named: "A").id, to: .into(.id(travel.id)))
        }
        #expect(try upgraded.read { try $0.path(of: try $0.album(named: "A")) } == "Travel/A")
        _ = try upgraded.write { try $0.undo() }
        #expect(try upgraded.read { try $0.albums().map(\.name) } == ["B", "C", "A"])
        #expect(try upgraded.violations() == [])
    }

    @Test("the upgrade to each person's undo finds the person of an older entry by the name it was made under")
    func historyByPerson() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        var old = Library.Options()
        old.migrations = EmbeddedMigrations.all.filter { $0.version < 27 }
        let library = try Library.open(at: path, options: old)
        try library.write { _ = try $0.addPerson(named: "sam", password: try PasswordHash(password: "correct horse", cost: 4)) }
        try library.close()
        // sam created Trip, as schema 26 recorded it: by his name alone.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO album (name, order_key) VALUES ('Trip', ?)", arguments: [1 << 40])
            let (album, step) = (db.lastInsertedRowID, try Int64.fetchOne(db, sql: "SELECT max(id) FROM history_step") ?? 0)
            try db.execute(
                sql: """
                    INSERT INTO history_entry (description, albums, first_step, last_step, actor_kind, actor_name)
                    VALUES ('create album ''Trip''', json_array(json_object('id', ?, 'name', 'Trip')), ?, ?, 'person', 'sam')
                    """,
                arguments: [album, step, step])
        }
        let upgraded = try Library.open(at: path)
        let sam = try upgraded.read { try $0.person(named: "sam") }
        try upgraded.write { try $0.setRole(.owner, of: sam.id, on: .album(try $0.album(named: "Trip").id)) }
        let next = try upgraded.read { reader in
            reader.act(as: .person(sam))
            return try reader.nextUndo()?.description
        }
        #expect(next == "create album 'Trip'")
        try upgraded.write { writer in
            writer.act(as: .person(sam))
            _ = try writer.undo()
        }
        #expect(try upgraded.read { try $0.albums().map(\.name) } == [])
        #expect(try upgraded.violations() == [])
    }

    @Test("the upgrade that counts albums' videos counts those each album holds, and the count then follows every write")
    func albumVideoCount() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        // Filled by today's code, then taken back to schema 28 (no count, no triggers), as a library of then would be.
        let library = try Library.open(at: path)
        try library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            let book = try writer.createAlbum(named: "Book")
            let clips = try writer.addTestPhotos(count: 3, mediaType: "video/mp4")
            try writer.insertPhotos(try writer.addTestPhotos(count: 2) + clips, into: trip.id)
            try writer.insertPhotos([clips[0]], into: book.id)
            _ = try writer.createAlbum(named: "Stills")
        }
        try library.close()
        try DatabaseQueue(path: path).write { db in
            for trigger in ["insert", "delete", "update", "kind"] { try db.execute(sql: "DROP TRIGGER album_video_count_\(trigger)") }
            try db.execute(sql: "DROP INDEX photo_videos")
            try db.execute(sql: "ALTER TABLE album DROP COLUMN video_count")
            try db.execute(sql: "DELETE FROM schema_migration WHERE version = 29")
            try db.execute(sql: "PRAGMA user_version = 28")
        }
        let upgraded = try Library.open(at: path)
        let counts = try upgraded.read { reader in try reader.albums().map { "\($0.name) \($0.itemCount) \($0.videoCount)" } }
        #expect(counts == ["Trip 5 3", "Book 1 1", "Stills 0 0"])
        try upgraded.write { writer in
            try writer.insertPhotos(try writer.addTestPhotos(count: 1, mediaType: "video/quicktime"), into: try writer.album(named: "Stills").id)
        }
        #expect(try upgraded.read { try $0.album(named: "Stills").videoCount } == 1)
        #expect(try upgraded.violations() == [])
    }

    @Test("the upgrade to photos made apart keeps every photo, its id, facts, motion and name search, and lets a second photo share bytes")
    func photosApart() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.albums")
        var old = Library.Options()
        old.migrations = EmbeddedMigrations.all.filter { $0.version < 28 }
        try Library.open(at: path, options: old).close()
        let digest = Data(repeating: 7, count: 32)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO album (name, order_key) VALUES ('Trip', ?)", arguments: [1 << 40])
            try db.execute(
                sql: """
                    INSERT INTO photo (id, sha256, byte_count, media_type, pixel_width, pixel_height, original_name, source_path, captured_at,
                        motion_sha256, motion_byte_count, motion_media_type, motion_source_path)
                    VALUES (5, ?, 10, 'image/heic', 4, 3, 'IMG_0001.HEIC', '/photos/IMG_0001.HEIC', '2026-07-14T09:12:00', ?, 20, 'video/quicktime', '/photos/IMG_0001.MOV')
                    """, arguments: [digest, Data(repeating: 8, count: 32)])
        }
        let upgraded = try Library.open(at: path)
        let photo = try upgraded.read { try $0.photo(PhotoID(rawValue: 5)) }
        #expect(photo.content.sha256 == digest && photo.content.originalName == "IMG_0001.HEIC" && !photo.isApart)
        #expect(photo.content.motion?.sourcePath == "/photos/IMG_0001.MOV" && photo.content.capturedAt?.text == "2026-07-14T09:12:00")
        var byName = PhotoSearch()
        byName.name = "0001"
        #expect(try upgraded.read { try $0.photos(matching: byName).photos.map(\.photo.id) } == [photo.id])
        let again = try upgraded.write { writer in
            try writer.db.execute(sql: "INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path, is_apart) VALUES (?, 10, 'image/heic', 'mine.heic', '/u/mine.heic', 1)", arguments: [digest])
            return writer.db.lastInsertedRowID
        }
        #expect(again == 6, "ids go on from the old table's counter")
        #expect(try upgraded.read { try $0.photos(sha256: digest).map(\.isApart) } == [false, true])
        #expect(try upgraded.violations() == [])
    }

    @Test("upgrading a library keeps a backup equal to the file before the upgrade")
    func backupBeforeUpgrade() throws {
        let fixture = try LibraryFixture()
        let path = fixture.folder.path("library.albums")
        _ = try fixture.library.write { try $0.createAlbum(named: "Before") }
        try fixture.library.close()

        var newer = Library.Options()
        newer.migrations = EmbeddedMigrations.all + [Self.nextMigration]
        let upgraded = try Library.open(at: path, options: newer)
        _ = try upgraded.write { try $0.createAlbum(named: "After") }
        try upgraded.close()

        let backupPath = path + ".schema-\(EmbeddedMigrations.latestVersion).backup"
        let backup = try DatabaseQueue(path: backupPath)
        try backup.read { (db) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == EmbeddedMigrations.latestVersion)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM album") == ["Before"])
        }
        // A second upgrade does not overwrite the first backup.
        #expect(Library.unusedPath(startingWith: backupPath) == backupPath + "-2")
    }

    @Test("a file of a newer schema is refused and left byte for byte")
    func newerSchemaRefused() throws {
        let fixture = try LibraryFixture()
        let path = fixture.folder.path("library.albums")
        try fixture.library.close()
        var newer = Library.Options()
        newer.migrations = EmbeddedMigrations.all + [Self.nextMigration]
        try Library.open(at: path, options: newer).close()
        let before = try fileBytes(path)
        let filesBefore = try fixture.folder.fileNames()

        #expect(throws: LibraryError.newerSchema(path: path, fileVersion: Self.nextMigration.version, supportedVersion: EmbeddedMigrations.latestVersion)) {
            try Library.open(at: path)
        }
        #expect(try fileBytes(path) == before)
        #expect(try fixture.folder.fileNames() == filesBefore)
    }

    @Test("a recorded migration whose text changed is refused")
    func modifiedMigrationRefused() throws {
        let fixture = try LibraryFixture()
        let path = fixture.folder.path("library.albums")
        try fixture.library.close()
        let before = try fileBytes(path)
        var edited = Library.Options()
        let first = EmbeddedMigrations.all[0]
        edited.migrations = [Migration(version: 1, name: first.name, sql: first.sql + "\n-- edited after shipping\n")]
            + EmbeddedMigrations.all.dropFirst()
        #expect(throws: LibraryError.modifiedMigration(path: path, version: 1, name: first.name)) {
            try Library.open(at: path, options: edited)
        }
        #expect(try fileBytes(path) == before)
    }

    @Test("migration file names parse into version and name")
    func fileNames() {
        #expect(Migration(fileName: "0012_add_tags.sql", sql: "")?.version == 12)
        #expect(Migration(fileName: "0012_add_tags.sql", sql: "")?.name == "add_tags")
        #expect(Migration(fileName: "add_tags.sql", sql: "") == nil)
        #expect(Migration(fileName: "0000_zero.sql", sql: "") == nil)
        #expect(Migration(fileName: "0001_x.txt", sql: "") == nil)
    }
}
