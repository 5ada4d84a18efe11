import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsPersistence

/// The one door for changes to the tree: an album or folder change is
/// checked with reads only, foresees exactly what its write records, and is
/// written only by the transaction that checked it, before anything else.
@Suite("Tree changes: checked with reads only, written as checked")
struct TreeChangeTests {
    let fixture: LibraryFixture
    let travel: Folder
    let lisbon: Album

    init() throws {
        fixture = try LibraryFixture()
        (travel, lisbon) = try fixture.library.write { writer in
            let travel = try writer.createFolder(named: "Travel", placement: .into(nil))
            let lisbon = try writer.createAlbum(named: "Lisbon", placement: .into(.id(travel.id)))
            try writer.insertPhotos(try writer.addTestPhotos(count: 3), into: lisbon.id)
            _ = try writer.createAlbum(named: "Book")
            return (try writer.folder(travel.id), try writer.album(lisbon.id))
        }
    }

    @Test("what a check foresees is what its write records, for every kind of tree change")
    func foreseenIsRecorded() throws {
        let cases: [(String, (LibraryWriter) throws -> TreeChange)] = [
            ("create album", { try $0.checkAlbumCreation(named: "Porto", placement: .at(0, in: .id(self.travel.id))) }),
            ("create folder", { try $0.checkFolderCreation(named: "2026", placement: .into(.id(self.travel.id))) }),
            ("rename album", { try $0.checkAlbumRename(self.lisbon.id, to: "Lisboa") }),
            ("rename folder", { try $0.checkFolderRename(self.travel.id, to: "Trips") }),
            ("move album", { try $0.checkAlbumMove(self.lisbon.id, to: .into(nil)) }),
            ("move folder", { try $0.checkFolderMove(self.travel.id, to: .position(1)) }),
            ("lock album", { try $0.checkAlbumLock(self.lisbon.id, true) }),
            ("unlock album", { try $0.checkAlbumLock(self.lisbon.id, false) }),
            ("lock folder", { try $0.checkFolderLock(self.travel.id, true) }),
            ("unlock folder", { try $0.checkFolderLock(self.travel.id, false) }),
            ("delete album", { try $0.checkAlbumDeletion(try $0.album(named: "Lisboa").id, force: false) }),
            ("dissolve folder", { try $0.checkFolderDeletion(self.travel.id, contents: .moveToParent, force: false) }),
        ]
        for (name, check) in cases {
            try fixture.library.write { writer in
                let change = try check(writer)
                #expect(!change.isNoOp, "\(name)")
                let (recorded, folders) = try writer.apply(change)
                #expect(recorded == change.foreseenChanges, "\(name)")
                #expect(folders == change.foreseenFolderChanges, "\(name)")
            }
        }
        #expect(try fixture.library.violations() == [])
    }

    @Test("a check in a read transaction writes nothing and foresees the new album's id")
    func checkReadsOnly() throws {
        let before = try fixture.library.read { try $0.tree().count }
        let change = try fixture.library.read { try $0.checkAlbumCreation(named: "Porto", placement: .into(nil)) }
        #expect(try fixture.library.read { try $0.tree().count } == before)
        let created = try fixture.library.write { try $0.createAlbum(named: "Porto", placement: .into(nil)) }
        #expect(change.createdAlbum?.id == created.id && change.createdAlbum?.revision == created.revision)
    }

    @Test("a change that changes nothing writes nothing: the same name, the same lock, the same place")
    func noOps() throws {
        let revision = try fixture.library.read { try $0.album(lisbon.id).revision }
        try fixture.library.write { writer in
            for change in [
                try writer.checkAlbumRename(self.lisbon.id, to: "Lisbon"), try writer.checkAlbumLock(self.lisbon.id, false),
                try writer.checkAlbumMove(self.lisbon.id, to: .position(0)), try writer.checkFolderRename(self.travel.id, to: "Travel"),
            ] {
                #expect(change.isNoOp)
                #expect(try writer.apply(change) == ([], []))
            }
        }
        #expect(try fixture.library.read { try $0.album(lisbon.id).revision } == revision)
    }

    @Test("a change is refused by another transaction, and after another write of its own: nothing is written")
    func writtenOnlyAsChecked() throws {
        let stale = try fixture.library.read { try $0.checkAlbumRename(lisbon.id, to: "Lisboa") }
        #expect(throws: LibraryError.self) { try fixture.library.write { try $0.apply(stale) } }
        #expect(throws: LibraryError.self) {
            try fixture.library.write { writer in
                let change = try writer.checkAlbumRename(self.lisbon.id, to: "Lisboa")
                try writer.setAlbumLocked(self.lisbon.id, true)
                try writer.apply(change)
            }
        }
        let album = try fixture.library.read { try $0.album(lisbon.id) }
        #expect(album.name == "Lisbon" && !album.isLocked)
    }
}
