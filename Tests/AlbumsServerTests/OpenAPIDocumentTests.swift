import AlbumsPersistence
import AlbumsTestSupport
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Testing

@testable import AlbumsServer

/// The OpenAPI document is the API: it names every route the server
/// answers under /api, with its method, and no route it does not.
@Suite("albums serve: the OpenAPI document and the routes")
struct OpenAPIDocumentTests {
    @Test("every /api route is in openapi.json with its method, and openapi.json names no other")
    func routesMatchTheDocument() throws {
        let fixture = try LibraryFixture()
        let (_, allowed) = AlbumsServer.routes(
            library: fixture.library, thumbnails: ThumbnailStore(folder: fixture.folder.url), loads: LoadsInFlight(),
            settings: GateSettings(token: "t", authorities: { [] }))
        // The document describes the API, not itself.
        let served = allowed.described.filter { $0.contains(" /api/") && !$0.hasSuffix("/api/openapi.json") }
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: [String: Any]])
        let methods: Set = ["get", "put", "post", "delete", "patch", "head", "options"]
        let described = Set(paths.flatMap { path, operations in operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
        #expect(served.subtracting(described).sorted() == [], "routes the document does not describe")
        #expect(described.subtracting(served).sorted() == [], "operations the document describes that no route answers")
        #expect(served.count >= 20, "the routes were not read")
    }

    /// The document's patterns for item references, read from it.
    static func referencePattern(_ name: String) throws -> NSRegularExpression {
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        return try NSRegularExpression(pattern: try #require(schemas[name]?["pattern"] as? String))
    }

    /// Every string over an alphabet that makes the three forms and their
    /// near misses, up to a length.
    static func strings(over alphabet: [String], upTo length: Int) -> [String] {
        var all = [""]
        var layer = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += layer
        }
        return all
    }

    @Test("a reference matches the document's pattern exactly when the parser reads its form (limits aside)")
    func referencePatternIsTheParser() throws {
        let pattern = try Self.referencePattern("ItemReference")
        let single = try Self.referencePattern("SingleItemReference")
        // As JSON Schema reads patterns (ECMA-262): `$` is the end of the
        // text, where ICU would also match before a final newline.
        func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
            let whole = NSRange(text.startIndex..., in: text)
            return regex.firstMatch(in: text, range: whole)?.range == whole
        }
        var checked = 0
        for text in Self.strings(over: ["i", "d", ":", "0", "1", "-", "a", " ", "\n"], upTo: 6) {
            let outcome: Result<[ItemReference], ReferenceParser.ParseError> = Result { () throws(ReferenceParser.ParseError) in
                try ReferenceParser.parse(text)
            }
            let readsItsForm: Bool
            switch outcome {
            case .success: readsItsForm = true
            case .failure(let error): readsItsForm = error.isBeyondLimits
            }
            #expect(matches(pattern, text) == readsItsForm, "\(text.debugDescription): pattern \(matches(pattern, text)), parser \(outcome)")
            // Before and after name one item: the form without a range.
            let isRange = text.split(separator: ":", omittingEmptySubsequences: false).last?.contains("-") ?? false
            #expect(matches(single, text) == (readsItsForm && !isRange), "\(text.debugDescription): one item")
            checked += 1
        }
        #expect(checked == 597_871, "every string of up to six of the nine characters")
    }

    @Test("an operation's keys are valid in the document exactly when albums apply reads the line")
    func operationSchemaIsTheBatchFormat() throws {
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let validator = SchemaSubsetValidator(schemas: schemas)
        let operation = try #require(schemas["Operation"])
        let names = try #require(((operation as? [String: Any])?["oneOf"] as? [[String: Any]])?.flatMap {
            (($0["properties"] as? [String: Any])?["op"] as? [String: Any])?["enum"] as? [String] ?? []
        })
        #expect(Set(names).count == 22)
        // A well-typed value for every key an operation may take.
        let values: [(String, Any)] = [
            ("items", ["Trip:1"]), ("to", "Trip"), ("at", 1), ("before", "Trip:1"), ("after", "Trip:1"), ("from", "Trip"),
            ("album", "Trip"), ("name", "New"), ("folder", "F"), ("into", "F"), ("by", "name"), ("descending", true),
            ("force", true), ("contents", "move"), ("expect_revision", ["Trip": 1]), ("photo", "Trip:1"), ("search", ["shape": "portrait"]),
        ]
        var checked = 0
        var disagreements: [String] = []
        /// Every set of at most five of `values` (the most an operation takes), as a line of each of `names`.
        func compare(_ names: [String], over values: [(String, Any)]) throws {
            for name in names {
                for subset in 0..<(1 << values.count) where subset.nonzeroBitCount <= 5 {
                    var object: [String: Any] = ["op": name]
                    for (bit, (key, value)) in values.enumerated() where subset & (1 << bit) != 0 { object[key] = value }
                    let line = String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
                    let read = (try? TransferBatchFormat.operation(fromLine: line, number: 1)) != nil
                    let valid = validator.isValid(object, against: operation)
                    if valid != read { disagreements.append("\(line): document \(valid), albums apply \(read)") }
                    checked += 1
                }
            }
        }
        try compare(Set(names).sorted(), over: values)
        #expect(checked == 22 * 9_402)
        // The keys only the words and marks take, against those two and a few others' keys.
        let wordValues: [(String, Any)] = [
            ("items", ["Trip:1"]), ("from", "Trip"), ("album", "Trip"), ("description", "About"), ("title", "Title"), ("caption", NSNull()),
            ("favorite", true), ("rating", "rejected"), ("add_keywords", ["family"]), ("remove_keywords", []), ("expect_revision", ["Trip": 1]),
            ("to", "Trip"), ("name", "New"),
        ]
        try compare(["describe_album", "mark"], over: wordValues)
        #expect(checked == 22 * 9_402 + 2 * 2_380)
        #expect(disagreements.isEmpty, "\(disagreements.count) lines, such as \(disagreements.prefix(5))")
    }
}

extension OpenAPIDocumentTests {
    @Test("a smart album's search as GET /api/albums answers it, with every filter set, is what the document allows")
    func smartSearchIsTheDocuments() throws {
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let album = try #require(schemas["Album"] as? [String: Any])
        let schema = try #require((album["properties"] as? [String: Any])?["search"])
        let fixture = try LibraryFixture()
        var search = try PhotoSearch.everyFilter()
        // Each way a search names albums: one there, none, one gone.
        let (inAlbum, inNoAlbum, gone) = try fixture.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            let goner = try writer.createAlbum(named: "Goner")
            search.membership = .inAlbum(trip.id)
            let inAlbum = try writer.createSmartAlbum(named: "In Trip", placement: .into(nil), search: search)
            search.membership = .inNoAlbum
            let inNoAlbum = try writer.createSmartAlbum(named: "Loose", placement: .into(nil), search: search)
            search.membership = .inAlbum(goner.id)
            let gone = try writer.createSmartAlbum(named: "In Goner", placement: .into(nil), search: search)
            try writer.deleteAlbum(goner.id, force: true)
            return (inAlbum, inNoAlbum, gone)
        }
        let validator = SchemaSubsetValidator(schemas: schemas)
        for smart in [inAlbum, inNoAlbum, gone] {
            let encoded = try fixture.library.read { reader in try JSONEncoder().encode(SmartSearchJSON(smart, reader: reader)) }
            let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
            #expect(object.count == 14, "every filter and one way of naming albums: \(object.keys.sorted())")
            #expect(validator.isValid(object, against: schema), "\(smart.name): \(String(decoding: encoded, as: UTF8.self))")
        }
    }

    @Test("a mark's rating is valid in the document exactly when albums apply reads it (schemathesis sent -732, which the document allowed)")
    func ratingIsTheBatchFormats() throws {
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let validator = SchemaSubsetValidator(schemas: schemas)
        let operation = try #require(schemas["Operation"])
        let ratings: [Any] = [-732, -1, 0, 1, 3, 5, 6, Int64.max, "rejected", "Rejected", "1", "5", "6", "0", "", "٣", NSNull(), true, ["1"]]
        for rating in ratings {
            let object: [String: Any] = ["op": "mark", "items": ["Trip:1"], "rating": rating]
            let line = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            let read = (try? TransferBatchFormat.operation(fromLine: line, number: 1)) != nil
            #expect(validator.isValid(object, against: operation) == read, "\(line): albums apply \(read)")
        }
    }

    @Test("a text filter is valid in the document exactly when the server takes it: a query's and a smart album's, blank or not, over every white space character")
    func blankTextFiltersAreTheDocuments() throws {
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let paths = json["paths"] as? [String: [String: Any]] ?? [:]
        let validator = SchemaSubsetValidator(schemas: schemas)
        let operation = try #require(schemas["Operation"])
        // Unicode's White_Space, and characters near it that are not (BOM, Mongolian vowel separator, zero-width space, file separator).
        let white = (0...0x3000).compactMap(Unicode.Scalar.init).filter(\.properties.isWhitespace).map(String.init)
        #expect(white.count == 25)
        let alphabet = white + ["\u{FEFF}", "\u{180E}", "\u{200B}", "\u{1C}", "a", "é", "\u{0}"]
        let texts = Self.strings(over: alphabet, upTo: 2) + ["  a ", "\n\n", " \u{3000}\t"]
        var checked = 0
        for filter in PhotoSearch.TextFilter.allCases {
            for path in ["/api/photos", "/api/photos/months"] {
                let parameters = try #require((paths[path]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]], "\(path)")
                let schema = try #require(parameters.first { $0["name"] as? String == filter.rawValue }?["schema"])
                for text in texts {
                    var search = PhotoSearch()
                    search[text: filter] = text
                    // The server refuses a NUL in any query parameter, and a blank text filter.
                    let taken = search.blankTextFilters.isEmpty && !text.unicodeScalars.contains("\u{0}")
                    #expect(validator.isValid(text, against: schema) == taken, "\(path)?\(filter.rawValue)=\(text.debugDescription)")
                    checked += 1
                }
            }
            for text in texts {
                let object: [String: Any] = ["op": "create_smart_album", "name": "Found", "search": [filter.rawValue: text]]
                let line = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                let read = (try? TransferBatchFormat.operation(fromLine: line, number: 1)) != nil
                #expect(validator.isValid(object, against: operation) == read, "\(line)")
                checked += 1
            }
        }
        #expect(checked == 6 * 3 * texts.count)
    }
}

/// The part of JSON Schema the document uses, enough to test it against
/// the parsers: $ref, oneOf, type, required, properties,
/// additionalProperties, enum, items, pattern, minimum and maximum.
final class SchemaSubsetValidator {
    let schemas: [String: Any]
    private var expressions: [String: NSRegularExpression] = [:]

    init(schemas: [String: Any]) {
        self.schemas = schemas
    }

    private func expression(_ pattern: String) -> NSRegularExpression? {
        if let known = expressions[pattern] { return known }
        let made = try? NSRegularExpression(pattern: pattern)
        expressions[pattern] = made
        return made
    }

    func isValid(_ value: Any, against schema: Any) -> Bool {
        guard let schema = schema as? [String: Any] else { return false }
        if let reference = schema["$ref"] as? String {
            return isValid(value, against: schemas[String(reference.split(separator: "/").last!)] as Any)
        }
        if let choices = schema["oneOf"] as? [Any] {
            return choices.filter { isValid(value, against: $0) }.count == 1
        }
        if let allowed = schema["enum"] as? [String], !allowed.contains(value as? String ?? "\u{0}") { return false }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return false }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            if let required = schema["required"] as? [String], !required.allSatisfy({ object[$0] != nil }) { return false }
            for (key, member) in object {
                if let property = properties[key] {
                    if !isValid(member, against: property) { return false }
                } else if let additional = schema["additionalProperties"] {
                    if additional as? Bool == false || (additional is [String: Any] && !isValid(member, against: additional)) { return false }
                }
            }
            return true
        case "array":
            guard let array = value as? [Any] else { return false }
            return schema["items"].map { items in array.allSatisfy { isValid($0, against: items) } } ?? true
        case "string":
            guard let text = value as? String else { return false }
            guard let pattern = schema["pattern"] as? String else { return true }
            let whole = NSRange(text.startIndex..., in: text)
            return expression(pattern)?.firstMatch(in: text, range: whole)?.range == whole
        case "integer":
            guard !(value is Bool), let number = value as? Int else { return false }
            if let minimum = schema["minimum"] as? Int, number < minimum { return false }
            if let maximum = schema["maximum"] as? Int, number > maximum { return false }
            return true
        case "boolean":
            return value is Bool
        case "null":
            return value is NSNull
        default:
            return true
        }
    }
}
