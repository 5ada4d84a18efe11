import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the changes kept for undo and redo, newest first.",
        discussion: """
            Every change is kept (from the CLI, albums serve, an app, a batch), in
            commit order across every process; undone ones are marked and can be
            redone until a new change is made. The newest 1,000 entries are kept
            (--keep changes that), and at most 1,000,000 row changes over all of
            them; the newest entry is always kept.

            --json prints {"entries": [{"id", "committed_at", "description",
            "albums": [{"id", "name"}], "undone", "row_changes"}], "kept_entries",
            "next_undo", "next_redo"}: the last two are the entries albums undo and
            albums redo would take now, or null.

            Examples:
              albums history
              albums history Trip --limit 5
              albums history --keep 200
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only the changes that touched this album (also a deleted one, by its name).") var album: String?
    @Option(help: "Show at most this many entries.") var limit = 20
    @Option(help: ArgumentHelp("Keep the newest N entries from now on (1…1000000); older ones are dropped.", valueName: "N"))
    var keep: Int?

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit takes a number from 1") }
        if let keep, !(1...HistoryRetention.maximumKeptEntries).contains(keep) {
            throw ValidationError("--keep takes 1…\(HistoryRetention.maximumKeptEntries) entries, not \(keep)")
        }
    }

    func run() throws {
        try list()
    }

    private func list() throws {
        let library = try global.openLibrary(for: keep == nil ? .reading : .writing)
        if let keep { try library.write { try $0.setKeptHistoryEntries(keep) } }
        // One snapshot: the entries and what undo and redo would take agree.
        let (shown, listing) = try library.read { reader in
            let shown = try self.entries(reader)
            return (shown, global.json ? try HistoryListingJSON(entries: shown, reader: reader) : nil)
        }
        if let listing {
            try global.console.result(json: listing)
            return
        }
        if let keep { global.console.result("keeping the newest \(keep) history entries") }
        guard !shown.isEmpty else {
            global.console.result(
                album.map { "no kept change touched \(LibraryError.quoted($0))" }
                    ?? "no changes kept yet: every change from now on is, and albums undo reverses the last")
            return
        }
        let rows: [[String]] = shown.map { entry in
            [String(entry.id), Self.localTime(entry.committedAt), entry.madeBy.description, entry.isUndone ? "undone" : "", entry.description,
             entry.albums.map(\.name).joined(separator: ", ")]
        }
        for line in Table(header: ["#", "WHEN", "BY", "", "WHAT", "ALBUMS"], rows: rows).lines { global.console.result(line) }
    }

    /// The entries to list: of the album named, by id, or, if no album has
    /// that name now, those that named it (an album deleted or renamed since).
    private func entries(_ reader: LibraryReader) throws -> [HistoryEntry] {
        guard let album else { return try reader.history(limit: limit) }
        do {
            return try reader.history(limit: limit, album: try reader.album(named: album).id)
        } catch LibraryError.albumNotFound(let reference) {
            let normalized = album.precomposedStringWithCanonicalMapping
            let named = try reader.history(limit: Int.max).filter { $0.albums.contains { $0.name == normalized } }
            if named.isEmpty { throw LibraryError.albumNotFound(reference) }
            return Array(named.prefix(limit))
        }
    }

    /// `2026-11-23 13:05:09` in the local time zone: sortable, and the same in every locale.
    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Reverse the most recent change not yet undone, exactly.",
        discussion: """
            The same photos come back in the same order, with the same names, locks
            and album order; a deleted album comes back with its items. The undo is
            a change of its own (new revisions, change sets) and albums redo
            re-applies what it reversed. An undo that cannot be exact (a load the
            change began is still running) is refused and writes nothing.

            --json prints {"entry", "changes", "dry_run"}: the entry as albums
            history shows it, and the change sets of undoing it.

            Examples:
              albums undo
              albums undo --dry-run
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Say what would change (the change sets), without writing anything.") var dryRun = false

    func run() throws {
        try replayHistory(undoing: true, dryRun: dryRun, global: global)
    }
}

struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Re-apply the most recently undone change, exactly.",
        discussion: """
            Possible until a new change is made after the undo. --json prints
            {"entry", "changes", "dry_run"}, as albums undo does.

            Example: albums redo
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Say what would change (the change sets), without writing anything.") var dryRun = false

    func run() throws {
        try replayHistory(undoing: false, dryRun: dryRun, global: global)
    }
}

/// Undoes or redoes (or says what that would change) and prints the change sets.
private func replayHistory(undoing: Bool, dryRun: Bool, global: GlobalOptions) throws {
    let library = try global.openLibraryToWrite(dryRun: dryRun, what: undoing ? "an undo" : "a redo")
    let result = try library.write(dryRun: dryRun) { undoing ? try $0.undo() : try $0.redo() }
    if global.json {
        try global.console.result(json: HistoryReplayJSON(result, dryRun: dryRun))
        return
    }
    let verb = undoing ? (dryRun ? "would undo" : "undid") : (dryRun ? "would redo" : "redid")
    global.console.result("\(verb) #\(result.entry.id): \(result.entry.description)")
    for change in result.changes { global.console.result("  " + ChangeSummary(change).text) }
}
