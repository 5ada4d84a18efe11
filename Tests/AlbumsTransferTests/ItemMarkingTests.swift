import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Words and marks on items (a title, a caption, a favourite, a rating,
/// keywords) and an album's description: checked, written as one undoable
/// entry, seen as updates in change sets, carried by copies, and an
/// editor's to write.
@Suite("Words and marks")
struct ItemMarkingTests {
    let fixture: LibraryFixture
    let photos: [PhotoID]
    let trip: AlbumID, book: AlbumID
    var library: Library { fixture.library }

    /// Trip holds photos 0–4, Book photo 5.
    init() throws {
        fixture = try LibraryFixture()
        var photos: [PhotoID] = []
        var ids: [AlbumID] = []
        try fixture.library.write { writer in
            photos = try writer.addTestPhotos(count: 8)
            ids = [try writer.createAlbum(named: "Trip").id, try writer.createAlbum(named: "Book").id]
            try writer.insertPhotos(Array(photos[0..<5]), into: ids[0])
            try writer.insertPhotos([photos[5]], into: ids[1])
        }
        self.photos = photos
        (trip, book) = (ids[0], ids[1])
    }

    func edit(_ change: (inout ItemMarksEdit) -> Void) -> ItemMarksEdit {
        var edit = ItemMarksEdit()
        change(&edit)
        return edit
    }

    @discardableResult
    func mark(_ items: [ItemReference], _ change: (inout ItemMarksEdit) -> Void) throws -> TransferResult {
        let marking = ItemMarking(items: items, edit: edit(change))
        return try library.write { try $0.perform(.mark(marking)) }
    }

    func marks(at index: Int, in album: AlbumID) throws -> ItemMarks {
        try library.read { try $0.marks(of: try $0.item(at: index, in: album).id) }
    }

    @Test("marking writes what it names and keeps the rest; each item changed is an update of its album's change set")
    func markingWrites() throws {
        let result = try mark([.position(1, in: .id(trip)), .position(3, in: .id(trip))]) {
            $0.caption = .set("  At the harbour\n  ")
            $0.isFavorite = .set(true)
            $0.rating = .set(.stars(4))
            $0.addedKeywords = ["family", "Porto", "FAMILY", " porto "]
        }
        #expect(result.outcome == .marked)
        let change = try #require(result.changes.first)
        #expect(result.changes.count == 1 && change.updated == [1, 3] && change.moved.isEmpty && change.inserted.isEmpty)
        let expected = ItemMarks(caption: "At the harbour", isFavorite: true, rating: .stars(4), keywords: ["family", "Porto"])
        #expect(try marks(at: 1, in: trip) == expected, "trimmed, and each keyword once whatever its case")
        #expect(try marks(at: 0, in: trip) == .none)

        let second = try mark([.position(1, in: .id(trip))]) {
            $0.title = .set("Harbour")
            $0.removedKeywords = ["PORTO"]
            $0.addedKeywords = ["boats"]
        }
        #expect(second.changes.first?.updated == [1])
        var after = expected
        after.title = "Harbour"
        after.keywords = ["family", "boats"]
        #expect(try marks(at: 1, in: trip) == after, "what the edit does not name stays")

        let again = try mark([.position(1, in: .id(trip))]) { $0.title = .set("Harbour") }
        #expect(again.outcome == .noOp && again.changes.isEmpty, "an item that carries it already changes nothing")
        let cleared = try mark([.position(1, in: .id(trip))]) {
            $0.title = .set("   ")
            $0.rating = .set(nil)
        }
        #expect(cleared.outcome == .marked)
        #expect(try marks(at: 1, in: trip).title == nil && marks(at: 1, in: trip).rating == nil, "white space clears a text")
    }

    @Test("words albums refuses: control characters, too long, both added and removed, nothing named; nothing is written")
    func refusals() throws {
        func refusal(_ change: (inout ItemMarksEdit) -> Void) -> String? {
            do {
                try mark([.position(0, in: .id(trip))], change)
                return nil
            } catch let error as LibraryError {
                return error.code
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal { $0.caption = .set("tab\tand\nlines are fine") } == nil)
        #expect(refusal { $0.caption = .set("a NUL\u{0}") } == "invalid_words")
        #expect(refusal { $0.title = .set("two\nlines") } == "invalid_words", "a title is one line")
        #expect(refusal { $0.title = .set("\u{202E}reversed") } == "invalid_words", "no bidirectional controls in a title")
        #expect(refusal { $0.caption = .set("שלום\u{200F} עולם") } == nil, "a caption keeps the marks right-to-left text needs")
        #expect(refusal { $0.caption = .set(String(repeating: "é", count: ItemMarksEdit.captionLimit + 1)) } == "invalid_words")
        #expect(refusal { $0.addedKeywords = [""] } == "invalid_words")
        #expect(refusal { $0.addedKeywords = ["Beach"]; $0.removedKeywords = ["beach"] } == "invalid_words")
        #expect(refusal { $0.addedKeywords = (0...ItemMarksEdit.keywordCountLimit).map { "k\($0)" } } == "invalid_words")
        #expect(refusal { _ in } == "invalid_words", "an edit that names nothing")
        #expect(try marks(at: 0, in: trip) == ItemMarks(caption: "שלום\u{200F} עולם"))
        #expect(ItemRating("rejected") == .rejected && ItemRating("5") == .stars(5))
        for text in ["0", "6", "٣", "５", "-1", "", "three", "4.0"] { #expect(ItemRating(text) == nil, "\(text)") }
    }

    @Test("undo takes marks back and redo writes them again, each as an update, never a move")
    func undoAndRedo() throws {
        try mark([.position(2, in: .id(trip))]) { $0.title = .set("First") }
        try mark([.position(2, in: .id(trip))]) {
            $0.title = .set("Second")
            $0.isFavorite = .set(true)
        }
        let undone = try library.write { try $0.undo() }
        let change = try #require(undone.changes.first)
        #expect(change.updated == [2] && change.moved.isEmpty, "\(change)")
        #expect(try marks(at: 2, in: trip) == ItemMarks(title: "First"))
        _ = try library.write { try $0.undo() }
        #expect(try marks(at: 2, in: trip) == .none)
        _ = try library.write { try $0.redo() }
        _ = try library.write { try $0.redo() }
        #expect(try marks(at: 2, in: trip) == ItemMarks(title: "Second", isFavorite: true))
        #expect(try library.violations().isEmpty)
    }

    @Test("a copy takes its item's marks along, a move keeps them, and a removal undone brings them back")
    func marksTravelWithItems() throws {
        try mark([.position(0, in: .id(trip))]) {
            $0.caption = .set("Carried")
            $0.rating = .set(.rejected)
            $0.addedKeywords = ["a/b", "ü"]
        }
        let carried = try marks(at: 0, in: trip)
        _ = try library.write { try $0.perform(.copy([.position(0, in: .id(trip))], to: .into(.id(book)))) }
        #expect(try marks(at: 1, in: book) == carried)
        _ = try library.write { try $0.perform(.move([.position(1, in: .id(book))], to: .at(0, in: .id(book)))) }
        #expect(try marks(at: 0, in: book) == carried)
        _ = try library.write { try $0.perform(.move([.position(0, in: .id(trip))], to: .at(0, in: .id(trip)))) }
        #expect(try marks(at: 0, in: trip) == carried, "the copy's source keeps its own")
        _ = try library.write { try $0.perform(.remove([.position(0, in: .id(book))])) }
        _ = try library.write { try $0.undo() }
        #expect(try marks(at: 0, in: book) == carried)
        // A copy of a photo by id, not of an item, carries nothing.
        _ = try library.write { try $0.perform(.copy([.photo(photos[6], in: nil)], to: .into(.id(trip)))) }
        #expect(try library.read { try $0.markedItems(in: trip) }.map(\.value) == [carried], "only the source is marked in Trip")
        #expect(try library.violations().isEmpty)
    }

    @Test("a locked album's items can be marked; a placeholder cannot, nor an item named twice")
    func lockedAndPlaceholders() throws {
        try library.write { try $0.setAlbumLocked(trip, true) }
        try mark([.position(0, in: .id(trip))]) { $0.isFavorite = .set(true) }
        #expect(try marks(at: 0, in: trip).isFavorite)
        try library.write { writer in _ = try writer.insertPlaceholders([testLoad("/in/a.jpg")], into: book) }
        #expect(throws: LibraryError.self) { try mark([.position(1, in: .id(book))]) { $0.isFavorite = .set(true) } }
        #expect(throws: LibraryError.duplicateItem(.item(try library.read { try $0.item(at: 0, in: book).id }))) {
            try mark([.position(0, in: .id(book)), .photo(photos[5], in: .id(book))]) { $0.isFavorite = .set(true) }
        }
    }

    @Test("a proposal of a marking foresees the change sets performing it reports, and writes nothing")
    func proposalIsThePlan() throws {
        let marking = ItemMarking(items: [.position(4, in: .id(trip))], edit: edit { $0.caption = .set("Seen") })
        let proposal = try library.read { try $0.propose(.mark(marking)) }
        #expect(proposal.verdict == .marked)
        #expect(try marks(at: 4, in: trip) == .none)
        let result = try library.write { try $0.perform(.mark(marking)) }
        #expect(result.changes == proposal.changes)
    }

    @Test("an album's description is written, cleared and undone; it holds line breaks, never control characters")
    func albumDescription() throws {
        let result = try library.write { try $0.perform(.describe(.id(book), "Grandpa's 80th\nin Porto")) }
        #expect(result.outcome == .changed(.describeAlbum) && result.changes.first?.albumEvents == [.described])
        #expect(try library.read { try $0.album(book).description } == "Grandpa's 80th\nin Porto")
        #expect(try library.write { try $0.perform(.describe(.id(book), "Grandpa's 80th\nin Porto")) }.outcome == .noOp)
        #expect(throws: LibraryError.invalidWords(field: "description", reason: "it cannot contain U+0007, a control character")) {
            try library.write { try $0.perform(.describe(.id(book), "bell\u{7}")) }
        }
        _ = try library.write { try $0.perform(.describe(.id(book), "")) }
        #expect(try library.read { try $0.album(book).description } == nil)
        _ = try library.write { try $0.undo() }
        #expect(try library.read { try $0.album(book).description } == "Grandpa's 80th\nin Porto")
        _ = try library.write { try $0.perform(.delete(.id(book), force: true)) }
        _ = try library.write { try $0.undo() }
        #expect(try library.read { try $0.album(book).description } == "Grandpa's 80th\nin Porto", "undoing a deletion brings it back")
    }

    @Test("a viewer reads what is written and cannot write it; an editor of the album can")
    func rights() throws {
        let (viewer, editor) = try library.write { writer -> (Person, Person) in
            let viewer = try writer.addPerson(named: "gran", password: try PasswordHash(password: "correct horse", cost: 4))
            let editor = try writer.addPerson(named: "sam", password: try PasswordHash(password: "battery staple", cost: 4))
            try writer.setRole(.viewer, of: viewer.id, on: .album(trip))
            try writer.setRole(.editor, of: editor.id, on: .album(trip))
            return (viewer, editor)
        }
        try mark([.position(0, in: .id(trip))]) { $0.caption = .set("Written by the holder") }
        let marking = ItemMarking(items: [.position(0, in: .id(trip))], edit: edit { $0.caption = .set("Gran's") })
        #expect(throws: LibraryError.self) {
            try library.write { writer in
                writer.act(as: .person(viewer))
                try writer.perform(.mark(marking))
            }
        }
        #expect(try library.read { reader in
            reader.act(as: .person(viewer))
            return try reader.marks(of: try reader.item(at: 0, in: trip).id).caption
        } == "Written by the holder")
        try library.write { writer in
            writer.act(as: .person(editor))
            try writer.perform(.mark(marking))
        }
        #expect(try marks(at: 0, in: trip).caption == "Gran's")
        // Book is not theirs to see: its item is not found, as if it did not exist.
        let hidden = try library.read { try $0.item(at: 0, in: book).id }
        #expect(throws: LibraryError.itemNotFound(.item(hidden))) {
            try library.read { reader in
                reader.act(as: .person(viewer))
                return try reader.marks(of: hidden)
            }
        }
    }

    @Test("the same photo in two albums carries each album's own words: one album's say nothing of the other's")
    func marksBelongToTheItem() throws {
        _ = try library.write { try $0.perform(.copy([.position(0, in: .id(trip))], to: .into(.id(book)))) }
        try mark([.position(1, in: .id(book))]) { $0.caption = .set("For the book only") }
        #expect(try marks(at: 0, in: trip) == .none)
        #expect(try marks(at: 1, in: book).caption == "For the book only")
    }

    @Test("a search finds photos by what their items carry: words, a keyword, a favourite, stars, rejected; a smart album keeps such a search")
    func searchByWords() throws {
        try mark([.position(0, in: .id(trip))]) {
            $0.caption = .set("Grandpa at the harbour")
            $0.addedKeywords = ["Family"]
        }
        try mark([.position(1, in: .id(trip))]) {
            $0.isFavorite = .set(true)
            $0.rating = .set(.stars(4))
        }
        try mark([.position(2, in: .id(trip))]) { $0.rating = .set(.rejected) }
        try mark([.position(3, in: .id(trip))]) { $0.title = .set("Harbour at dusk") }
        func found(_ change: (inout PhotoSearch) -> Void) throws -> Set<PhotoID> {
            var search = PhotoSearch()
            change(&search)
            return Set(try library.read { try $0.photos(matching: search, limit: 100) }.photos.map(\.photo.id))
        }
        #expect(try found { $0.text = "HARBOUR" } == [photos[0], photos[3]], "titles and captions, in any case")
        #expect(try found { $0.text = "ha" } == [photos[0], photos[3]], "shorter than a trigram too")
        #expect(try found { $0.text = "family" } == [photos[0]], "keywords are words too")
        #expect(try found { $0.keyword = "family" } == [photos[0]])
        #expect(try found { $0.keyword = "fam" }.isEmpty, "a keyword is matched whole")
        #expect(try found { $0.isFavorite = true } == [photos[1]])
        #expect(try found { $0.minimumRating = 4 } == [photos[1]])
        #expect(try found { $0.minimumRating = 5 }.isEmpty)
        #expect(try found { $0.isRejected = true } == [photos[2]])
        #expect(try found { $0.text = "harbour"; $0.keyword = "family" } == [photos[0]], "every filter holds")
        #expect(try found { $0.text = "100%_" }.isEmpty, "LIKE's wildcards are taken as they are")

        var search = PhotoSearch()
        search.text = "harbour"
        search.minimumRating = 2
        search.isFavorite = true
        search.keyword = "Family"
        search.isRejected = true
        let smart = try library.write { try $0.createSmartAlbum(named: "Best", placement: .into(nil), search: search) }
        #expect(try library.read { try $0.album(smart.id).savedSearch } == search, "a smart album keeps every filter")
    }

    @Test("words on an item its asker cannot see never make a photo found: the same photo in a visible album carries its own")
    func searchSeesOnlyVisibleWords() throws {
        _ = try library.write { try $0.perform(.copy([.position(0, in: .id(trip))], to: .into(.id(book)))) }
        try mark([.position(1, in: .id(book))]) {
            $0.caption = .set("secret words")
            $0.isFavorite = .set(true)
        }
        let gran = try library.write { writer -> Person in
            let gran = try writer.addPerson(named: "gran", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.viewer, of: gran.id, on: .album(trip))
            return gran
        }
        for change in [{ (search: inout PhotoSearch) in search.text = "secret" }, { $0.isFavorite = true }] {
            var search = PhotoSearch()
            change(&search)
            let asHolder = try library.read { try $0.photos(matching: search).photos.map(\.photo.id) }
            let asGran = try library.read { reader in
                reader.act(as: .person(gran))
                return try reader.photos(matching: search).photos.map(\.photo.id)
            }
            #expect(asHolder == [photos[0]] && asGran.isEmpty, "\(search)")
        }
    }

    @Test("a batch line reads every key of mark and describe_album")
    func batchLines() throws {
        let lines = """
            {"op": "mark", "items": ["Trip:1-2"], "title": "T", "caption": null, "favorite": false, "rating": "rejected", "add_keywords": ["a"], "remove_keywords": ["b"]}
            {"op": "mark", "items": ["id:3"], "from": "Trip", "rating": 5}
            {"op": "describe_album", "album": "Book", "description": null}
            """
        let operations = try TransferBatchFormat.operations(fromJSONLines: lines)
        var expected = ItemMarksEdit()
        expected.title = .set("T")
        expected.caption = .set(nil)
        expected.isFavorite = .set(false)
        expected.rating = .set(.rejected)
        expected.addedKeywords = ["a"]
        expected.removedKeywords = ["b"]
        #expect(operations[0] == .mark(ItemMarking(items: [.position(0, in: "Trip"), .position(1, in: "Trip")], edit: expected)))
        #expect(operations[1] == .mark(ItemMarking(items: [.photo(PhotoID(rawValue: 3), in: "Trip")], edit: edit { $0.rating = .set(.stars(5)) })))
        #expect(operations[2] == .album(.describe("Book", nil)))
        for bad in [
            #"{"op": "mark", "items": ["Trip:1"], "rating": 6}"#, #"{"op": "mark", "items": ["Trip:1"], "favorite": "yes"}"#,
            #"{"op": "mark", "items": ["Trip:1"], "add_keywords": "a"}"#, #"{"op": "mark", "items": ["Trip:1"], "to": "Book"}"#,
            #"{"op": "mark", "title": "T"}"#, #"{"op": "describe_album", "album": "Book"}"#,
        ] {
            #expect(throws: TransferBatchFormat.FormatError.self, "\(bad)") { try TransferBatchFormat.operations(fromJSONLines: bad) }
        }
    }
}
