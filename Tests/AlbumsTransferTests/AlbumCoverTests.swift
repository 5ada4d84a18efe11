import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// An album's cover: its first photo until one is chosen; a chosen one
/// stays through arranging, leaves with its photo, and comes back with it
/// on undo. Folders show their albums' covers.
@Suite("Album covers")
struct AlbumCoverTests {
    let fixture: LibraryFixture
    let photos: [PhotoID]
    let trip: AlbumID, book: AlbumID
    var library: Library { fixture.library }

    /// Trip holds photos 0–5, Book photos 6–7.
    init() throws {
        fixture = try LibraryFixture()
        var photos: [PhotoID] = []
        var ids: [AlbumID] = []
        try fixture.library.write { writer in
            photos = try writer.addTestPhotos(count: 10)
            ids = [try writer.createAlbum(named: "Trip").id, try writer.createAlbum(named: "Book").id]
            try writer.insertPhotos(Array(photos[0..<6]), into: ids[0])
            try writer.insertPhotos(Array(photos[6..<8]), into: ids[1])
        }
        self.photos = photos
        (trip, book) = (ids[0], ids[1])
    }

    func cover(_ album: AlbumID) throws -> AlbumCovers.Cover? {
        try library.read { try $0.cover(of: try $0.album(album)) }
    }

    func perform(_ operation: TransferOperation) throws {
        _ = try library.write { try $0.perform(operation) }
    }

    @Test("an album shows its first photo, past placeholders, until a cover is chosen; an empty one shows none")
    func defaultCover() throws {
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[0], isChosen: false))
        let empty = try library.write { try $0.createAlbum(named: "Empty") }
        #expect(try cover(empty.id) == nil)
        try library.write { writer in
            _ = try writer.insertPlaceholders([testLoad("/in/a.jpg")], into: empty.id)
        }
        #expect(try cover(empty.id) == nil)
        try library.write { writer in _ = try writer.insertPhotos([photos[9]], into: empty.id) }
        #expect(try cover(empty.id) == AlbumCovers.Cover(photo: photos[9], isChosen: false))
        try perform(.move([.position(0, in: .id(trip))], to: .at(5, in: .id(trip))))
        #expect(try cover(trip)?.photo == photos[1], "the first photo stands for it, whichever it is")
    }

    @Test("a chosen cover stays through moves inside the album, sorts and swaps, and a copy elsewhere")
    func coverStaysThroughArranging() throws {
        try library.write { try $0.setAlbumCover(trip, to: photos[3]) }
        try perform(.move([.position(3, in: .id(trip))], to: .at(0, in: .id(trip))))
        try perform(.swap(.position(0, in: .id(trip)), .position(5, in: .id(trip))))
        _ = try library.write { try $0.sortAlbum(.id(trip), by: .importTime, ascending: false) }
        try perform(.copy([.photo(photos[3], in: .id(trip))], to: .into(.id(book))))
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[3], isChosen: true))
        #expect(try cover(book)?.photo == photos[6], "a copy is no cover of the album it enters")
        #expect(try library.violations() == [])
    }

    @Test("a cover clears when its photo is removed or moved to another album; undo brings it back, redo clears it again")
    func coverLeavesWithItsPhoto() throws {
        try library.write { try $0.setAlbumCover(trip, to: photos[2]) }
        try perform(.remove([.position(2, in: .id(trip))]))
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[0], isChosen: false))
        _ = try library.write { try $0.undo() }
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[2], isChosen: true))
        _ = try library.write { try $0.redo() }
        #expect(try cover(trip)?.isChosen == false)
        _ = try library.write { try $0.undo() }

        try perform(.move([.photo(photos[2], in: .id(trip))], to: .into(.id(book))))
        #expect(try cover(trip)?.isChosen == false)
        #expect(try cover(book)?.isChosen == false, "the photo does not carry its cover into the album it enters")
        _ = try library.write { try $0.undo() }
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[2], isChosen: true))
        #expect(try library.violations() == [])
    }

    @Test("choosing a cover is an entry of the history with a change set; deleting the album and undoing keeps it")
    func coverHistory() throws {
        let result = try library.write { try $0.perform(AlbumOperation.setCover(.named("Trip"), to: .position(4, in: .named("Trip")))) }
        #expect(result.outcome == .changed(.setAlbumCover))
        #expect(result.changes.map(\.albumEvents) == [[.coverChanged]])
        let entry = try #require(try library.read { try $0.history(limit: 1).first })
        #expect(entry.description == "use photo id:\(photos[4]) as the cover of album 'Trip'")
        let again = try library.write { try $0.perform(AlbumOperation.setCover(.named("Trip"), to: .photo(photos[4], in: nil))) }
        #expect(again.outcome == .noOp)

        _ = try library.write { try $0.perform(AlbumOperation.delete(.named("Trip"), force: false)) }
        let undone = try library.write { try $0.undo() }
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[4], isChosen: true))
        #expect(undone.changes.first { $0.albumID == trip }?.albumEvents == [.created])

        let back = try library.write { try $0.perform(AlbumOperation.setCover(.named("Trip"), to: nil)) }
        #expect(back.changes.map(\.albumEvents) == [[.coverChanged]])
        #expect(try cover(trip)?.isChosen == false)
        let undoneChoice = try library.write { try $0.undo() }
        #expect(undoneChoice.changes.map(\.albumEvents) == [[.coverChanged]])
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[4], isChosen: true))
    }

    @Test("a cover must be a photo of the album; a placeholder is none; a locked album takes one")
    func refusals() throws {
        #expect(throws: LibraryError.photoNotInAlbum(photos[6], album: "Trip")) {
            try library.write { try $0.perform(AlbumOperation.setCover(.named("Trip"), to: .photo(photos[6], in: nil))) }
        }
        #expect(throws: LibraryError.photoNotInAlbum(PhotoID(rawValue: 999), album: "Trip")) {
            try library.write { try $0.setAlbumCover(trip, to: PhotoID(rawValue: 999)) }
        }
        let placeholder = try library.write { try $0.insertPlaceholders([testLoad("/in/b.jpg")], into: trip, at: 0) }
        #expect(throws: LibraryError.placeholderNotAllowed(.position(0, in: .named("Trip")))) {
            try library.write { try $0.perform(AlbumOperation.setCover(.named("Trip"), to: .position(0, in: .named("Trip")))) }
        }
        try library.write { try $0.deletePlaceholders(placeholder) }
        try library.write { try $0.setAlbumLocked(trip, true) }
        try library.write { try $0.setAlbumCover(trip, to: photos[5]) }
        #expect(try cover(trip)?.photo == photos[5])
    }

    @Test("a batch line chooses a cover, or gives the album its first photo back")
    func batchLines() throws {
        let lines = """
            {"op": "set_album_cover", "album": "Trip", "photo": "Trip:2"}
            {"op": "set_album_cover", "album": "Book", "photo": "id:\(photos[7])"}
            """
        _ = try library.write { try $0.perform(batch: try TransferBatchFormat.operations(fromJSONLines: lines)) }
        #expect(try cover(trip) == AlbumCovers.Cover(photo: photos[1], isChosen: true))
        #expect(try cover(book) == AlbumCovers.Cover(photo: photos[7], isChosen: true))
        _ = try library.write { try $0.perform(batch: try TransferBatchFormat.operations(fromJSONLines: #"{"op": "set_album_cover", "album": "Trip", "photo": null}"#)) }
        #expect(try cover(trip)?.isChosen == false)
        #expect(throws: TransferBatchFormat.FormatError.self) {
            try TransferBatchFormat.operations(fromJSONLines: #"{"op": "set_album_cover", "album": "Trip", "photo": "Trip:1-3"}"#)
        }
    }

    @Test("a folder shows the covers of its first four albums, its folders' included, in the tree's order")
    func folderCovers() throws {
        var albums: [AlbumID] = []
        try library.write { writer in
            let travel = try writer.createFolder(named: "Travel", placement: .into(nil))
            let inner = try writer.createFolder(named: "2026", placement: .into(.id(travel.id)))
            for (index, name) in ["A", "B", "C", "D", "E"].enumerated() {
                let album = try writer.createAlbum(named: name, placement: .into(.id(index < 2 ? inner.id : travel.id)))
                _ = try writer.insertPhotos([photos[index]], into: album.id)
                albums.append(album.id)
            }
            try writer.createAlbum(named: "Empty", placement: .into(.id(inner.id)))
            try writer.setAlbumCover(albums[1], to: photos[1])
        }
        let (tree, covers) = try library.read { reader in
            let tree = try reader.tree()
            return (tree, try reader.covers(in: tree))
        }
        let folders = Dictionary(uniqueKeysWithValues: tree.compactMap { entry -> (String, FolderID)? in
            if case .folder(let folder) = entry.node { (folder.name, folder.id) } else { nil }
        })
        #expect(covers.folders[folders["Travel"]!] == Array(photos[0..<4]))
        #expect(covers.folders[folders["2026"]!] == Array(photos[0..<2]))
        #expect(covers.albums[albums[1]] == AlbumCovers.Cover(photo: photos[1], isChosen: true))
        #expect(covers.albums[trip] == AlbumCovers.Cover(photo: photos[0], isChosen: false))
    }

    @Test("covers follow rights: a viewer cannot choose one, and a folder shows only albums its asker sees")
    func rights() throws {
        var gran: Person?
        try library.write { writer in
            let family = try writer.createFolder(named: "Family", placement: .into(nil))
            let hidden = try writer.createAlbum(named: "Hidden", placement: .into(.id(family.id)))
            let shared = try writer.createAlbum(named: "Shared", placement: .into(.id(family.id)))
            _ = try writer.insertPhotos([photos[8]], into: hidden.id)
            _ = try writer.insertPhotos([photos[9]], into: shared.id)
            gran = try writer.addPerson(named: "gran", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.viewer, of: gran!.id, on: .album(shared.id))
            try writer.setRole(.viewer, of: gran!.id, on: .album(trip))
        }
        let session = TransferSession(library: library, acting: .person(try #require(gran)))
        #expect(throws: LibraryError.self) {
            try session.perform(.album(.setCover(.named("Trip"), to: .position(1, in: .named("Trip")))))
        }
        #expect(throws: LibraryError.albumNotFound(.named("Hidden"))) {
            try session.perform(.album(.setCover(.named("Hidden"), to: .photo(photos[8], in: nil))))
        }
        let seen = try session.read { reader in try reader.covers(in: try reader.tree()) }
        #expect(Set(seen.albums.values.map(\.photo)) == [photos[0], photos[9]])
        #expect(seen.folders.values.allSatisfy { !$0.contains(photos[8]) })
    }

    @Test("check finds a cover the album does not hold, and repair gives the album its first photo back")
    func strayCover() throws {
        try library.write { writer in
            try writer.database.execute(sql: "UPDATE album SET cover_photo_id = ? WHERE id = ?", arguments: [photos[9].rawValue, trip.rawValue])
        }
        #expect(try library.violations().map(\.code) == ["cover_not_in_album"])
        _ = try library.write { try $0.repairInvariants() }
        #expect(try library.violations() == [])
        #expect(try cover(trip)?.isChosen == false)
    }
}
