import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Synchronization
import Testing

/// `LibraryInspection` on a library that other connections open, write,
/// checkpoint and close while it reads.
@Suite("Inspection: a busy library is reported as it is")
struct InspectionTests {
    /// Each writer session starts with no side files, so an inspection that
    /// starts between sessions reads the file immutable while the next one
    /// checkpoints into it: a read that must notice and be made again, or it
    /// reports pages half-written as corruption.
    @Test("inspect never reports a sound library as corrupt while others write and checkpoint")
    func inspectWhileOthersWrite() throws {
        let fixture = try LibraryFixture()
        let path = fixture.library.path
        let album = try fixture.library.write { writer in
            let album = try writer.createAlbum(named: "A")
            try writer.insertPhotos(try writer.addTestPhotos(count: 20_000), into: album.id)
            return album.id
        }
        try fixture.library.close()

        let sessions = 600
        // A thread of its own, not a task: the inspections below never
        // suspend, and a task could wait for them forever on a busy pool.
        let writing = Atomic<Bool>(true)
        let failure = Mutex<(any Error)?>(nil)
        let writer = Thread {
            defer { writing.store(false, ordering: .releasing) }
            do {
                for _ in 0..<sessions {
                    let library = try Library.open(at: path)
                    try library.write { writer in
                        try writer.insertPhotos(try writer.addTestPhotos(count: 5), into: album)
                    }
                    try library.close()
                }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        writer.start()
        var findings: [String] = []
        var inspections = 0
        while writing.load(ordering: .acquiring) {
            let inspection = try LibraryInspection.inspect(path: path)
            inspections += 1
            if !inspection.isSound {
                findings.append(inspection.integrity.joined(separator: "; ") + ", \(inspection.foreignKeyViolations) dangling references")
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        #expect(inspections > 0)
        #expect(findings == [], "\(findings.count) of \(inspections) inspections")
        #expect(try LibraryInspection.inspect(path: path).items == 20_000 + sessions * 5)
    }
}
