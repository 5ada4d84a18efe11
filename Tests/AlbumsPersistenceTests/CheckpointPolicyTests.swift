import AlbumsTestSupport
import Foundation
import GRDB
import Testing

@testable import AlbumsPersistence

/// Who checkpoints the write-ahead log: albums by default, a replicator
/// (Litestream) when the library says so.
@Suite("Checkpoint policy")
struct CheckpointPolicyTests {
    /// Writes a few thousand photos (several hundred WAL pages) while another
    /// connection keeps the file open, closes the library, and says how big
    /// the `-wal` file is then and what the writer's autocheckpoint was.
    func writeAndClose(_ path: String) throws -> (walBytes: Int, autocheckpoint: Int) {
        // Another process's connection, as Litestream keeps one: closing the
        // library is then not the file's last close (SQLite checkpoints on that).
        let other = try DatabaseQueue(path: path)
        defer { try? other.close() }
        let library = try Library.open(at: path)
        let autocheckpoint = try library.write { writer in
            _ = try writer.addTestPhotos(count: 5000)
            return try Int.fetchOne(writer.database, sql: "PRAGMA wal_autocheckpoint") ?? -1
        }
        try library.close()
        let walBytes = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return (walBytes, autocheckpoint)
    }

    @Test("by default albums checkpoints: autocheckpoint at 1,000 pages, the log truncated on close")
    func automatic() throws {
        let fixture = try LibraryFixture()
        #expect(try fixture.library.read { try $0.checkpointPolicy() } == .automatic)
        try fixture.library.close()
        let (walBytes, autocheckpoint) = try writeAndClose(fixture.library.path)
        #expect(autocheckpoint == 1000)
        #expect(walBytes == 0)
    }

    @Test("external: stored in the file, every later open turns autocheckpoint off and close leaves the log to the replicator")
    func external() throws {
        let fixture = try LibraryFixture()
        try fixture.library.write { try $0.setCheckpointPolicy(.external) }
        try fixture.library.close()
        let (walBytes, autocheckpoint) = try writeAndClose(fixture.library.path)
        #expect(autocheckpoint == 0)
        #expect(walBytes > 0)

        let reopened = try Library.open(at: fixture.library.path)
        #expect(try reopened.read { try $0.checkpointPolicy() } == .external)
        #expect(try LibraryInspection.inspect(path: fixture.library.path).checkpoints == .external)
        try reopened.write { try $0.setCheckpointPolicy(.automatic) }
        try reopened.close()
        #expect(try writeAndClose(fixture.library.path) == (0, 1000))
    }
}
