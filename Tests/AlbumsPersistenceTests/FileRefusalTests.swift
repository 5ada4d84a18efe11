import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

/// Files that are not usable libraries are refused with a specific error
/// and left exactly as they were: same bytes, no side files.
@Suite("Refusing files that are not usable libraries")
struct FileRefusalTests {
    /// Opens `path`, expects `expected`, and checks the folder is untouched.
    func expectRefusal(
        of path: String, in folder: TemporaryFolder, matching expected: (LibraryError) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytesBefore = try fileBytes(path)
        let filesBefore = try folder.fileNames()
        do {
            let library = try Library.open(at: path)
            _ = try library.read { reader in
                try reader.albums().map { try reader.items(in: $0.id) }
            }
            Issue.record("opening \(path) succeeded", sourceLocation: sourceLocation)
        } catch let error as LibraryError {
            #expect(expected(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
            #expect(error.kind == .unusableFile, sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        }
        #expect(try fileBytes(path) == bytesBefore, "the file changed", sourceLocation: sourceLocation)
        #expect(try folder.fileNames() == filesBefore, "files appeared or vanished", sourceLocation: sourceLocation)
    }

    /// A library of a few hundred pages, closed, and its path.
    func closedLibraryOfManyPages() throws -> (LibraryFixture, String) {
        let fixture = try LibraryFixture()
        try fixture.library.write { writer in
            let album = try writer.createAlbum(named: "Big")
            try writer.insertPhotos(try writer.addTestPhotos(count: 3000), into: album.id)
        }
        try fixture.library.close()
        return (fixture, fixture.folder.path("library.albums"))
    }

    @Test("the folder of a path: '.' for a bare name, one letter included")
    func folderOfPath() {
        #expect(LibraryPath.folder(of: "L") == ".")
        #expect(LibraryPath.folder(of: "library.albums") == ".")
        #expect(LibraryPath.folder(of: "a/L") == "a")
        #expect(LibraryPath.folder(of: "/L") == "/")
        #expect(LibraryPath.folder(of: "/home/me/albums/library.albums") == "/home/me/albums")
    }

    @Test("a text file")
    func textFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.albums")
        try Data("shopping list\nmilk\n".utf8).write(to: URL(fileURLWithPath: path))
        try expectRefusal(of: path, in: folder) { if case .notADatabase = $0 { true } else { false } }
    }

    @Test("random bytes longer than a header")
    func randomBytes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("noise.albums")
        var generator = SplitMix64(seed: 7)
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        try expectRefusal(of: path, in: folder) { if case .notADatabase = $0 { true } else { false } }
    }

    @Test("a library cut short")
    func truncatedLibrary() throws {
        let (fixture, path) = try closedLibraryOfManyPages()
        let bytes = try fileBytes(path)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        try expectRefusal(of: path, in: fixture.folder) { error in
            if case .truncated(_, let expected, let actual) = error {
                return expected == Int64(bytes.count) && actual == Int64(bytes.count / 2)
            }
            return false
        }
    }

    /// Found by the crash harness: a process killed during a checkpoint had
    /// written page 1 (with the new page count) but not the pages after it.
    /// The WAL still holds them all, so the file is not truncated: SQLite
    /// finishes the checkpoint on the next open.
    @Test("a checkpoint killed after page 1: it opens, with nothing lost; without its WAL it is truncated")
    func checkpointKilledPartway() throws {
        let fixture = try LibraryFixture()
        try fixture.library.write { _ = try $0.createAlbum(named: "Small") }
        try fixture.library.close()
        let path = fixture.folder.path("library.albums")

        // Grow the file in the WAL only, and copy it while the writer is still open: a crash image.
        let crashed = try TemporaryFolder()
        let copy = crashed.path("library.albums")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try db.inTransaction {
                    for index in 0..<3000 {
                        try db.execute(
                            sql: "INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path) VALUES (?, 1, 'image/jpeg', 'p.jpg', '/p.jpg')",
                            arguments: [Data((0..<32).map { UInt8(truncatingIfNeeded: index >> ($0 % 4 * 8)) ^ UInt8($0) })])
                    }
                    return .commit
                }
            }
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
            try queue.close()
        }

        // The checkpoint killed partway: the newest page 1 from the WAL over the old one, nothing else.
        let wal = try fileBytes(copy + "-wal")
        let pageSize = wal[8..<12].reduce(0) { $0 << 8 | Int($1) }
        var newestPageOne: Data?
        var offset = 32
        while offset + 24 + pageSize <= wal.count {
            if wal[offset..<offset + 4].reduce(0, { $0 << 8 | Int($1) }) == 1 {
                newestPageOne = wal[(offset + 24)..<(offset + 24 + pageSize)]
            }
            offset += 24 + pageSize
        }
        var main = try fileBytes(copy)
        main.replaceSubrange(0..<pageSize, with: try #require(newestPageOne))
        try main.write(to: URL(fileURLWithPath: copy))
        let header = try DatabaseFileHeader(bytes: Array(main.prefix(DatabaseFileHeader.byteCount)), path: copy)
        #expect(Int(try #require(header.pageCount)) * pageSize > main.count, "the header must promise more than the file has")

        let withoutWAL = try TemporaryFolder()
        try main.write(to: URL(fileURLWithPath: withoutWAL.path("library.albums")))
        try expectRefusal(of: withoutWAL.path("library.albums"), in: withoutWAL) { if case .truncated = $0 { true } else { false } }

        let library = try Library.open(at: copy)
        #expect(try library.read { try $0.photoCount() } == 3000)
        #expect(try library.violations() == [])
        try library.close()
    }

    @Test("another application's SQLite file, stamped with its id")
    func foreignApplication() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.db")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA application_id = 305419896; CREATE TABLE note (body TEXT)")
        }
        try queue.close()
        try expectRefusal(of: path, in: folder) { $0 == .foreignApplication(path: path, applicationID: 305_419_896) }
    }

    @Test("an SQLite file without an id but with tables of its own")
    func foreignDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.db")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE customer (name TEXT); CREATE TABLE invoice (total REAL)")
        }
        try queue.close()
        try expectRefusal(of: path, in: folder) { $0 == .foreignDatabase(path: path, tables: ["customer", "invoice"]) }
    }

    @Test("a library whose pages were overwritten is reported as damaged when met")
    func corruptPages() throws {
        let (fixture, path) = try closedLibraryOfManyPages()
        var bytes = try fileBytes(path)
        let header = try DatabaseFileHeader(bytes: [UInt8](bytes.prefix(100)), path: path)
        // Scribble over every page but the first (schema) one.
        var generator = SplitMix64(seed: 11)
        for index in header.pageSize..<bytes.count where index % 7 != 0 {
            bytes[index] = UInt8.random(in: 0...255, using: &generator)
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefusal(of: path, in: fixture.folder) { error in
            switch error {
            case .corrupt, .notADatabase: true
            default: false
            }
        }
    }

    @Test("a folder or a device given as the library is not one, whether reading or writing")
    func directory() throws {
        let folder = try TemporaryFolder()
        for access in [Library.Access.createIfMissing, .existing] {
            #expect(throws: LibraryError.notADatabase(path: folder.url.path, reason: "it is a folder, not a file")) {
                try Library.open(at: folder.url.path, options: Library.Options(access: access))
            }
            #expect(throws: LibraryError.notADatabase(path: "/dev/null", reason: "it is a device, not a file")) {
                try Library.open(at: "/dev/null", options: Library.Options(access: access))
            }
        }
    }

    @Test("a library in a folder that does not exist")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing/library.albums")
        #expect {
            try Library.open(at: path)
        } throws: { error in
            (error as? LibraryError)?.kind == .inputOutput
        }
    }

    @Test("headers are parsed field by field")
    func headerFields() throws {
        var bytes = [UInt8](repeating: 0, count: 100)
        bytes.replaceSubrange(0..<16, with: DatabaseFileHeader.magic)
        bytes[16] = 0x10  // page size 4096
        bytes[19] = 2
        bytes.replaceSubrange(24..<28, with: [0, 0, 0, 9])
        bytes.replaceSubrange(28..<32, with: [0, 0, 0, 18])
        bytes.replaceSubrange(68..<72, with: [0x41, 0x4C, 0x42, 0x4D])
        bytes.replaceSubrange(92..<96, with: [0, 0, 0, 9])
        let header = try DatabaseFileHeader(bytes: bytes, path: "x")
        #expect(header.pageSize == 4096)
        #expect(header.isWAL)
        #expect(header.pageCount == 18)
        #expect(header.applicationID == Library.applicationID)
        bytes[16] = 0x03  // 768: not a power of two
        #expect(throws: LibraryError.self) { try DatabaseFileHeader(bytes: bytes, path: "x") }
    }
}
