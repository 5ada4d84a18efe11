import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

@Suite("Transfers: semantics, change sets, batches, sessions")
struct TransferTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let photos: [PhotoID]

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        var photos: [PhotoID] = []
        try session.library.write { writer in
            photos = try writer.addTestPhotos(count: 8)
            try writer.insertPhotos(Array(photos[0..<5]), into: try writer.createAlbum(named: "Trip").id)  // a b c d e
            try writer.insertPhotos(Array(photos[5..<7]), into: try writer.createAlbum(named: "Book").id)  // f g
        }
        self.photos = photos
    }

    func order(_ album: String) throws -> [PhotoID?] {
        try session.library.read { try $0.items(in: try $0.album(named: album).id).map(\.photoID) }
    }

    @Test("a reorder reports moves, fixed points included, and replays")
    func reorder() throws {
        let old = try order("Trip")
        // Move b, e, d to just after a: b keeps index 1, d keeps index 3.
        let operation = TransferOperation.move([.position(1, in: "Trip"), .position(4, in: "Trip"), .position(3, in: "Trip")], to: .after(.position(0, in: "Trip")))
        let proposal = try session.propose(operation)
        #expect(proposal.verdict == .move)
        let changes = try session.perform(operation).changes
        #expect(changes == proposal.changes)
        let new = try order("Trip")
        #expect(new == [photos[0], photos[1], photos[4], photos[3], photos[2]])
        #expect(changes.count == 1)
        #expect(changes[0].moved.map { [$0.from, $0.to] } == [[1, 1], [3, 3], [4, 2]])
        let items = try session.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.id) }
        #expect(changes[0].moved.map(\.item) == [items[1], items[3], items[2]], "each move names the item that moved")
        #expect(changes[0].applied(to: old, inserting: { new[$0] }) == new)
    }

    @Test("moving across albums removes from one and inserts into the other, in the order given")
    func acrossAlbums() throws {
        let operation = TransferOperation.move([.position(3, in: "Trip"), .photo(photos[0], in: "Trip")], to: .at(1, in: "Book"))
        let changes = try session.perform(operation).changes
        #expect(try order("Trip") == [photos[1], photos[2], photos[4]])
        #expect(try order("Book") == [photos[5], photos[3], photos[0], photos[6]])
        let trip = changes.first { $0.albumName == "Trip" }!
        let book = changes.first { $0.albumName == "Book" }!
        #expect(trip.removed == [0, 3] && trip.inserted.isEmpty)
        #expect(book.inserted == [1, 2] && book.removed.isEmpty)
    }

    @Test("a copy leaves the sources and adds the photos; a drop where items already are is a no-op")
    func copyAndNoOp() throws {
        let changes = try session.perform(.copy([.position(0, in: "Trip"), .photo(photos[7], in: nil)], to: .into("Book"))).changes
        #expect(try order("Trip").count == 5)
        #expect(try order("Book") == [photos[5], photos[6], photos[0], photos[7]])
        #expect(changes.map(\.inserted) == [[2, 3]])
        let book = try session.library.read { try $0.items(in: try $0.album(named: "Book").id).map(\.id) }
        #expect(changes[0].insertedItems == Array(book[2...3]), "a copy names the items it created")
        let revision = try session.library.read { try $0.album(named: "Trip").revision }
        let noOp = TransferOperation.move([.position(1, in: "Trip"), .position(2, in: "Trip")], to: .at(1, in: "Trip"))
        #expect(try session.propose(noOp).verdict == .noOp)
        #expect(try session.perform(noOp).changes.isEmpty)
        #expect(try session.library.read { try $0.album(named: "Trip").revision } == revision)
    }

    @Test("a change set that does not fit an order is refused by applied(to:)")
    func appliedRejectsMisfits() {
        let item = AlbumItemID(rawValue: 1)
        var outOfRange = AlbumChangeSet(albumID: AlbumID(rawValue: 1), albumName: "X", revision: 1)
        outOfRange.recordRemoval(at: 5, of: item)
        #expect(outOfRange.applied(to: [1, 2, 3], inserting: { $0 }) == nil)
        var colliding = AlbumChangeSet(albumID: AlbumID(rawValue: 1), albumName: "X", revision: 1)
        colliding.recordRemoval(at: 0, of: item)
        colliding.recordMove(from: 0, to: 1, of: item)
        #expect(colliding.applied(to: [1, 2, 3], inserting: { $0 }) == nil)
        var fitting = AlbumChangeSet(albumID: AlbumID(rawValue: 1), albumName: "X", revision: 1)
        fitting.recordRemoval(at: 0, of: item)
        fitting.recordMove(from: 2, to: 0, of: item)
        #expect(fitting.applied(to: [1, 2, 3], inserting: { $0 }) == [3, 2])
    }

    @Test("album operations: one undoable change each, in batches with item operations, refused as a whole")
    func albumOperations() async throws {
        let names = { try self.session.library.read { try $0.albums().map(\.name) } }
        // A batch builds an album, fills it and puts it first, in one transaction.
        let results = try await session.perform(batch: [
            .album(.create(name: "Lisbon")),
            .items(.move([.position(0, in: "Trip")], to: .into("Lisbon"))),
            .album(.move("Lisbon", to: .position(0))),
            .album(.sort("Trip", by: .name, ascending: false)),
        ])
        #expect(try names() == ["Lisbon", "Trip", "Book"])
        #expect(try order("Lisbon") == [photos[0]])
        #expect(results[0].changes.first?.albumEvents == [.created])
        #expect(results[2].changes.first?.albumEvents == [.moved])

        // The proposal of an album operation writes nothing and says why not.
        let taken = try await session.propose(.album(.rename("Lisbon", to: "Book")))
        #expect(taken.isAllowed == false)
        if case .forbidden(let error) = taken.verdict { #expect(error.code == "album_name_taken") }
        let rename = try await session.propose(.album(.rename("Lisbon", to: "Porto")))
        #expect(rename.verdict == .changed(.renameAlbum) && rename.verdict.name == "renamed" && rename.changes.first?.albumEvents == [.renamed])
        #expect(try names() == ["Lisbon", "Trip", "Book"])

        // The first refused operation names itself; nothing of the batch stays.
        await #expect {
            try await session.perform(batch: [.album(.setLocked("Book", true)), .album(.delete("Book", force: false))])
        } throws: { error in
            (error as? BatchRefusal)?.description.hasPrefix("operation 2 (delete_album) refused, nothing applied") == true
        }
        #expect(try await session.library.read { try $0.album(named: "Book").isLocked } == false)
        // A rename to the same name changes nothing and says so.
        #expect(try await session.perform(.album(.rename("Book", to: "Book"))).outcome == .noOp)
        // Each is a step of the history: undo takes the last back.
        let revision = try await session.library.read { try $0.album(named: "Book").revision }
        try await session.perform(.album(.rename("Book", to: "Photo book"), expecting: ["Book": revision]))
        _ = try await session.library.write { try $0.undo() }
        #expect(try names() == ["Lisbon", "Trip", "Book"])
    }

    @Test("a batch applies all its operations in one transaction, or none, naming the first refused")
    func batches() throws {
        let before = (try order("Trip"), try order("Book"))
        let failing: [TransferOperation] = [
            .move([.position(0, in: "Trip")], to: .into("Book")),
            .remove([.position(0, in: "Book")]),
            .move([.position(9, in: "Trip")], to: .into("Book")),
        ]
        #expect {
            try session.perform(batch: failing.map(LibraryOperation.items))
        } throws: { error in
            guard let refusal = error as? BatchRefusal else { return false }
            return refusal.index == 2 && refusal.description.hasPrefix("operation 3 (move) refused, nothing applied: position 10")
        }
        #expect(try order("Trip") == before.0 && order("Book") == before.1)

        // References in later operations see the state the earlier ones left.
        let changes = try session.perform(batch: [
            .items(.move([.position(0, in: "Trip")], to: .into("Book"))),
            .items(.remove([.position(0, in: "Trip")])),
        ])
        #expect(changes.count == 2)
        #expect(try order("Trip") == [photos[2], photos[3], photos[4]])
        #expect(try order("Book") == [photos[5], photos[6], photos[0]])
    }

    @Test("the change stream hears committed change sets, in order, not refusals or dry runs")
    func changeStream() async throws {
        let stream = try await session.changes(pollingInterval: 0.05)
        let moved = try await session.perform(.move([.position(0, in: "Trip")], to: .into("Book"))).changes
        _ = try? await session.perform(.remove([.position(99, in: "Trip")]))
        _ = try await session.perform(.remove([.position(0, in: "Trip")]), dryRun: true)
        let removed = try await session.perform(.remove([.position(0, in: "Trip")])).changes
        let heard = await first(2, of: stream)
        #expect(heard.map(\.operations) == [[moved], [removed]])
        #expect(heard.count == 2 && heard[1].sequence == heard[0].sequence + 1)
    }

    @Test("a commit by another connection reaches the change stream, with its change sets, in commit order")
    func externalChanges() async throws {
        let stream = try await session.changes(pollingInterval: 0.1)
        let other = try Library.open(at: fixture.folder.path("library.albums"))
        let theirs = try await other.write { writer in
            try writer.recordingOperation { try writer.createAlbum(named: "Elsewhere") }.1
        }
        let otherSession = TransferSession(library: other)
        let moved = try await otherSession.perform(.move([.position(2, in: "Trip")], to: .at(0, in: "Trip"))).changes
        let heard = await first(2, of: stream)
        #expect(heard.map(\.operations) == [[theirs], [moved]])
        #expect(heard.first?.changeSets.first?.albumEvents == [.created])
        try other.close()
    }

    @Test("sorting rewrites the manual order in one change set; placeholders stay last")
    func sort() throws {
        try session.library.write { writer in
            let names = ["IMG_10.jpg", "IMG_2.jpg", "b.png", "A.png", "IMG_1.jpg"]
            for (photo, name) in zip(photos[0..<5], names) {
                try writer.database.execute(sql: "UPDATE photo SET original_name = ?, captured_at = ? WHERE id = ?",
                    arguments: [name, name == "b.png" ? nil : "2026-0\(name.count % 9 + 1)-01T00:00:00", photo])
            }
            try writer.insertPlaceholders([testLoad("/in/late.jpg")], into: try writer.album(named: "Trip").id, at: 0)
        }
        let old = try session.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.id) }
        let changes = try session.library.write { try $0.sortAlbum("Trip", by: .name) }
        let new = try session.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.id) }
        let names = try session.library.read { reader in try new.map { try reader.item($0).photoID.map { try reader.photo($0).content.originalName } } }
        #expect(names == ["A.png", "b.png", "IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg", nil])
        #expect(changes.applied(to: old, inserting: { new[$0] }) == new)
        #expect(changes.revision == (try session.library.read { try $0.album(named: "Trip").revision }))

        try session.library.write { try $0.sortAlbum("Trip", by: .captureDate, ascending: false) }
        let dated = try session.library.read { reader in try reader.items(in: try reader.album(named: "Trip").id).map { try $0.photoID.map { try reader.photo($0).content.capturedAt?.sortKey } ?? nil } }
        #expect(dated.dropLast(2).map { $0! } == dated.dropLast(2).map { $0! }.sorted(by: >))
        #expect(dated.suffix(2) == [nil, nil])  // no date, then the placeholder

        let unchanged = try session.library.write { try $0.sortAlbum("Trip", by: .captureDate, ascending: false) }
        #expect(unchanged.isEmpty)
        #expect(try session.library.violations() == [])
    }

    @Test("sorting by capture date orders by the instant where a zone is recorded, by clock time otherwise; undated last; ties kept")
    func sortByCaptureDate() throws {
        // Tokyo 09:00 is 00:00 UTC and Paris 08:00 is 06:00 UTC; the zoneless 07:30s sort as clock times, then the undated one.
        let dates = ["2026-07-14T08:00:00+02:00", nil, "2026-07-14T07:30:00", "2026-07-14T09:00:00+09:00", "2026-07-14T07:30:00"]
        try session.library.write { writer in
            for (photo, date) in zip(photos[0..<5], dates) {
                try writer.database.execute(sql: "UPDATE photo SET captured_at = ? WHERE id = ?", arguments: [date, photo])
            }
        }
        try session.library.write { try $0.sortAlbum("Trip", by: .captureDate) }
        let order = try session.library.read { reader in
            try reader.items(in: try reader.album(named: "Trip").id).compactMap(\.photoID)
        }
        #expect(Array(order.prefix(5)) == [photos[3], photos[0], photos[2], photos[4], photos[1]])
    }

    @Test("locking and unlocking report the album's new revision")
    func lock() throws {
        let before = try session.library.read { try $0.album(named: "Book").revision }
        let locked = try session.perform(.album(.setLocked("Book", true)))
        #expect(locked.outcome == .changed(.lockAlbum) && locked.changes.map(\.revision) == [before + 1] && locked.changes.allSatisfy(\.isEmpty))
        #expect(throws: LibraryError.albumLocked(name: "Book")) { try session.library.write { try $0.sortAlbum("Book", by: .name) } }
        let again = try session.perform(.album(.setLocked("Book", true)))
        #expect(again.outcome == .noOp)
        #expect(try session.library.read { try $0.album(named: "Book").revision } == before + 1)
    }

    @Test("a refused move gives the same reason however it is asked: perform, proposal, batch, the writer's own method")
    func oneOrderOfChecks() throws {
        try session.library.write { writer in
            try writer.setAlbumLocked(try writer.album(named: "Trip").id, true)
            try writer.setAlbumLocked(try writer.album(named: "Book").id, true)
        }
        let move = TransferOperation.move([.position(0, in: "Trip")], to: .at(0, in: "Book"))
        let reason = LibraryError.albumLocked(name: "Book")
        #expect(throws: reason) { try session.perform(move) }
        #expect(try session.propose(move).verdict == .forbidden(reason))
        #expect(throws: BatchRefusal(index: 0, operation: .items(move), reason: reason)) { try session.perform(batch: [.items(move)]) }
        #expect(throws: reason) {
            try session.library.write { writer in
                let item = try writer.resolve(.position(0, in: "Trip"))
                try writer.moveItems([item.id], to: try writer.album(named: "Book").id, at: 0)
            }
        }
    }

    @Test("a move between albums writes each album's row for its counts once, however many items move")
    func albumRowsWrittenOnce() throws {
        // Three items, then one: the difference is the two items' own rows, nothing per item in the albums.
        func rows(_ count: Int) throws -> Int {
            try session.library.write(dryRun: true) { writer in
                try writer.rowsWritten {
                    try writer.perform(TransferOperation.move((0..<count).map { .position($0, in: "Trip") }, to: .at(0, in: "Book")))
                }
            }
        }
        #expect(try rows(3) - rows(1) == 2)
    }

    @Test("a transaction writes each album's row once: counts and revision together, at commit")
    func albumRowWrittenOncePerTransaction() throws {
        // One connection, so the temporary trigger sees every write.
        let fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        let session = TransferSession(library: fixture.library)
        let (trip, book) = try session.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            let book = try writer.createAlbum(named: "Book")
            try writer.insertPhotos(try writer.addTestPhotos(count: 5), into: trip.id)
            return (trip.id, book.id)
        }
        try session.library.write { writer in
            try writer.database.execute(sql: """
                CREATE TEMP TABLE album_written (album_id INTEGER NOT NULL);
                CREATE TEMP TRIGGER album_row_written AFTER UPDATE ON main.album BEGIN INSERT INTO album_written VALUES (new.id); END;
                """)
        }
        func writes() throws -> [AlbumID] {
            try session.library.read { reader in
                try AlbumID.fetchAll(reader.database, sql: "SELECT album_id FROM album_written ORDER BY album_id")
            }
        }
        // A batch of two moves between the albums, each line seeing the counts the one before left.
        _ = try session.perform(batch: [
            .items(TransferOperation.move([.position(0, in: "Trip"), .position(1, in: "Trip")], to: .at(0, in: "Book"))),
            .items(TransferOperation.move([.position(2, in: "Trip")], to: .at(2, in: "Book"))),
        ])
        let written = try writes()
        #expect(written == [trip, book], "\(written)")
        let (tripAfter, bookAfter) = try session.library.read { (try $0.album(named: "Trip"), try $0.album(named: "Book")) }
        #expect((tripAfter.itemCount, bookAfter.itemCount) == (2, 3))
        #expect(try session.library.read { try $0.invariantViolations() }.isEmpty)
    }
}

/// A list several threads may append to.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var values: [Element] { lock.withLock { storage } }
}
