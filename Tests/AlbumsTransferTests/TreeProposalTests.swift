import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Album and folder operations are proposed as drags are: the library's
/// check with reads only, foreseeing what the perform then records.
@Suite("Proposals of album and folder operations")
struct TreeProposalTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let photos: [PhotoID]

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        var photos: [PhotoID] = []
        try session.library.write { writer in
            photos = try writer.addTestPhotos(count: 6)
            let travel = try writer.createFolder(named: "Travel", placement: .into(nil))
            let lisbon = try writer.createAlbum(named: "Lisbon", placement: .into(.id(travel.id)))
            try writer.insertPhotos(Array(photos[0..<3]), into: lisbon.id)
            try writer.insertPhotos(Array(photos[3..<6]), into: try writer.createAlbum(named: "Book").id)
        }
        self.photos = photos
    }

    /// The proposal of `operation`, then its perform: the same verdict and changes.
    func proposeThenPerform(_ operation: LibraryOperation, sourceLocation: SourceLocation = #_sourceLocation) throws -> TransferResult {
        let proposal = try session.propose(operation)
        let result = try session.perform(operation)
        #expect(proposal.verdict == result.outcome.verdict, sourceLocation: sourceLocation)
        #expect(proposal.changes == result.changes, sourceLocation: sourceLocation)
        #expect(proposal.folderChanges == result.folderChanges, sourceLocation: sourceLocation)
        return result
    }

    @Test("a proposal takes no write lock: it answers while another connection holds one, and writes nothing")
    func noWriteLock() throws {
        let other = try Library.open(at: fixture.folder.path("library.albums"), options: Library.Options(busyTimeout: 0.05))
        try other.write { _ in
            // Another connection is writing: a proposal made by writing would wait, then fail as busy.
            let rename = try session.propose(.album(.rename("Book", to: "Photo book")))
            #expect(rename.verdict == .changed(.renameAlbum))
            let move = try session.propose(.folder(.move(.path("Travel"), to: .position(1))))
            #expect(move.verdict == .changed(.moveFolder))
            #expect(move.changes.isEmpty && move.folderChanges.map(\.events) == [[.moved]])
        }
        #expect(try session.library.read { try $0.albums().map(\.name) }.sorted() == ["Book", "Lisbon"])
    }

    @Test("a creation foresees the new album's id and revision, and the folder it enters")
    func creation() throws {
        let result = try proposeThenPerform(.album(.create(name: "Porto", placement: .into(.path("Travel")))))
        let porto = try session.library.read { try $0.album(named: "Porto") }
        #expect(result.changes.map(\.albumID) == [porto.id] && result.changes.first?.revision == porto.revision)
        #expect(result.folderChanges.map(\.events) == [[.rearranged]])
        let folder = try proposeThenPerform(.folder(.create(name: "2026", placement: .at(0, in: .path("Travel")))))
        #expect(folder.folderChanges.count == 2)
        // Ids are never given twice, even after a deletion of the newest row.
        _ = try proposeThenPerform(.album(.delete("Porto", force: false)))
        let again = try proposeThenPerform(.album(.create(name: "Porto")))
        #expect(again.changes.first.map(\.albumID.rawValue) ?? 0 > porto.id.rawValue)
    }

    @Test("rename, lock, cover, sort, move and delete foresee what they record; a no-op foresees nothing")
    func everyOperation() throws {
        _ = try proposeThenPerform(.album(.rename("Lisbon", to: "Lisboa")))
        _ = try proposeThenPerform(.album(.setLocked("Book", true)))
        _ = try proposeThenPerform(.album(.setLocked("Book", false)))
        _ = try proposeThenPerform(.album(.setCover("Book", to: .photo(photos[4], in: "Book"))))
        let sort = try proposeThenPerform(.album(.sort("Book", by: .name, ascending: false)))
        #expect(sort.outcome == .changed(.sortAlbum) && !(sort.changes.first?.moved.isEmpty ?? true))
        _ = try proposeThenPerform(.album(.move("Book", to: .into(.path("Travel")))))
        _ = try proposeThenPerform(.folder(.rename(.path("Travel"), to: "Trips")))
        _ = try proposeThenPerform(.folder(.setLocked(.path("Trips"), true)))
        let locked = try session.propose(.folder(.delete(.path("Trips"), contents: .deleteAlbums, force: false)))
        #expect(!locked.isAllowed)
        _ = try proposeThenPerform(.folder(.setLocked(.path("Trips"), false)))
        let unchanged = try proposeThenPerform(.album(.rename("Lisboa", to: "Lisboa")))
        #expect(unchanged.outcome == .noOp && unchanged.changes.isEmpty)
        // Deleting the folder with its albums: each album's items leave, each album and the folder go.
        let deletion = try proposeThenPerform(.folder(.delete(.path("Trips"), contents: .deleteAlbums, force: false)))
        #expect(deletion.changes.map(\.removed.count) == [3, 3])
        #expect(deletion.folderChanges.map(\.events) == [[.rearranged, .deleted]])
        #expect(try session.library.read { try $0.albums() }.isEmpty)
    }

    @Test("a folder dissolved into its parent foresees each child moving up")
    func dissolve() throws {
        _ = try proposeThenPerform(.folder(.create(name: "2026", placement: .into(.path("Travel")))))
        let result = try proposeThenPerform(.folder(.delete(.path("Travel"), contents: .moveToParent, force: false)))
        #expect(result.changes.map(\.albumEvents) == [[.moved]])
        #expect(Set(result.folderChanges.map(\.events)) == [[.deleted], [.moved]])
    }

    @Test("freezing foresees the photos it will hold, their new items unnamed until written")
    func freeze() throws {
        _ = try session.perform(.album(.createSmart(name: "All of Book", search: PhotoSearchRequest(album: "Book"))))
        let proposal = try session.propose(.album(.freeze("All of Book")))
        let result = try session.perform(.album(.freeze("All of Book")))
        #expect(proposal.verdict == result.outcome.verdict && result.outcome == .changed(.freezeAlbum))
        #expect(proposal.changes.map(\.inserted) == result.changes.map(\.inserted) && result.changes.first?.inserted.count == 3)
        #expect(proposal.changes.first?.insertedItems.allSatisfy { $0.rawValue == 0 } == true)
        #expect(result.changes.first?.insertedItems.allSatisfy { $0.rawValue != 0 } == true)
    }
}
