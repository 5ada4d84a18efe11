import AlbumsTestSupport
import Foundation

/// One command the crash harness runs and may kill, with every state the
/// contract allows afterwards.
struct CrashStep {
    enum Kind: String, CaseIterable {
        /// `albums apply`: many transfers in one transaction.
        case batch
        /// `albums apply` whose last operation is refused: nothing may change.
        case refusedBatch = "refused batch"
        /// `albums apply` of folder operations: the tree built and rearranged in one transaction.
        case tree
        /// `albums move` of a range.
        case move
        /// `albums album sort`.
        case sort
        /// `albums import`: placeholders in one transaction, then one commit per file.
        case load = "import"
        /// `albums pending resume` of stale placeholders.
        case resume
        /// `albums init` of a new file.
        case initialize = "init"
        /// `albums undo`: back to the state before the newest change kept.
        case undo
        /// `albums redo`: forward to the state the newest undo left.
        case redo
        /// `albums share add|remove`, `user disable|enable`, `link create`:
        /// who may do what, one transaction each, beside the albums.
        case sharing
    }

    let kind: Kind
    let arguments: [String]
    /// The exit status when the command is not killed.
    let expectedStatus: Int32
    /// The state when the command completes.
    let completed: LibraryModel
    /// For loads: every placeholder in place, none committed. A kill may leave
    /// each of the load's slots either placed or committed.
    let placed: LibraryModel?
    /// Files this step brings into the library.
    let files: [PhotoFile]
    /// For sharing steps: who may do what once it completes (the albums
    /// stay as they are). Every other step leaves it as it was.
    var sharing: [String]? = nil
}

/// Generates steps from the model, with the model's prediction of each.
struct CrashWorkload {
    var random: SplitMix64
    var factory: PhotoFactory
    let library: String
    let batchFile: String
    /// Folders made so far: each new one gets the next number (F1, F2, …).
    var folderCount = 0
    /// Every file imported so far, by content: imports sometimes bring one
    /// again, which the library must reuse.
    var knownFiles: [String: PhotoFile] = [:]

    mutating func next(_ model: LibraryModel) throws -> CrashStep {
        let placeholders = model.albums.values.contains { $0.contains { if case .placeholder = $0 { true } else { false } } }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<32: return try batch(model, refused: false)
        case 32..<40: return try tree(model)
        case 40..<48: return try batch(model, refused: true)
        case 48..<60: return move(model)
        case 60..<66: return sort(model)
        case 66..<90: return try load(model)
        case 90..<96 where placeholders: return resume(model)
        case 92..<96: return try sharing(model)
        case 96..<100: return CrashStep(kind: .initialize, arguments: [], expectedStatus: 0, completed: model, placed: nil, files: [])
        default: return try batch(model, refused: false)
        }
    }

    // MARK: Sharing

    /// The people the harness's library holds (made before the first step).
    static let people = ["p1", "p2", "p3", "p4"]

    /// One change of who may do what, and the state it leaves, as `ObservedLibrary.sharing` reads it.
    private mutating func sharing(_ model: LibraryModel) throws -> CrashStep {
        var lines = Set(try ObservedLibrary.read(library).sharing)
        let person = Self.people.randomElement(using: &random)!
        let album = model.albumOrder.randomElement(using: &random)!
        let granted = lines.first { $0.hasPrefix("grant \(person) \(album) ") }
        var arguments = ["--library", library]
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            let role = ["viewer", "editor", "owner"].randomElement(using: &random)!
            arguments += ["share", "add", album, "--with", person, "--role", role]
            if let granted { lines.remove(granted) }
            lines.insert("grant \(person) \(album) \(role)")
        case 45..<65:
            arguments += ["share", "remove", album, "--with", person]
            if let granted { lines.remove(granted) }
        case 65..<85:
            let disabled = lines.contains("disabled \(person)")
            arguments += ["user", disabled ? "enable" : "disable", person]
            if disabled { lines.remove("disabled \(person)") } else { lines.insert("disabled \(person)") }
        default:
            arguments += ["link", "create", album]
            let count = lines.first { $0.hasPrefix("links ") }.flatMap { Int($0.dropFirst(6)) } ?? 0
            lines.remove("links \(count)")
            lines.insert("links \(count + 1)")
        }
        return CrashStep(kind: .sharing, arguments: arguments, expectedStatus: 0, completed: model, placed: nil, files: [], sharing: lines.sorted())
    }

    // MARK: The tree

    /// A batch of folder operations: folders made, albums and folders
    /// filed and moved, folders deleted with what they hold moved up.
    private mutating func tree(_ model: LibraryModel) throws -> CrashStep {
        var next = model
        var lines: [String] = []
        func into(_ folder: String) -> String { folder.isEmpty ? "/" : next.path(of: folder) }
        for _ in 0..<Int.random(in: 5...40, using: &random) {
            let folders = next.children.keys.filter { !$0.isEmpty }.sorted()
            let destinations = [""] + folders
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30 where folders.count < 60:
                folderCount += 1
                let name = "F\(folderCount)"
                let parent = destinations.randomElement(using: &random)!
                lines.append(try json(["op": "create_folder", "name": name, "into": into(parent)]))
                next.createFolder(name, in: parent)
            case 30..<65:
                let album = next.albumOrder.randomElement(using: &random)!
                let destination = destinations.randomElement(using: &random)!
                guard next.parent(of: .album(album)) != destination else { continue }
                lines.append(try json(["op": "move_album", "album": album, "into": into(destination)]))
                next.move(.album(album), into: destination)
            case 65..<85 where !folders.isEmpty:
                let folder = folders.randomElement(using: &random)!
                let destination = destinations.filter { !$0.isEmpty ? !next.isInside($0, folder) : true }.randomElement(using: &random)!
                guard next.parent(of: .folder(folder)) != destination else { continue }
                lines.append(try json(["op": "move_folder", "folder": next.path(of: folder), "into": into(destination)]))
                next.move(.folder(folder), into: destination)
            case 85..<100 where !folders.isEmpty:
                let folder = folders.randomElement(using: &random)!
                lines.append(try json(["op": "delete_folder", "folder": next.path(of: folder), "contents": "move"]))
                next.deleteFolderMovingContents(folder)
            default:
                continue
            }
        }
        try lines.joined(separator: "\n").write(toFile: batchFile, atomically: false, encoding: .utf8)
        return CrashStep(kind: .tree, arguments: ["--library", library, "apply", batchFile], expectedStatus: 0, completed: next, placed: nil, files: [])
    }

    // MARK: Transfers

    private mutating func batch(_ model: LibraryModel, refused: Bool) throws -> CrashStep {
        var next = model
        var lines: [String] = []
        for _ in 0..<Int.random(in: 20...200, using: &random) {
            lines.append(try transfer(&next))
        }
        if refused {
            // Names a position past the end: the whole batch must be refused, earlier lines included.
            let album = model.albumOrder.randomElement(using: &random)!
            lines.append(try json(["op": "remove", "items": ["\(album):\(next.albums[album]!.count + 3)"]]))
        }
        try lines.joined(separator: "\n").write(toFile: batchFile, atomically: false, encoding: .utf8)
        return CrashStep(
            kind: refused ? .refusedBatch : .batch, arguments: ["--library", library, "apply", batchFile],
            expectedStatus: refused ? 1 : 0, completed: refused ? model : next, placed: nil, files: [])
    }

    /// One random transfer the contract allows, applied to the model, as a JSON line.
    private mutating func transfer(_ model: inout LibraryModel) throws -> String {
        let source = model.albumOrder.filter { !model.photoIndexes(in: $0).isEmpty }.randomElement(using: &random)!
        let photoIndexes = model.photoIndexes(in: source)
        let roll = Int.random(in: 0..<100, using: &random)
        // Keep the albums from growing without end: removals win once they are large.
        let total = model.albums.values.reduce(0) { $0 + $1.count }
        if roll < 10 || (roll < 25 && total > 2500) {
            let indexes = pick(from: photoIndexes, upTo: 6)
            model.remove(indexes, of: source)
            return try json(["op": "remove", "items": indexes.map { "\(source):\($0 + 1)" }])
        }
        if roll < 25, photoIndexes.count >= 2 {
            let pair = pick(from: photoIndexes, upTo: 2, atLeast: 2)
            model.swap(pair[0], pair[1], in: source)
            return try json(["op": "swap", "items": pair.map { "\(source):\($0 + 1)" }])
        }
        var destination = model.albumOrder.randomElement(using: &random)!
        var indexes = pick(from: photoIndexes, upTo: 8)
        if destination != source {
            // A photo stands at most once in an album: leave out those already there.
            indexes = indexes.filter { index in
                guard case .photo(let sha) = model.albums[source]![index] else { return false }
                return !model.contains(sha, in: destination)
            }
        }
        let copying = roll < 45 && destination != source && !indexes.isEmpty
        if indexes.isEmpty {
            destination = source
            indexes = pick(from: photoIndexes, upTo: 8)
        }
        let remaining = model.albums[destination]!.count - (copying || destination != source ? 0 : indexes.count)
        let position = Int.random(in: 0...remaining, using: &random)
        let items = references(indexes, in: source)
        if copying {
            model.copy(indexes, of: source, to: destination, at: position)
            return try json(["op": "copy", "items": items, "to": destination, "at": position + 1])
        }
        model.move(indexes, of: source, to: destination, at: position)
        return try json(["op": "move", "items": items, "to": destination, "at": position + 1])
    }

    private mutating func move(_ model: LibraryModel) -> CrashStep {
        var next = model
        let source = model.albumOrder.max { model.albums[$0]!.count < model.albums[$1]!.count }!
        let count = model.albums[source]!.count
        let start = Int.random(in: 0..<count, using: &random)
        let end = min(count - 1, start + Int.random(in: 0..<300, using: &random))
        let indexes = Array(start...end)
        if indexes.contains(where: { if case .placeholder = model.albums[source]![$0] { true } else { false } }) {
            return sort(model)
        }
        let position = Int.random(in: 0...(count - indexes.count), using: &random)
        next.move(indexes, of: source, to: source, at: position)
        return CrashStep(
            kind: .move, arguments: ["--library", library, "move", "\(source):\(start + 1)-\(end + 1)", "--to", source, "--at", "\(position + 1)"],
            expectedStatus: 0, completed: next, placed: nil, files: [])
    }

    private mutating func sort(_ model: LibraryModel) -> CrashStep {
        var next = model
        let album = model.albumOrder.randomElement(using: &random)!
        let ascending = Bool.random(using: &random)
        next.sortByName(album, ascending: ascending)
        return CrashStep(
            kind: .sort, arguments: ["--library", library, "album", "sort", album, "--by", "name"] + (ascending ? [] : ["--descending"]),
            expectedStatus: 0, completed: next, placed: nil, files: [])
    }

    // MARK: Loads

    private mutating func load(_ model: LibraryModel) throws -> CrashStep {
        let destination = model.albumOrder.randomElement(using: &random)!
        var files = try factory.make(Int.random(in: 5...40, using: &random))
        // Now and then a file the library already holds (in another album): it must be reused.
        // Never one still loading elsewhere: the harness tells a committed load by its
        // placeholder's source leaving, which two pending placeholders of one source would hide.
        let loading = Set(model.albums.values.joined().compactMap { if case .placeholder(let source) = $0 { source } else { nil } })
        if let again = knownFiles.values.filter({ !model.contains($0.sha256, in: destination) && !loading.contains($0.path) })
            .sorted(by: { $0.path < $1.path }).randomElement(using: &random)
        {
            files.insert(again, at: Int.random(in: 0...files.count, using: &random))
        }
        for file in files { knownFiles[file.sha256] = file }
        let position = Int.random(in: 0...model.albums[destination]!.count, using: &random)
        var placed = model, completed = model
        for file in files {
            placed.contentOf[file.path] = file.sha256
            completed.contentOf[file.path] = file.sha256
            placed.nameOf[file.sha256] = placed.nameOf[file.sha256] ?? file.name
            completed.nameOf[file.sha256] = placed.nameOf[file.sha256]
        }
        placed.albums[destination]!.insert(contentsOf: files.map { .placeholder(source: $0.path) }, at: position)
        completed.albums[destination]!.insert(contentsOf: files.map { .photo(sha256: $0.sha256) }, at: position)
        return CrashStep(
            kind: .load,
            arguments: ["--library", library, "import"] + files.map(\.path) + ["--to", destination, "--at", "\(position + 1)", "--jobs", "2"],
            expectedStatus: 0, completed: completed, placed: placed, files: files)
    }

    private func resume(_ model: LibraryModel) -> CrashStep {
        let files = model.albums.values.joined().compactMap { slot -> PhotoFile? in
            guard case .placeholder(let source) = slot else { return nil }
            return PhotoFile(path: source, sha256: model.contentOf[source]!)
        }
        return CrashStep(
            kind: .resume, arguments: ["--library", library, "pending", "resume"],
            expectedStatus: 0, completed: model.committingEveryLoad(), placed: model, files: files)
    }

    // MARK: Helpers

    /// Up to `limit` distinct elements, in random order.
    private mutating func pick(from candidates: [Int], upTo limit: Int, atLeast minimum: Int = 1) -> [Int] {
        let count = Int.random(in: minimum...max(minimum, min(limit, candidates.count)), using: &random)
        return Array(candidates.shuffled(using: &random).prefix(count))
    }

    /// Position references, merging runs into ranges (`ALBUM:N-M`) as a user would write them.
    private func references(_ indexes: [Int], in album: String) -> [String] {
        var references: [String] = []
        var start = 0
        while start < indexes.count {
            var end = start
            while end + 1 < indexes.count && indexes[end + 1] == indexes[end] + 1 { end += 1 }
            references.append(end == start ? "\(album):\(indexes[start] + 1)" : "\(album):\(indexes[start] + 1)-\(indexes[end] + 1)")
            start = end + 1
        }
        return references
    }

    private func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
