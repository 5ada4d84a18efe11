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
/// {"op": "create_album", "name": "Lisbon", "at": 1}
/// {"op": "rename_album", "album": "Lisbon", "name": "Lisbon 2026"}
/// {"op": "move_album", "album": "Lisbon 2026", "at": 3, "expect_revision": {"Lisbon 2026": 4}}
/// {"op": "create_folder", "name": "2026", "into": "Travel"}
/// {"op": "move_album", "album": "Lisbon 2026", "into": "Travel/2026", "at": 1}
/// {"op": "move_folder", "folder": "Travel/2026", "before": "Books"}
/// {"op": "delete_folder", "folder": "Old", "contents": "move"}
/// {"op": "sort_album", "album": "Book", "by": "capture-date", "descending": true}
/// {"op": "lock_album", "album": "Book"}
/// {"op": "delete_album", "album": "Scratch", "force": true}
/// {"op": "set_album_cover", "album": "Book", "photo": "Book:3"}
/// {"op": "create_smart_album", "name": "July", "search": {"taken": "2025-07", "shape": "portrait"}}
/// {"op": "freeze_album", "album": "July"}
/// {"op": "describe_album", "album": "Book", "description": "Grandpa's 80th, in Porto"}
/// {"op": "mark", "items": ["Book:1-3"], "caption": "At the harbour", "favorite": true, "rating": 4, "add_keywords": ["family"]}
/// ```
///
/// | key | for | meaning |
/// | --- | --- | --- |
/// | `op` | all | `move`, `copy`, `swap`, `remove`; `create_album`, `rename_album`, `delete_album`, `move_album`, `lock_album`, `unlock_album`, `sort_album`, `set_album_cover`, `create_smart_album`, `freeze_album`, `describe_album`; `create_folder`, `rename_folder`, `delete_folder`, `move_folder`, `lock_folder`, `unlock_folder`; `mark` |
/// | `items` | all | references: `ALBUM:N`, `ALBUM:N-M`, `id:P` |
/// | `from` | all | the album of `id:P` references, when the photo is in several |
/// | `to` | move, copy | the destination album; alone, the items go at its end |
/// | `at` | move, copy | with `to`: the 1-based position of the first item afterwards |
/// | `before`, `after` | move, copy | a reference to an item the items land next to (its album is the destination) |
/// | `expect_revision` | all | `{"ALBUM": R}`: refuse unless each album is at revision R |
/// | `album` | album ops but create | the album the operation changes |
/// | `name` | create and rename of albums and folders | the (new) name |
/// | `folder` | folder ops but create | the folder's path ("Travel/2026") |
/// | `into` | create and move of albums and folders | the folder it goes into (a path; `/` is the top level); alone, it goes last there |
/// | `at` | create and move of albums and folders | its 1-based place among the children of `into` afterwards, or without `into` of the folder it is in (create: the top level) |
/// | `before`, `after` | create and move of albums and folders | an album (by name or path) or folder (by path) it lands next to, in that one's folder |
/// | `contents` | delete_folder | what it holds, if anything: `move` (to its place in its parent) or `delete` (albums deleted, photos kept) |
/// | `by`, `descending` | sort_album | `name`, `capture-date` or `import-time`; `true` for newest or last first |
/// | `force` | delete_album, delete_folder | `true` deletes albums with pending loads, cancelling them |
/// | `search` | create_smart_album | the filters of `GET /api/photos`: `taken`, `name`, `format`, `shape`, `min_megapixels`, `camera`, `lens`, `location` (true/false), `album` (a name) or `no_album` (true), `text`, `keyword`, `favorite` (true), `min_rating` (1–5), `rejected` (true) |
/// | `photo` | set_album_cover | the cover: `id:P` or `ALBUM:N`, a photo of the album; `null` or left out: its first photo |
/// | `description` | describe_album | the album's description; `null` or `""` clears it |
/// | `title`, `caption` | mark | the items' title, caption; `null` or `""` clears it |
/// | `favorite` | mark | `true` or `false` |
/// | `rating` | mark | `1`…`5` stars, `"rejected"`, or `null` (not rated) |
/// | `add_keywords`, `remove_keywords` | mark | arrays of keywords the items gain or lose |
///
/// Any other key, a value of the wrong type, or a missing required key is
/// an error naming the line.
public enum TransferBatchFormat {
    /// A line that is not a valid operation.
    public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line number.
        public let line: Int
        /// What is wrong with the line, in words.
        public let reason: String
        /// Whether the line has the form of an operation and only a
        /// reference in it names what no reference may (see
        /// ``ReferenceParser/ParseError/isBeyondLimits``).
        public let isBeyondLimits: Bool
        public var description: String { "line \(line): \(reason)" }

        /// A line that is not a valid operation, and why.
        public init(line: Int, reason: String, isBeyondLimits: Bool = false) {
            self.line = line
            self.reason = reason
            self.isBeyondLimits = isBeyondLimits
        }
    }

    static let knownKeys: Set<String> = ["op", "items", "from", "to", "at", "before", "after", "expect_revision"]
    static let operationNames = (TransferOperation.Action.allCases.map(\.rawValue) + [ItemMarking.operationName] + TreeOperationName.allCases.map(\.rawValue).sorted())
        .joined(separator: ", ")

    /// The operations of a JSON Lines text, in order.
    ///
    /// - Throws: ``FormatError`` for the first line that is not an operation.
    public static func operations(fromJSONLines text: String) throws(FormatError) -> [LibraryOperation] {
        try numberedOperations(fromJSONLines: text).map(\.operation)
    }

    /// The operations of a JSON Lines text, in order, each with its 1-based line number.
    ///
    /// - Throws: ``FormatError`` for the first line that is not an operation.
    public static func numberedOperations(fromJSONLines text: String) throws(FormatError) -> [(line: Int, operation: LibraryOperation)] {
        var operations: [(line: Int, operation: LibraryOperation)] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            operations.append((offset + 1, try operation(fromLine: String(line), number: offset + 1)))
        }
        return operations
    }

    /// One operation from one line of JSON.
    public static func operation(fromLine line: String, number: Int) throws(FormatError) -> LibraryOperation {
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
        guard let opName = object["op"]?.string else { throw fail("\"op\" must be a string: \(operationNames)") }
        func string(_ key: String) throws(FormatError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.string else { throw fail("\"\(key)\" must be a string") }
            return text
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
        if opName == ItemMarking.operationName {
            return .mark(try marking(object, number: number, fail: fail), expecting: expected)
        }
        if let treeOperation = TreeOperationName(rawValue: opName) {
            let allowed = treeOperation.keys.union(["op", "expect_revision"])
            if let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first {
                throw fail("\"\(unknown)\" does not apply to \(opName) (it takes: \(treeOperation.keys.sorted().joined(separator: ", ")))")
            }
            let line = TreeLine(operation: treeOperation, object: object, number: number, fail: fail)
            if treeOperation.isFolderOperation { return .folder(try folderOperation(line), expecting: expected) }
            return .album(try albumOperation(line), expecting: expected)
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw fail("unknown key \"\(unknown)\" (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        guard let action = TransferOperation.Action(rawValue: opName) else {
            throw fail("unknown op \"\(opName)\": expected \(operationNames)")
        }
        let photoAlbum = try string("from").map(AlbumReference.named)
        func references(_ text: String) throws(FormatError) -> [ItemReference] {
            do {
                return try ReferenceParser.parse(text, photoAlbum: photoAlbum)
            } catch {
                throw FormatError(line: number, reason: error.description, isBeyondLimits: error.isBeyondLimits)
            }
        }
        guard case .array(let itemTexts)? = object["items"] else { throw fail("\"items\" must be an array of references") }
        var sources: [ItemReference] = []
        for itemText in itemTexts {
            guard let itemText = itemText.string else { throw fail("\"items\" must hold strings such as \"Trip:3\"") }
            sources += try references(itemText)
        }

        let placement = ["to", "at", "before", "after"].filter { object[$0] != nil }
        guard action == .move || action == .copy else {
            if let key = placement.first { throw fail("\"\(key)\" does not apply to \(action.rawValue)") }
            return .items(TransferOperation(action: action, sources: sources, expectedRevisions: expected))
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
        return .items(TransferOperation(action: action, sources: sources, destination: destination, expectedRevisions: expected))
    }

    /// The keys of one album or folder line, read with the line's errors.
    private struct TreeLine {
        let operation: TreeOperationName
        var name: String { operation.rawValue }
        let object: [String: BatchJSONValue]
        let number: Int
        let fail: (String) -> FormatError

        func string(_ key: String) throws(FormatError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.string else { throw fail("\"\(key)\" must be a string") }
            return text
        }

        func required(_ key: String) throws(FormatError) -> String {
            guard let text = try string(key) else { throw fail("\(name) needs \"\(key)\"") }
            return text
        }

        /// The one item a key names (`ALBUM:N` or `id:P`); nil when it is
        /// missing or null.
        func reference(_ key: String) throws(FormatError) -> ItemReference? {
            if case .null? = object[key] { return nil }
            guard let text = try string(key) else { return nil }
            let references: [ItemReference]
            do {
                references = try ReferenceParser.parse(text)
            } catch {
                throw FormatError(line: number, reason: error.description, isBeyondLimits: error.isBeyondLimits)
            }
            guard references.count == 1 else { throw fail("\"\(key)\" names one photo, not a range") }
            return references[0]
        }

        /// A smart album's search: an object with the filters of `GET /api/photos`.
        func search() throws(FormatError) -> PhotoSearchRequest {
            guard case .object(let filters)? = object["search"] else { throw fail("\(name) needs \"search\": an object of filters") }
            let known: Set<String> = [
                "taken", "name", "format", "shape", "min_megapixels", "camera", "lens", "location", "album", "no_album", "text", "keyword", "favorite",
                "min_rating", "rejected",
            ]
            if let unknown = filters.keys.filter({ !known.contains($0) }).sorted().first {
                throw fail("\"search\" takes \(known.sorted().joined(separator: ", ")); not \"\(unknown)\"")
            }
            func text(_ key: String) throws(FormatError) -> String? {
                guard let value = filters[key] else { return nil }
                guard let text = value.string else { throw fail("\"search\".\(key) must be a string") }
                return text
            }
            func flag(_ key: String) throws(FormatError) -> Bool? {
                guard let value = filters[key] else { return nil }
                guard case .bool(let flag) = value else { throw fail("\"search\".\(key) must be true or false") }
                return flag
            }
            var request = PhotoSearchRequest()
            if let taken = try text("taken") {
                // Of the form the document gives, but no real date (2025-02-30): well formed, unmeetable.
                do { request.search.taken = try CaptureRange(taken) } catch { throw FormatError(line: number, reason: error.description, isBeyondLimits: true) }
            }
            request.search.name = try text("name")
            request.search.format = try text("format")
            if let shape = try text("shape") {
                guard let value = PhotoShape(rawValue: shape) else { throw fail("\"search\".shape must be landscape, portrait or square") }
                request.search.shape = value
            }
            if let megapixels = filters["min_megapixels"] {
                let value: Double? = switch megapixels {
                case .integer(let number): Double(number)
                case .number(let number): number
                default: nil
                }
                guard let value, value >= 0 else { throw fail("\"search\".min_megapixels must be a number from 0") }
                request.search.minimumMegapixels = value
            }
            request.search.camera = try text("camera")
            request.search.lens = try text("lens")
            request.search.hasLocation = try flag("location")
            request.search.text = try text("text")
            request.search.keyword = try text("keyword")
            request.search.isFavorite = try flag("favorite")
            if let stars = filters["min_rating"] {
                guard let value = stars.integer, (1...5).contains(value) else { throw fail("\"search\".min_rating must be 1 to 5") }
                request.search.minimumRating = value
            }
            request.search.isRejected = try flag("rejected")
            if let blank = request.search.blankTextFilters.first {
                throw fail("\"search\".\(blank.rawValue) needs something to look for: leave it out to search every photo")
            }
            request.album = try text("album")
            request.inNoAlbum = try flag("no_album") ?? false
            if request.album != nil && request.inNoAlbum {
                throw FormatError(line: number, reason: "\"search\" takes album or no_album, not both", isBeyondLimits: true)
            }
            return request
        }

        func flag(_ key: String) throws(FormatError) -> Bool {
            guard let value = object[key] else { return false }
            guard case .bool(let flag) = value else { throw fail("\"\(key)\" must be true or false") }
            return flag
        }

        /// Where a created or moved album or folder goes: `into`, `at`, or
        /// `before` / `after`; nil when the line says nothing of it.
        func placement() throws(FormatError) -> TreePlacement? {
            var index: Int?
            if let at = object["at"] {
                guard let position = at.integer, position >= 1 else { throw fail("\"at\" must be a position: a whole number from 1") }
                index = position - 1
            }
            let folder: FolderReference?? = try string("into").map { $0 == "/" ? nil : .path($0) }
            switch (folder, index, try string("before"), try string("after")) {
            case (nil, nil, nil, nil): return nil
            case (let folder?, nil, nil, nil): return .into(folder)
            case (let folder?, let index?, nil, nil): return .at(index, in: folder)
            case (nil, let index?, nil, nil): return .position(index)
            case (nil, nil, let before?, nil): return .before(.named(before))
            case (nil, nil, nil, let after?): return .after(.named(after))
            default: throw fail("\(name) takes \"into\" (with or without \"at\"), \"at\", or one of \"before\" / \"after\"")
            }
        }

        /// The placement a move needs.
        func requiredPlacement() throws(FormatError) -> TreePlacement {
            guard let placement = try placement() else { throw fail("\(name) needs \"into\", \"at\", \"before\" or \"after\"") }
            return placement
        }
    }

    /// An album operation from its line's keys (already checked to be the ones it takes).
    private static func albumOperation(_ line: TreeLine) throws(FormatError) -> AlbumOperation {
        switch line.operation {
        case .createAlbum:
            return .create(name: try line.required("name"), placement: try line.placement() ?? .into(nil))
        case .renameAlbum:
            return .rename(.named(try line.required("album")), to: try line.required("name"))
        case .deleteAlbum:
            return .delete(.named(try line.required("album")), force: try line.flag("force"))
        case .moveAlbum:
            return .move(.named(try line.required("album")), to: try line.requiredPlacement())
        case .lockAlbum, .unlockAlbum:
            return .setLocked(.named(try line.required("album")), line.operation == .lockAlbum)
        case .setAlbumCover:
            return .setCover(.named(try line.required("album")), to: try line.reference("photo"))
        case .createSmartAlbum:
            return .createSmart(name: try line.required("name"), search: try line.search(), placement: try line.placement() ?? .into(nil))
        case .freezeAlbum:
            return .freeze(.named(try line.required("album")))
        case .describeAlbum:
            guard let value = line.object["description"] else { throw line.fail("describe_album needs \"description\" (null clears it)") }
            if case .null = value { return .describe(.named(try line.required("album")), nil) }
            return .describe(.named(try line.required("album")), try line.required("description"))
        default:
            let keys = AlbumSortKey.allCases.map(\.rawValue).joined(separator: ", ")
            guard let key = AlbumSortKey(rawValue: try line.required("by")) else { throw line.fail("\"by\" must be one of \(keys)") }
            return .sort(.named(try line.required("album")), by: key, ascending: !(try line.flag("descending")))
        }
    }

    /// A folder operation from its line's keys (already checked to be the ones it takes).
    private static func folderOperation(_ line: TreeLine) throws(FormatError) -> FolderOperation {
        switch line.operation {
        case .createFolder:
            return .create(name: try line.required("name"), placement: try line.placement() ?? .into(nil))
        case .renameFolder:
            return .rename(.path(try line.required("folder")), to: try line.required("name"))
        case .deleteFolder:
            var contents = FolderContentsOnDelete.refuse
            if let choice = try line.string("contents") {
                guard let chosen = FolderContentsOnDelete(rawValue: choice), chosen != .refuse else {
                    throw line.fail("\"contents\" must be \"move\" (to the folder's place) or \"delete\" (albums deleted, photos kept)")
                }
                contents = chosen
            }
            return .delete(.path(try line.required("folder")), contents: contents, force: try line.flag("force"))
        case .moveFolder:
            return .move(.path(try line.required("folder")), to: try line.requiredPlacement())
        default:
            return .setLocked(.path(try line.required("folder")), line.operation == .lockFolder)
        }
    }

    /// The keys a `mark` line takes, besides `op` and `expect_revision`.
    static let markingKeys: Set<String> = ["items", "from", "title", "caption", "favorite", "rating", "add_keywords", "remove_keywords"]

    /// A `mark` line's marking: its items and what changes on them.
    private static func marking(
        _ object: [String: BatchJSONValue], number: Int, fail: (String) -> FormatError
    ) throws(FormatError) -> ItemMarking {
        let allowed = markingKeys.union(["op", "expect_revision"])
        if let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw fail("\"\(unknown)\" does not apply to mark (it takes: \(markingKeys.sorted().joined(separator: ", ")))")
        }
        var photoAlbum: AlbumReference?
        if let from = object["from"] {
            guard let name = from.string else { throw fail("\"from\" must be a string") }
            photoAlbum = .named(name)
        }
        guard case .array(let itemTexts)? = object["items"] else { throw fail("\"items\" must be an array of references") }
        var items: [ItemReference] = []
        for itemText in itemTexts {
            guard let text = itemText.string else { throw fail("\"items\" must hold strings such as \"Trip:3\"") }
            do {
                items += try ReferenceParser.parse(text, photoAlbum: photoAlbum)
            } catch {
                throw FormatError(line: number, reason: error.description, isBeyondLimits: error.isBeyondLimits)
            }
        }
        func text(_ key: String) throws(FormatError) -> ItemMarksEdit.Change<String?> {
            switch object[key] {
            case nil: return .keep
            case .null?: return .set(nil)
            case let value?:
                guard let text = value.string else { throw fail("\"\(key)\" must be a string or null") }
                return .set(text)
            }
        }
        func keywords(_ key: String) throws(FormatError) -> [String] {
            guard let value = object[key] else { return [] }
            guard case .array(let values) = value else { throw fail("\"\(key)\" must be an array of keywords") }
            var keywords: [String] = []
            for value in values {
                guard let keyword = value.string else { throw fail("\"\(key)\" must hold strings") }
                keywords.append(keyword)
            }
            return keywords
        }
        var edit = ItemMarksEdit()
        edit.title = try text("title")
        edit.caption = try text("caption")
        switch object["favorite"] {
        case nil: break
        case .bool(let flag)?: edit.isFavorite = .set(flag)
        default: throw fail("\"favorite\" must be true or false")
        }
        switch object["rating"] {
        case nil: break
        case .null?: edit.rating = .set(nil)
        case let value?:
            let rating = value.integer.flatMap(ItemRating.stars) ?? value.string.flatMap(ItemRating.init)
            guard let rating else { throw fail("\"rating\" must be 1 to 5 stars, \"rejected\", or null") }
            edit.rating = .set(rating)
        }
        edit.addedKeywords = try keywords("add_keywords")
        edit.removedKeywords = try keywords("remove_keywords")
        return ItemMarking(items: items, edit: edit)
    }

    private static func single(_ references: [ItemReference], line: Int) throws(FormatError) -> ItemReference {
        guard references.count == 1 else { throw FormatError(line: line, reason: "\"before\" / \"after\" name one item, not a range") }
        return references[0]
    }
}
