import Foundation
import Testing

@testable import AlbumsPersistence

/// The change journal's entries: what a transaction says besides its
/// change sets (rights changed, photos added) survives the round trip, and
/// entries written before a flag existed read as they did.
@Suite("The change journal's flags")
struct ChangeJournalTests {
    static let rename: [[AlbumChangeSet]] = [[AlbumChangeSet(albumID: AlbumID(rawValue: 3), albumName: "Trip", revision: 2)]]

    @Test("rights and photos added, alone and together, with and without change sets, read back as written")
    func roundTrip() throws {
        for operations in [[], Self.rename] {
            for (rights, photos) in [(false, false), (true, false), (false, true), (true, true)] {
                let entry = try #require(ChangeJournal.decode(
                    ChangeJournal.encode(operations, rightsChanged: rights, addedPhotos: photos)))
                #expect(entry.operations == operations)
                #expect(entry.folders.isEmpty)
                #expect((entry.rightsChanged, entry.addedPhotos) == (rights, photos))
            }
        }
    }

    @Test("an entry of before the photos flag (rights as the number 1) reads the same; flags unknown are refused")
    func olderAndUnknown() throws {
        // One operation, no album; no folders; rights: the bytes an older albums wrote.
        let older = try #require(ChangeJournal.decode(Data([1, 0, 0, 1])))
        #expect(older.rightsChanged && !older.addedPhotos)
        #expect(ChangeJournal.encode([[]], rightsChanged: true) == Data([1, 0, 0, 1]))
        #expect(ChangeJournal.decode(Data([1, 0, 0, 4])) == nil)
        #expect(ChangeJournal.decode(Data([1, 0, 0, 0])) == nil)
    }

    @Test("the journal numbers every album event and folder event, so a new one is never left out")
    func everyEventIsNumbered() {
        #expect(Set(AlbumChangeSet.AlbumEvent.journalOrder) == Set(AlbumChangeSet.AlbumEvent.allCases))
        #expect(Set(FolderChange.Event.journalOrder).count == FolderChange.Event.journalOrder.count)
    }
}
