import AlbumsPersistence
import Foundation

/// Operations written as JSON Lines, the format `albums apply` reads: one
/// JSON object per line, blank lines ignored. Positions are 1-based.
///
/// ```json
/// {"op": "move", "items": ["Trip:3", "Trip:5-7"], "to": "Book", "at": 2}
/// {"op": "move", "items": ["id:42"], "from": "Trip", "before": "Book:1"}
/// {"op": "copy", "items": ["id:42", "Trip:1"], "to": "Portfolio"}
/// {"op": "swap", "items": ["Book:1", "Book:9"], "expect_revision": {"Book": 12}}
/// {"op": "remove", "items": ["Trip:2-4"]}
/// ```
///
/// | key | for | meaning |
/// | --- | --- | --- |
/// | `op` | all | `move`, `copy`, `swap` or `remove` |
/// | `items` | all | references: `ALBUM:N`, `ALBUM:N-M`, `id:P` |
/// | `from` | all | the album of `id:P` references, when the photo is in several |
/// | `to` | move, copy | the destination album; alone, the items go at its end |
/// | `at` | move, copy | with `to`: the 1-based position of the first item afterwards |
/// | `before`, `after` | move, copy | a reference to an item the items land next to (its album is the destination) |
/// | `expect_revision` | all | `{"ALBUM": R}`: refuse unless each album is at revision R |
///
/// Any other key, a value of the wrong type, or a missing required key is
/// an error naming the line.
public enum TransferBatchFormat {
    /// A line that is not a valid operation.
    public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line number.
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    static let knownKeys: Set<String> = ["op", "items", "from", "to", "at", "before", "after", "expect_revision"]

    /// The operations of a JSON Lines text, in order.
    ///
    /// - Throws: ``FormatError`` for the first line that is not an operation.
    public static func operations(fromJSONLines text: String) throws(FormatError) -> [TransferOperation] {
        try numberedOperations(fromJSONLines: text).map(\.operation)
    }

    /// The operations of a JSON Lines text, in order, each with its 1-based line number.
    ///
    /// - Throws: ``FormatError`` for the first line that is not an operation.
    public static func numberedOperations(fromJSONLines text: String) throws(FormatError) -> [(line: Int, operation: TransferOperation)] {
        var operations: [(line: Int, operation: TransferOperation)] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            operations.append((offset + 1, try operation(fromLine: String(line), number: offset + 1)))
        }
        return operations
    }

    /// One operation from one line of JSON.
    public static func operation(fromLine line: String, number: Int) throws(FormatError) -> TransferOperation {
        func fail(_ reason: String) -> FormatError { FormatError(line: number, reason: reason) }
        let object: [String: BatchJSONValue]
        do {
            guard case .object(let parsed) = try JSONDecoder().decode(BatchJSONValue.self, from: Data(line.utf8)) else {
                throw fail("expected a JSON object")
            }
            object = parsed
        } catch let error as FormatError {
            throw error
        } catch {
            throw fail("not valid JSON")
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw fail("unknown key \"\(unknown)\" (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        guard let opName = object["op"]?.string else { throw fail("\"op\" must be a string: move, copy, swap or remove") }
        guard let action = TransferOperation.Action(rawValue: opName) else {
            throw fail("unknown op \"\(opName)\": expected move, copy, swap or remove")
        }
        func string(_ key: String) throws(FormatError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.string else { throw fail("\"\(key)\" must be a string") }
            return text
        }
        let photoAlbum = try string("from").map(AlbumReference.named)
        func references(_ text: String) throws(FormatError) -> [ItemReference] {
            do {
                return try ReferenceParser.parse(text, photoAlbum: photoAlbum)
            } catch {
                throw fail(error.description)
            }
        }
        guard case .array(let itemTexts)? = object["items"] else { throw fail("\"items\" must be an array of references") }
        var sources: [ItemReference] = []
        for itemText in itemTexts {
            guard let itemText = itemText.string else { throw fail("\"items\" must hold strings such as \"Trip:3\"") }
            sources += try references(itemText)
        }
        var expected: [AlbumReference: Int64] = [:]
        if let revisions = object["expect_revision"] {
            guard case .object(let revisions) = revisions else { throw fail("\"expect_revision\" must be an object {\"ALBUM\": R}") }
            for (album, revision) in revisions {
                guard let number = revision.integer, number >= 0 else {
                    throw fail("\"expect_revision\" for \"\(album)\" must be a whole number")
                }
                expected[.named(album)] = Int64(number)
            }
        }

        let placement = ["to", "at", "before", "after"].filter { object[$0] != nil }
        guard action == .move || action == .copy else {
            if let key = placement.first { throw fail("\"\(key)\" does not apply to \(action.rawValue)") }
            return TransferOperation(action: action, sources: sources, expectedRevisions: expected)
        }
        let destination: Destination
        switch (try string("to"), object["at"], try string("before"), try string("after")) {
        case (let album?, nil, nil, nil):
            destination = .into(.named(album))
        case (let album?, let at?, nil, nil):
            guard let position = at.integer, position >= 1 else {
                throw fail("\"at\" must be a position: a whole number from 1")
            }
            destination = .at(position - 1, in: .named(album))
        case (nil, nil, let before?, nil):
            destination = .before(try single(references(before), line: number))
        case (nil, nil, nil, let after?):
            destination = .after(try single(references(after), line: number))
        default:
            throw fail("\(action.rawValue) needs \"to\" (with or without \"at\"), or one of \"before\" / \"after\"; got \(placement.isEmpty ? "none" : placement.joined(separator: ", "))")
        }
        return TransferOperation(action: action, sources: sources, destination: destination, expectedRevisions: expected)
    }

    private static func single(_ references: [ItemReference], line: Int) throws(FormatError) -> ItemReference {
        guard references.count == 1 else { throw FormatError(line: line, reason: "\"before\" / \"after\" name one item, not a range") }
        return references[0]
    }
}
