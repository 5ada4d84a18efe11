import AlbumsTestSupport
import Foundation
import GRDB
import Testing

@testable import AlbumsPersistence

@Suite("Folders")
struct FolderTests {
    /// Travel/2026/Lisbon, Travel/Porto, Book: a small tree.
    func makeTree() throws -> LibraryFixture {
        let fixture = try LibraryFixture()
        try fixture.library.write { writer in
            try writer.createAlbum(named: "Book")
            let travel = try writer.createFolder(named: "Travel", placement: .at(0, in: nil))
            let year = try writer.createFolder(named: "2026", placement: .into(.id(travel.id)))
            try writer.createAlbum(named: "Lisbon", placement: .into(.id(year.id)))
            try writer.createAlbum(named: "Porto", placement: .into(.path("Travel")))
        }
        return fixture
    }

    func outline(_ library: Library) throws -> [String] {
        try library.read { reader in
            try reader.tree().map { entry in
                let mark = if case .folder = entry.node { "/" } else { "" }
                return String(repeating: "  ", count: entry.depth) + "\(entry.node.index + 1) " + entry.node.name + mark
            }
        }
    }

    @Test("a tree is read in order, depth first, with each node's place among its siblings")
    func treeOrder() throws {
        let fixture = try makeTree()
        let library = fixture.library
        #expect(try outline(library) == ["1 Travel/", "  1 2026/", "    1 Lisbon", "  2 Porto", "2 Book"])
        #expect(try library.read { try $0.albums().map(\.name) } == ["Lisbon", "Porto", "Book"])
        let lisbon = try library.read { try $0.album(named: "Lisbon") }
        #expect(lisbon.index == 0)
        #expect(try library.read { try $0.path(of: lisbon) } == "Travel/2026/Lisbon")
        #expect(try library.read { try $0.album(named: "Travel/2026/Lisbon").id } == lisbon.id)
        #expect(try library.read { try $0.folder(.path("Travel/2026")).name } == "2026")
        #expect(try library.read { try $0.contents(of: try $0.folder(.path("Travel")).id) } == (2, 1))
        #expect(throws: LibraryError.albumNotFound(.named("Travel/Lisbon"))) { try library.read { try $0.album(named: "Travel/Lisbon") } }
        #expect(throws: LibraryError.folderNotFound(.path("Travel/2027"))) { try library.read { try $0.folder(.path("Travel/2027")) } }
    }

    @Test("moves land into a folder, at a place, before or after a node, or at the top level")
    func moves() throws {
        let fixture = try makeTree()
        let library = fixture.library
        try library.write { writer in
            try writer.moveAlbum(try writer.album(named: "Book").id, to: .before(.named("Lisbon")))
            try writer.moveAlbum(try writer.album(named: "Porto").id, to: .after(.named("Travel")))
            try writer.moveFolder(try writer.folder(.path("Travel/2026")).id, to: .into(nil))
            try writer.moveAlbum(try writer.album(named: "Lisbon").id, to: .at(0, in: .path("Travel")))
        }
        #expect(try outline(library) == ["1 Travel/", "  1 Lisbon", "2 Porto", "3 2026/", "  1 Book"])
        #expect(try library.violations() == [])
    }

    @Test("refused, writing nothing: into itself, a taken name, a locked folder, a place out of range")
    func refusals() throws {
        let fixture = try makeTree()
        let library = fixture.library
        let before = try outline(library)
        #expect(throws: LibraryError.folderIntoItself(name: "Travel", destination: "Travel/2026")) {
            try library.write { try $0.moveFolder(try $0.folder(.path("Travel")).id, to: .into(.path("Travel/2026"))) }
        }
        #expect(throws: LibraryError.folderIntoItself(name: "Travel", destination: "Travel")) {
            try library.write { try $0.moveFolder(try $0.folder(.path("Travel")).id, to: .into(.path("Travel"))) }
        }
        #expect(throws: LibraryError.nameTakenInFolder("Porto", folder: "Travel")) {
            try library.write { try $0.createFolder(named: "Porto", placement: .into(.path("Travel"))) }
        }
        #expect(throws: LibraryError.nameTakenInFolder("2026", folder: nil)) {
            try library.write { writer in
                try writer.createAlbum(named: "2026")
                try writer.moveFolder(try writer.folder(.path("Travel/2026")).id, to: .into(nil))
            }
        }
        #expect(throws: LibraryError.invalidFolderName("a/b", reason: "a folder's name cannot contain '/': it separates the folders of a path")) {
            try library.write { try $0.createFolder(named: "a/b", placement: .into(nil)) }
        }
        #expect(throws: LibraryError.albumIndexOutOfRange(index: 5, valid: 0..<3, folder: "Travel")) {
            try library.write { try $0.createAlbum(named: "Faro", placement: .at(5, in: .path("Travel"))) }
        }
        try library.write { try $0.setFolderLocked(try $0.folder(.path("Travel")).id, true) }
        #expect(throws: LibraryError.folderLocked(name: "Travel")) {
            try library.write { try $0.moveAlbum(try $0.album(named: "Book").id, to: .into(.path("Travel"))) }
        }
        #expect(throws: LibraryError.folderLocked(name: "Travel")) {
            try library.write { try $0.moveAlbum(try $0.album(named: "Porto").id, to: .into(nil)) }
        }
        #expect(throws: LibraryError.folderLocked(name: "Travel")) {
            try library.write { try $0.deleteAlbum(try $0.album(named: "Porto").id) }
        }
        // Inside a locked folder, what is in a folder below it still moves.
        try library.write { try $0.createAlbum(named: "Faro", placement: .into(.path("Travel/2026"))) }
        #expect(try outline(library) == ["1 Travel/", "  1 2026/", "    1 Lisbon", "    2 Faro", "  2 Porto", "2 Book"])
        #expect(before.count == 5)
    }

    @Test("deleting a folder: refused with contents, its contents moved up in its place, or deleted with their albums (photos kept)")
    func deletion() throws {
        let fixture = try makeTree()
        let library = fixture.library
        let photos = try library.write { writer in
            let photos = try writer.addTestPhotos(count: 3)
            try writer.insertPhotos(photos, into: try writer.album(named: "Lisbon").id)
            return photos
        }
        #expect(throws: LibraryError.folderNotEmpty(name: "Travel", albums: 2, folders: 1)) {
            try library.write { try $0.deleteFolder(try $0.folder(.path("Travel")).id, contents: .refuse) }
        }
        try library.write { try $0.deleteFolder(try $0.folder(.path("Travel")).id, contents: .moveToParent) }
        #expect(try outline(library) == ["1 2026/", "  1 Lisbon", "2 Porto", "3 Book"])
        try library.write { try $0.deleteFolder(try $0.folder(.path("2026")).id, contents: .deleteAlbums) }
        #expect(try outline(library) == ["1 Porto", "2 Book"])
        #expect(try library.read { reader in try photos.map { try reader.photo($0).id } } == photos)
        _ = try library.write { try $0.undo() }
        #expect(try outline(library) == ["1 2026/", "  1 Lisbon", "2 Porto", "3 Book"])
        #expect(try library.photoOrder(of: try library.read { try $0.album(named: "Lisbon").id }) == photos)
        _ = try library.write { try $0.undo() }
        #expect(try outline(library) == ["1 Travel/", "  1 2026/", "    1 Lisbon", "  2 Porto", "2 Book"])
        _ = try library.write { try $0.redo() }
        #expect(try outline(library) == ["1 2026/", "  1 Lisbon", "2 Porto", "3 Book"])
        #expect(try library.violations() == [])
    }

    @Test("a move writes the rows it moves, however many siblings; many inserts at one place respace the keys and keep the order")
    func keys() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { writer in
            let travel = try writer.createFolder(named: "Travel", placement: .into(nil))
            for number in 0..<300 { try writer.createAlbum(named: "A\(number)", placement: .into(.id(travel.id))) }
        }
        let rows = try library.write { writer in
            try writer.rowsWritten { try writer.moveAlbum(try writer.album(named: "A299").id, to: .at(150, in: .path("Travel"))) }
        }
        // The album's row; the revisions of the album and the folder; the journal and history rows.
        #expect(rows <= 6, "\(rows) rows")
        try library.write { writer in
            for number in 0..<200 { try writer.createFolder(named: "F\(number)", placement: .at(1, in: .path("Travel"))) }
        }
        let names = try library.read { try $0.tree().filter { $0.depth == 1 }.map(\.node.name) }
        #expect(names.prefix(3) == ["A0", "F199", "F198"])
        #expect(names.count == 500)
        #expect(try library.violations() == [])
    }

    @Test("check finds a folder inside itself and keys shared by an album and a folder; repair mends them, keeping the order")
    func checkAndRepair() throws {
        let fixture = try makeTree()
        let library = fixture.library
        try library.write { writer in
            // Damage only a crash in another program could leave.
            try writer.database.execute(sql: "UPDATE folder SET parent_id = (SELECT id FROM folder WHERE name = '2026') WHERE name = 'Travel'")
            try writer.database.execute(sql: "UPDATE folder SET order_key = (SELECT order_key FROM album WHERE name = 'Book') WHERE name = '2026'")
        }
        let codes = try library.violations().map(\.code).sorted()
        #expect(codes == ["folder_cycle", "folder_cycle"])
        let repairs = try library.write { try $0.repairInvariants() }
        #expect(repairs.contains { $0.contains("inside itself") })
        #expect(try library.violations() == [])
        #expect(try outline(library).first == "1 Book")
        // A folder and an album of one parent on one key: read folder first, and laid out so.
        try library.write { writer in
            try writer.database.execute(sql: "UPDATE folder SET order_key = (SELECT order_key FROM album WHERE name = 'Book') WHERE name = 'Travel'")
        }
        #expect(try library.violations().map(\.code) == ["sibling_key_shared"])
        let order = try outline(library)
        #expect(order.prefix(2) == ["1 Travel/", "  1 2026/"])
        _ = try library.write { try $0.repairInvariants() }
        #expect(try library.violations() == [])
        #expect(try outline(library) == order)
    }

    @Test("a change to the tree reaches watchers with what it did to each folder, through the journal")
    func watchers() async throws {
        let fixture = try makeTree()
        let library = fixture.library
        let stream = try await library.changes()
        try await library.write { writer in
            try writer.renameFolder(try writer.folder(.path("Travel")).id, to: "Trips")
            try writer.moveAlbum(try writer.album(named: "Book").id, to: .into(.path("Trips/2026")))
        }
        let heard = try #require(await first(1, of: stream).first)
        #expect(heard.folderChanges.map(\.name) == ["Trips", "2026"])
        #expect(heard.folderChanges.map(\.events) == [[.renamed], [.rearranged]])
        #expect(heard.changeSets.map(\.albumEvents) == [[.moved]])
    }
}
