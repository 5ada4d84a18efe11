import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import GRDB
import Testing

@testable import AlbumsTransfer

/// How many of an album's items are videos, which the page shows beside
/// its photos ("10 photos, 2 videos"): kept through every write that
/// changes what an album holds, and counted for a smart album from what
/// it shows.
@Suite("Albums count their videos")
struct AlbumVideoCountTests {
    let fixture: LibraryFixture
    let stills: [PhotoID], clips: [PhotoID]
    let trip: AlbumID, book: AlbumID
    var library: Library { fixture.library }

    /// Trip holds two stills and three clips; Book one still.
    init() throws {
        fixture = try LibraryFixture()
        var made: ([PhotoID], [PhotoID], AlbumID, AlbumID)?
        try fixture.library.write { writer in
            let stills = try writer.addTestPhotos(count: 4)
            let clips = try writer.addTestPhotos(count: 4, mediaType: "video/mp4")
            let trip = try writer.createAlbum(named: "Trip").id
            let book = try writer.createAlbum(named: "Book").id
            try writer.insertPhotos([stills[0], clips[0], stills[1], clips[1], clips[2]], into: trip)
            try writer.insertPhotos([stills[2]], into: book)
            made = (stills, clips, trip, book)
        }
        let (stills, clips, trip, book) = try #require(made)
        (self.stills, self.clips, self.trip, self.book) = (stills, clips, trip, book)
    }

    /// Each album's items and videos, as the album list reads them, after checking the file.
    func counts() throws -> [String] {
        #expect(try library.violations() == [])
        return try library.read { reader in
            try reader.countingSmartAlbums(try reader.tree()).compactMap { entry in
                guard case .album(let album) = entry.node else { return nil }
                return "\(album.name) \(album.itemCount)/\(album.videoCount)"
            }
        }
    }

    func perform(_ operation: TransferOperation) throws {
        _ = try library.write { try $0.perform(operation) }
    }

    @Test("moves, copies, removals and swaps between albums carry their videos' count, and undo and redo bring each back")
    func transfers() throws {
        #expect(try counts() == ["Trip 5/3", "Book 1/0"])
        try perform(.move([.photo(clips[0], in: .id(trip))], to: .into(.id(book))))
        #expect(try counts() == ["Trip 4/2", "Book 2/1"])
        try perform(.copy([.photo(clips[1], in: .id(trip)), .photo(stills[1], in: .id(trip))], to: .at(0, in: .id(book))))
        #expect(try counts() == ["Trip 4/2", "Book 4/2"])
        try perform(.remove([.photo(clips[2], in: .id(trip))]))
        #expect(try counts() == ["Trip 3/1", "Book 4/2"])
        try perform(.move([.position(0, in: .id(trip))], to: .at(2, in: .id(trip))))
        #expect(try counts() == ["Trip 3/1", "Book 4/2"], "a move within an album changes no count")
        // Undone newest first: the move within Trip, the removal, the copy, the move.
        for expected in [["Trip 3/1", "Book 4/2"], ["Trip 4/2", "Book 4/2"], ["Trip 4/2", "Book 2/1"], ["Trip 5/3", "Book 1/0"]] {
            _ = try library.write { try $0.undo() }
            #expect(try counts() == expected)
        }
        for _ in 0..<4 { _ = try library.write { try $0.redo() } }
        #expect(try counts() == ["Trip 3/1", "Book 4/2"])
    }

    @Test("a load committed into its placeholder counts once it is a video; a deleted album and its undo keep the count")
    func placeholdersAndAlbums() throws {
        let placeholders = try library.write { try $0.insertPlaceholders([testLoad("/in/clip.mp4"), testLoad("/in/still.jpg")], into: book) }
        #expect(try counts() == ["Trip 5/3", "Book 3/0"])
        try library.write { writer in
            try writer.commitPlaceholder(placeholders[0], with: clips[3])
            try writer.commitPlaceholder(placeholders[1], with: stills[3])
        }
        #expect(try counts() == ["Trip 5/3", "Book 3/1"])
        _ = try library.write { try $0.perform(AlbumOperation.delete(.id(trip), force: true)) }
        #expect(try counts() == ["Book 3/1"])
        _ = try library.write { try $0.undo() }
        #expect(try counts().sorted() == ["Book 3/1", "Trip 5/3"])
    }

    @Test("a photo whose facts, read again, make it a video counts as one in every album holding it")
    func kindChanges() throws {
        try library.write { writer in
            try writer.database.execute(sql: "UPDATE photo SET media_type = 'video/quicktime' WHERE id = ?", arguments: [stills[0]])
        }
        #expect(try counts() == ["Trip 5/4", "Book 1/0"])
        try library.write { writer in
            try writer.database.execute(sql: "UPDATE photo SET media_type = 'image/heic' WHERE id IN (?, ?)", arguments: [stills[0], clips[0]])
        }
        #expect(try counts() == ["Trip 5/2", "Book 1/0"])
    }

    @Test("a smart album counts the videos it shows, whatever its format asks; frozen, it holds them")
    func smartAlbums() throws {
        try library.write { writer in
            var everything = PhotoSearch()
            everything.membership = .inAlbum(trip)
            try writer.createSmartAlbum(named: "All of Trip", placement: .into(nil), search: everything)
            for format in ["video", "mp4", "jpeg", "photo"] {
                var search = everything
                search.format = format
                try writer.createSmartAlbum(named: "Trip \(format)", placement: .into(nil), search: search)
            }
        }
        #expect(try counts() == ["Trip 5/3", "Book 1/0", "All of Trip 5/3", "Trip video 3/3", "Trip mp4 3/3", "Trip jpeg 2/0", "Trip photo 2/0"])
        try library.write { writer in _ = try writer.freezeSmartAlbum(try writer.album(named: "All of Trip").id) }
        #expect(try counts()[2] == "All of Trip 5/3")
    }

    @Test("a smart album of every photo counts the library's videos, in albums or not; a person counts only those of the albums they see")
    func everyPhoto() throws {
        let gran = try library.write { writer in
            try writer.createSmartAlbum(named: "Everything", placement: .into(nil), search: PhotoSearch())
            let gran = try writer.addPerson(named: "gran", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.viewer, of: gran.id, on: .album(book))
            try writer.setRole(.viewer, of: gran.id, on: .album(try writer.album(named: "Everything").id))
            return gran
        }
        // Four stills and four clips: one of each in no album.
        #expect(try counts().last == "Everything 8/4")
        try perform(.copy([.photo(clips[0], in: .id(trip))], to: .into(.id(book))))
        let seen = try library.read { reader in
            reader.act(as: .person(gran))
            return try reader.countingSmartAlbums(try reader.tree()).compactMap { entry -> String? in
                guard case .album(let album) = entry.node else { return nil }
                return "\(album.name) \(album.itemCount)/\(album.videoCount)"
            }
        }
        #expect(seen == ["Book 2/1", "Everything 2/1"], "gran sees Book's still and the clip copied in, nothing of Trip")
        // The timeline's months say the same: down the time index for the holder, from a person's own few photos for gran.
        func months(as principal: Principal, _ change: (inout PhotoSearch) -> Void = { _ in }) throws -> [String] {
            var search = PhotoSearch()
            change(&search)
            return try library.read { reader in
                reader.act(as: principal)
                return try reader.photoMonths(matching: search).map { "'\($0.month)' \($0.count)/\($0.videos)" }
            }
        }
        #expect(try months(as: .holder) == ["'' 8/4"])
        #expect(try months(as: .person(gran)) == ["'' 2/1"])
        #expect(try months(as: .holder) { $0.format = "video" } == ["'' 4/4"])
        #expect(try months(as: .holder) { $0.membership = .inAlbum(trip) } == ["'' 5/3"])
    }
}
