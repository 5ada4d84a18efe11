import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

/// Where `move` and `copy` put the items.
struct DestinationOptions: ParsableArguments {
    @Option(help: "The destination album; alone, the items go at its end.") var to: String?
    @Option(help: "With --to: the 1-based position of the first item afterwards.") var at: Int?
    @Option(help: ArgumentHelp("Put the items just before this item (ALBUM:N or id:P).", valueName: "REF")) var before: String?
    @Option(help: ArgumentHelp("Put the items just after this item (ALBUM:N or id:P).", valueName: "REF")) var after: String?

    func validate() throws {
        let given = [to != nil || at != nil ? "--to/--at" : nil, before != nil ? "--before" : nil, after != nil ? "--after" : nil].compactMap { $0 }
        if given.isEmpty { throw ValidationError("say where the items go: --to ALBUM [--at N], --before REF or --after REF") }
        if given.count > 1 {
            throw ValidationError("\(given.joined(separator: " and ")) cannot be used together: give --to ALBUM [--at N], --before REF or --after REF")
        }
        if at != nil && to == nil { throw ValidationError("--at needs --to ALBUM") }
        if let at, at < 1 { throw ValidationError("--at \(at): positions start at 1") }
    }

    func destination(from: String?) throws -> Destination {
        if let to { return at.map { .at($0 - 1, in: .named(to)) } ?? .into(.named(to)) }
        if let before { return .before(try CommandReferences.single(before, from: from)) }
        return .after(try CommandReferences.single(after!, from: from))
    }
}

extension WriteOptions {
    /// `operation` with the revisions the caller expects, a bare R going to
    /// the album the operation's parsed references name.
    func expecting(_ operation: TransferOperation) throws -> TransferOperation {
        var operation = operation
        operation.expectedRevisions = try revisions(target: operation.targetAlbum)
        return operation
    }
}

/// Performs an operation (or its dry run) and prints its change sets.
///
/// - Parameter done: What happened, in the past tense and as a dry run
///   would say it: ("moved 2 items", "move 2 items").
func performTransfer(_ operation: TransferOperation, options: WriteOptions, global: GlobalOptions, done: (past: String, planned: String)) throws {
    let operation = try options.expecting(operation)
    let session = TransferSession(library: try global.openLibrary(for: options.dryRun ? .reading : .writing))
    let verdict: Proposal.Verdict
    let changes: [AlbumChangeSet]
    if options.dryRun {
        // A dry run is the operation's proposal: planned with reads only, so
        // it works on a library that cannot be written, and says exactly
        // what a page asking while a drag hovers would hear.
        let proposal = try session.propose(operation)
        if case .forbidden(let reason) = proposal.verdict { throw reason }
        (verdict, changes) = (proposal.verdict, proposal.changes)
    } else {
        let result = try session.perform(operation)
        (verdict, changes) = (result.outcome.verdict, result.changes)
    }
    if global.json {
        try global.console.result(json: WriteJSON(changes: changes.map(ChangeJSON.init), dryRun: options.dryRun, verdict: verdict.name))
        return
    }
    if verdict == .noOp {
        global.console.result("nothing to do: the items already stand there")
        return
    }
    global.console.result(options.dryRun ? "would " + done.planned : done.past)
    for change in changes { global.console.result("  " + ChangeSummary(change).text) }
}

/// One album's change set in a line: "Trip (revision 8): removed 1, 4; inserted 2–3".
struct ChangeSummary {
    let text: String

    init(_ change: AlbumChangeSet) {
        func ranges(_ positions: [Int]) -> String {
            var parts: [String] = []
            var start: Int?
            var previous: Int?
            for position in positions.sorted().map({ $0 + 1 }) + [Int.max] {
                if let last = previous, position == last + 1 {
                    previous = position
                    continue
                }
                if let first = start, let last = previous { parts.append(first == last ? "\(first)" : "\(first)–\(last)") }
                start = position
                previous = position
            }
            return parts.joined(separator: ", ")
        }
        var parts: [String] = []
        if !change.removed.isEmpty { parts.append("removed \(ranges(change.removed))") }
        if !change.inserted.isEmpty { parts.append("inserted \(ranges(change.inserted))") }
        let moves = change.moved.filter { $0.from != $0.to }
        if !moves.isEmpty { parts.append("moved " + moves.map { "\($0.from + 1)→\($0.to + 1)" }.joined(separator: ", ")) }
        if !change.updated.isEmpty { parts.append("updated \(ranges(change.updated))") }
        // An album moved, renamed or locked, with no item changed: say what happened to it.
        if parts.isEmpty && !change.albumEvents.isEmpty { parts.append("album " + change.albumEvents.map(\.rawValue).joined(separator: ", ")) }
        text = "\(change.albumName) (revision \(change.revision)): " + (parts.isEmpty ? "no position changed" : parts.joined(separator: "; "))
    }
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move items, from any albums, to stand together in the order given.",
        discussion: """
            Within one album this reorders. --at counts positions without the items
            being moved: valid positions are 1 to (count without them) + 1.

            Examples:
              albums move Trip:3 --to Trip --at 1
              albums move Trip:2-4 Trip:9 --to "Photo book" --at 5
              albums move id:42 --from Trip --before "Photo book:1"
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Items: ALBUM:N, ALBUM:N-M or id:P.") var items: [String]
    @Option(help: "The album of id:P references, when the photo is in several.") var from: String?
    @OptionGroup var destination: DestinationOptions
    @OptionGroup var write: WriteOptions

    func run() throws {
        let operation = TransferOperation.move(
            try CommandReferences.parse(items, from: from), to: try destination.destination(from: from))
        let items = "\(operation.sources.count) item\(operation.sources.count == 1 ? "" : "s")"
        try performTransfer(operation, options: write, global: global, done: ("moved \(items)", "move \(items)"))
    }
}

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Add the items' photos to an album; the items stay where they are.",
        discussion: """
            id:P may name any photo of the library, in an album or not.

            Examples:
              albums copy Trip:1-3 --to Portfolio
              albums copy id:42 id:7 --to "Photo book" --at 1
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Items: ALBUM:N, ALBUM:N-M or id:P.") var items: [String]
    @OptionGroup var destination: DestinationOptions
    @OptionGroup var write: WriteOptions

    func run() throws {
        let operation = TransferOperation.copy(
            try CommandReferences.parse(items, from: nil), to: try destination.destination(from: nil))
        let photos = "\(operation.sources.count) photo\(operation.sources.count == 1 ? "" : "s")"
        try performTransfer(operation, options: write, global: global, done: ("copied \(photos)", "copy \(photos)"))
    }
}

struct SwapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swap",
        abstract: "Exchange the places of two items, in one album or across two.",
        discussion: """
            Examples:
              albums swap Trip:1 Trip:9
              albums swap Trip:2 "Photo book:2"
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The first item.") var first: String
    @Argument(help: "The second item.") var second: String
    @Option(help: "The album of id:P references, when the photo is in several.") var from: String?
    @OptionGroup var write: WriteOptions

    func run() throws {
        let operation = TransferOperation.swap(
            try CommandReferences.single(first, from: from), try CommandReferences.single(second, from: from))
        try performTransfer(operation, options: write, global: global, done: ("swapped 2 items", "swap 2 items"))
    }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take items out of their albums; their photos stay in the library.",
        discussion: """
            Removing a placeholder cancels its load.

            Examples:
              albums remove Trip:4
              albums remove Trip:2-5 --expect-revision 12
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Items: ALBUM:N, ALBUM:N-M or id:P.") var items: [String]
    @Option(help: "The album of id:P references, when the photo is in several.") var from: String?
    @OptionGroup var write: WriteOptions

    func run() throws {
        let operation = TransferOperation.remove(try CommandReferences.parse(items, from: from))
        let items = "\(operation.sources.count) item\(operation.sources.count == 1 ? "" : "s")"
        try performTransfer(operation, options: write, global: global, done: ("removed \(items)", "remove \(items)"))
    }
}
