import AlbumsPersistence
import Testing

@testable import AlbumsTransfer

@Suite("Reference and JSON Lines formats")
struct FormatTests {
    @Test("references: positions, ranges, photo ids; the album part ends at the last colon")
    func references() throws {
        #expect(try ReferenceParser.parse("Trip:3") == [.position(2, in: "Trip")])
        #expect(try ReferenceParser.parse("Trip:2-4") == [.position(1, in: "Trip"), .position(2, in: "Trip"), .position(3, in: "Trip")])
        #expect(try ReferenceParser.parse("Rome: day 1:12") == [.position(11, in: "Rome: day 1")])
        #expect(try ReferenceParser.parse("id:42") == [.photo(PhotoID(rawValue: 42), in: nil)])
        #expect(try ReferenceParser.parse("id:42", photoAlbum: "Trip") == [.photo(PhotoID(rawValue: 42), in: "Trip")])
        #expect(try ReferenceParser.parse("🌅:1") == [.position(0, in: "🌅")])
    }

    @Test("malformed references are refused with the reason", arguments: [
        ("Trip", "expected ALBUM:N, ALBUM:N-M or id:P"),
        (":3", "the album name before ':' is empty"),
        ("Trip:", "is not a position"),
        ("Trip:0", "positions start at 1"),
        ("Trip:-2", "is not a position"),
        ("Trip:4-2", "runs backwards"),
        ("Trip:1.5", "is not a position"),
        ("Trip:٣", "is not a position"),
        ("Trip:99999999999", "past the largest position"),
        ("id:x", "is not a photo id"),
        ("id:", "is not a photo id"),
    ])
    func malformedReferences(text: String, reason: String) {
        #expect {
            try ReferenceParser.parse(text)
        } throws: { error in
            let description = (error as? ReferenceParser.ParseError)?.description ?? ""
            return description.contains(reason) && !description.contains("\n")
        }
    }

    @Test("JSON Lines: every operation and destination form")
    func jsonLines() throws {
        let text = """
            {"op": "move", "items": ["Trip:3", "Trip:5-6"], "to": "Book", "at": 2}

            {"op": "move", "items": ["id:42"], "from": "Trip", "before": "Book:1"}
            {"op": "copy", "items": ["id:42"], "to": "Portfolio"}
            {"op": "copy", "items": ["Trip:1"], "after": "Book:2", "expect_revision": {"Book": 12}}
            {"op": "swap", "items": ["Book:1", "Book:9"]}
            {"op": "remove", "items": ["Trip:2"]}
            """
        let operations = try TransferBatchFormat.operations(fromJSONLines: text)
        #expect(operations == [
            .move([.position(2, in: "Trip"), .position(4, in: "Trip"), .position(5, in: "Trip")], to: .at(1, in: "Book")),
            .move([.photo(PhotoID(rawValue: 42), in: "Trip")], to: .before(.position(0, in: "Book"))),
            .copy([.photo(PhotoID(rawValue: 42), in: nil)], to: .into("Portfolio")),
            .copy([.position(0, in: "Trip")], to: .after(.position(1, in: "Book")), expecting: ["Book": 12]),
            .swap(.position(0, in: "Book"), .position(8, in: "Book")),
            .remove([.position(1, in: "Trip")]),
        ].map(LibraryOperation.items))
    }

    @Test("JSON Lines: album operations")
    func albumLines() throws {
        let text = """
            {"op": "create_album", "name": "Lisbon"}
            {"op": "create_album", "name": "Porto", "at": 1}
            {"op": "rename_album", "album": "Lisbon", "name": "Lisbon 2026", "expect_revision": {"Lisbon": 3}}
            {"op": "move_album", "album": "Porto", "at": 2}
            {"op": "lock_album", "album": "Porto"}
            {"op": "unlock_album", "album": "Porto"}
            {"op": "sort_album", "album": "Porto", "by": "capture-date", "descending": true}
            {"op": "sort_album", "album": "Porto", "by": "name"}
            {"op": "delete_album", "album": "Porto", "force": true}
            {"op": "delete_album", "album": "Lisbon 2026"}
            """
        #expect(try TransferBatchFormat.operations(fromJSONLines: text) == [
            .album(.create(name: "Lisbon")),
            .album(.create(name: "Porto", placement: .position(0))),
            .album(.rename("Lisbon", to: "Lisbon 2026"), expecting: ["Lisbon": 3]),
            .album(.move("Porto", to: .position(1))),
            .album(.setLocked("Porto", true)),
            .album(.setLocked("Porto", false)),
            .album(.sort("Porto", by: .captureDate, ascending: false)),
            .album(.sort("Porto", by: .name, ascending: true)),
            .album(.delete("Porto", force: true)),
            .album(.delete("Lisbon 2026", force: false)),
        ])
    }

    @Test("malformed album lines name their line and what is wrong", arguments: [
        ("{\"op\": \"create_album\"}", "create_album needs \"name\""),
        ("{\"op\": \"rename_album\", \"album\": \"A\", \"items\": []}", "\"items\" does not apply to rename_album"),
        ("{\"op\": \"move_album\", \"album\": \"A\"}", "move_album needs \"into\", \"at\", \"before\" or \"after\""),
        ("{\"op\": \"move_album\", \"album\": \"A\", \"at\": 0}", "\"at\" must be a position: a whole number from 1"),
        ("{\"op\": \"move_album\", \"album\": \"A\", \"before\": \"B\", \"at\": 1}", "move_album takes \"into\" (with or without \"at\")"),
        ("{\"op\": \"delete_folder\", \"folder\": \"A\", \"contents\": \"keep\"}", "\"contents\" must be \"move\""),
        ("{\"op\": \"create_folder\", \"name\": \"A\", \"album\": \"B\"}", "\"album\" does not apply to create_folder"),
        ("{\"op\": \"sort_album\", \"album\": \"A\", \"by\": \"size\"}", "\"by\" must be one of name, capture-date, import-time"),
        ("{\"op\": \"delete_album\", \"album\": \"A\", \"force\": 1}", "\"force\" must be true or false"),
        ("{\"op\": \"lock_album\", \"album\": 7}", "\"album\" must be a string"),
    ])
    func malformedAlbumLines(line: String, reason: String) {
        #expect {
            try TransferBatchFormat.operations(fromJSONLines: "\n" + line)
        } throws: { error in
            let description = (error as? TransferBatchFormat.FormatError)?.description ?? ""
            return description.hasPrefix("line 2: ") && description.contains(reason)
        }
    }

    /// Found by the crash harness: NSNumber on Linux casts 0 and 1 to booleans.
    @Test("0 and 1 are numbers, not booleans, and true is not a number")
    func zeroAndOneAreNumbers() throws {
        let text = #"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": 1, "expect_revision": {"Book": 0, "Trip": 1}}"#
        #expect(try TransferBatchFormat.operations(fromJSONLines: text) == [
            .items(.move([.position(0, in: "Trip")], to: .at(0, in: "Book"), expecting: ["Book": 0, "Trip": 1]))
        ])
        #expect(throws: TransferBatchFormat.FormatError.self) {
            try TransferBatchFormat.operations(fromJSONLines: #"{"op": "remove", "items": ["T:1"], "expect_revision": {"T": true}}"#)
        }
    }

    @Test("malformed lines name their line and what is wrong", arguments: [
        ("{\"op\": \"move\", \"items\": [\"T:1\"]", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ("{\"op\": \"fly\", \"items\": []}", "unknown op \"fly\""),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"too\": \"B\"}", "unknown key \"too\""),
        ("{\"op\": \"move\", \"items\": \"T:1\", \"to\": \"B\"}", "\"items\" must be an array"),
        ("{\"op\": \"move\", \"items\": [1], \"to\": \"B\"}", "must hold strings"),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"to\": \"B\", \"at\": 0}", "\"at\" must be a position"),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"to\": \"B\", \"at\": 1.5}", "\"at\" must be a position"),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"to\": \"B\", \"at\": true}", "\"at\" must be a position"),
        ("{\"op\": \"move\", \"items\": [\"T:1\"]}", "move needs \"to\""),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"before\": \"B:1\", \"after\": \"B:2\"}", "got before, after"),
        ("{\"op\": \"move\", \"items\": [\"T:1\"], \"before\": \"B:1-3\"}", "name one item"),
        ("{\"op\": \"remove\", \"items\": [\"T:1\"], \"to\": \"B\"}", "\"to\" does not apply to remove"),
        ("{\"op\": \"remove\", \"items\": [\"T:x\"]}", "invalid reference 'T:x'"),
        ("{\"op\": \"remove\", \"items\": [\"T:1\"], \"expect_revision\": {\"T\": \"7\"}}", "must be a whole number"),
    ])
    func malformedLines(line: String, reason: String) {
        let text = "{\"op\": \"remove\", \"items\": [\"T:1\"]}\n" + line
        #expect {
            try TransferBatchFormat.operations(fromJSONLines: text)
        } throws: { error in
            let description = (error as? TransferBatchFormat.FormatError)?.description ?? ""
            return description.hasPrefix("line 2: ") && description.contains(reason)
        }
    }
}
