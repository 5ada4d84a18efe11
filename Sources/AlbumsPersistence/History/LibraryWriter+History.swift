import Foundation
import GRDB

extension LibraryWriter {
    /// Reverses the most recent change not yet undone, exactly: the same
    /// photos in the same order, the same names, locks and album order (a
    /// deleted album comes back with its items, under its id).
    ///
    /// For the file's holder that is the library's latest change. For a
    /// person (``LibraryReader/act(as:)``) it is the latest change they made
    /// themselves; if someone else has changed the same items, albums or
    /// folders since, it is refused with that reason and nothing is written.
    ///
    /// It is a change like any other, with its change sets and new
    /// revisions, and can itself be reversed by ``redo()``.
    ///
    /// ```swift
    /// let undone = try library.write { try $0.undo() }
    /// for changes in undone.changes { collectionView.apply(changes) }
    /// ```
    ///
    /// - Throws: ``LibraryError/nothingToUndo``, or
    ///   ``LibraryError/cannotUndo(entry:description:reason:)`` with nothing
    ///   written when it cannot be exact (a load it began is still running,
    ///   someone else changed the same items since).
    @discardableResult
    public func undo() throws -> HistoryReplayResult {
        guard let row = try HistoryScope(principal).nextUndo(in: db) else { throw LibraryError.nothingToUndo }
        let entry = HistoryLog.entry(from: row)
        try requireReplaying(entry, steps: row["first_step"], through: row["last_step"], verb: "undo")
        let description = describedToPrincipal(entry)
        return try replay(row, undoing: true) { .cannotUndo(entry: entry.id, description: description, reason: $0) }
    }

    /// Re-applies the most recently undone change, exactly as it was: for a
    /// person, the one they undid last.
    ///
    /// A change made after an undo clears what its maker could redo (the
    /// holder's, everything undone).
    ///
    /// - Throws: ``LibraryError/nothingToRedo``, or
    ///   ``LibraryError/cannotRedo(entry:description:reason:)`` with nothing written.
    @discardableResult
    public func redo() throws -> HistoryReplayResult {
        guard let row = try HistoryScope(principal).nextRedo(in: db) else { throw LibraryError.nothingToRedo }
        let entry = HistoryLog.entry(from: row)
        try requireReplaying(entry, steps: row["first_step"], through: row["last_step"], verb: "redo")
        let description = describedToPrincipal(entry)
        return try replay(row, undoing: false) { .cannotRedo(entry: entry.id, description: description, reason: $0) }
    }

    /// The entry's description for a refusal, in words that name only the
    /// folders the principal sees (its albums they see, or the replay was
    /// refused before): a person replays only their own changes.
    private func describedToPrincipal(_ entry: HistoryEntry) -> String {
        (try? describedToReader(entry).description) ?? "your latest change"
    }

    /// Replays an entry's steps and files the replay's own steps under it,
    /// for the way back.
    private func replay(_ row: Row, undoing: Bool, refusal: @escaping (String) -> LibraryError) throws -> HistoryReplayResult {
        let id: Int64 = row["id"]
        let (first, last): (Int64, Int64) = (row["first_step"], row["last_step"])
        let isOutOfOrder = try LaterChanges(replaying: id, in: db).requireUntouched(first, through: last, refusal: refusal)
        history?.isReplaying = true
        let mark = try HistoryLog.lastStep(in: db)
        let (_, changes) = try recordingOperation {
            var replay = HistoryReplay(writer: self, refusal: refusal)
            replay.isOutOfOrder = isOutOfOrder
            try replay.replay(first: first, through: last)
        }
        // Read before the old steps go: they may be the newest, and the replay may have written none.
        let replayed = try HistoryLog.lastStep(in: db)
        try HistoryLog.deleteSteps(first, through: last, in: db)
        try db.execute(
            sql: "UPDATE history_entry SET first_step = ?, last_step = ?, is_undone = ? WHERE id = ?",
            arguments: [mark + 1, max(mark, replayed), undoing, id])
        let entry = try Row.fetchOne(db, sql: "SELECT \(HistoryLog.entryColumns) FROM history_entry WHERE id = ?", arguments: [id])!
        return HistoryReplayResult(entry: try describedToReader(HistoryLog.entry(from: entry)), changes: changes)
    }

    /// Keeps the newest `count` history entries from now on (1,000 unless
    /// said otherwise), dropping older ones now.
    ///
    /// - Throws: ``LibraryError/historyLimitOutOfRange(_:)`` outside 1…1,000,000.
    public func setKeptHistoryEntries(_ count: Int) throws {
        guard (1...HistoryRetention.maximumKeptEntries).contains(count) else { throw LibraryError.historyLimitOutOfRange(count) }
        try db.execute(
            sql: "INSERT INTO history_setting (id, kept_entries) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET kept_entries = excluded.kept_entries",
            arguments: [count])
        try HistoryLog.prune(in: db)
    }

    /// Runs `body` without filing its row changes in the history: a load's
    /// own progress (its placeholder committing, failing or being cancelled)
    /// belongs to the import that began it, not to a change of its own.
    func withoutHistory<T>(_ body: () throws -> T) throws -> T {
        guard history != nil else { return try body() }
        let before = try HistoryLog.lastStep(in: db)
        let result = try body()
        try HistoryLog.deleteSteps(before + 1, through: try HistoryLog.lastStep(in: db), in: db)
        return result
    }
}

extension LibraryReader {
    /// The history, newest first: every change kept, undone ones included
    /// (they are the newest, and can be redone).
    ///
    /// - Parameters:
    ///   - limit: At most this many entries.
    ///   - album: Only the entries that touched this album (by id, so
    ///     through renames); nil for all.
    public func history(limit: Int = 20, album: AlbumID? = nil) throws -> [HistoryEntry] {
        guard limit > 0, try hasHistory() else { return [] }
        let rows = try Row.fetchCursor(db, sql: "SELECT \(HistoryLog.entryColumns) FROM history_entry ORDER BY id DESC")
        var entries: [HistoryEntry] = []
        // A person sees the changes to albums they can see, and no others.
        let visible = try visibleAlbumIDs()
        let folders = try folderWordsAsSeen()
        while entries.count < limit, let row = try rows.next() {
            let entry = HistoryLog.entry(from: row)
            if let album, !entry.albums.contains(where: { $0.id == album }) { continue }
            if let visible, !Self.isSeen(entry, with: visible) { continue }
            entries.append(folders.map { Self.worded(entry, for: $0) } ?? entry)
        }
        return entries
    }

    /// How a principal who does not see every folder reads the folders
    /// entries name (nil: the holder and admins, who read them as written).
    private struct FolderWords {
        /// Each folder's path as they see it.
        let seen: [FolderID: String]
        /// For words written before the folders they name were kept by id:
        /// each folder's path as it stands now (from the top level) and as
        /// they see it, where the two differ.
        let byCurrentPath: [(written: String, seen: String)]
    }

    /// `entry` in words that name only folders its reader sees, each by its
    /// path as they see it now; a folder they do not see, in words that name
    /// nothing. The folders the entry kept by id are reworded whatever their
    /// paths were when it was written (so an old name never shows). An
    /// older entry's are reworded by the paths the folders have now, and
    /// where its words still quote anything else (a folder's name before a
    /// rename), it is told in words that name only its albums.
    private static func worded(_ entry: HistoryEntry, for words: FolderWords) -> HistoryEntry {
        guard let mentions = entry.folderMentions else {
            let reworded = withoutUnseenPositions(rewording(entry.description, with: words.byCurrentPath))
            let known = entry.albums.map(\.name) + words.seen.values + [unseenFolder]
            let unknown = known.reduce(reworded) { rest, name in rest.replacingOccurrences(of: LibraryError.quoted(name), with: "") }
            guard unknown.contains("'") else { return entry.described(as: reworded) }
            let albums = entry.albums.map { LibraryError.quoted($0.name) }.joined(separator: ", ")
            return entry.described(as: albums.isEmpty ? "a change to folders" : "a change to \(albums)")
        }
        let pairs = mentions.map { (written: $0.path, seen: words.seen[FolderID(rawValue: $0.id)] ?? unseenFolder) }
            .filter { $0.written != $0.seen }
            .sorted { $0.written.count > $1.written.count }
        return entry.described(as: withoutUnseenPositions(rewording(entry.description, with: pairs)))
    }

    /// `words` without the positions of places whose other children the
    /// reader may not see: the top level and a folder not shared with them
    /// ("to the top level at position 3" counts every album and folder
    /// there). In a folder they see, they see every child, and its
    /// positions stay.
    private static func withoutUnseenPositions(_ words: String) -> String {
        let places = ["to the top level", "into \(LibraryError.quoted(unseenFolder))"]
        return places.reduce(words) { words, place in
            let positioned = place + " at position "
            var kept = ""
            var rest = Substring(words)
            while let found = rest.range(of: positioned) {
                let number = rest[found.upperBound...].prefix { ("0"..."9").contains($0) }
                kept += rest[..<found.lowerBound] + (number.isEmpty ? positioned : place)
                rest = rest[number.endIndex...]
            }
            return kept + rest
        }
    }

    /// The folder paths as the principal sees them, beside those the file
    /// holds; nil when they see every folder. Longest paths first, so that a
    /// folder's path is reworded before its parent's.
    private func folderWordsAsSeen() throws -> FolderWords? {
        guard rights != nil, !principal.holdsEveryRight else { return nil }
        let seen = try tree().folderPaths()
        var written: [FolderID: String] = [:]
        func path(of id: FolderID, parents: [FolderID: (String, FolderID?)]) -> String {
            if let known = written[id] { return known }
            guard let (name, parent) = parents[id] else { return "" }
            let full = parent.map { path(of: $0, parents: parents) + "/" + name } ?? name
            written[id] = full
            return full
        }
        var parents: [FolderID: (String, FolderID?)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, parent_id FROM folder") {
            parents[FolderID(rawValue: row[0])] = (row[1], (row[2] as Int64?).map(FolderID.init(rawValue:)))
        }
        let byCurrentPath = parents.keys.map { id in (written: path(of: id, parents: parents), seen: seen[id] ?? Self.unseenFolder) }
            .filter { $0.written != $0.seen }
            .sorted { $0.written.count > $1.written.count }
        return FolderWords(seen: seen, byCurrentPath: byCurrentPath)
    }

    /// `entry` in words that name only the folders the principal sees.
    func describedToReader(_ entry: HistoryEntry) throws -> HistoryEntry {
        try folderWordsAsSeen().map { Self.worded(entry, for: $0) } ?? entry
    }

    /// `words` with each quoted folder path reworded as its reader sees it.
    private static func rewording(_ words: String, with folders: [(written: String, seen: String)]) -> String {
        folders.reduce(words) { words, folder in
            words.replacingOccurrences(of: LibraryError.quoted(folder.written), with: LibraryError.quoted(folder.seen))
        }
    }

    /// The entry ``LibraryWriter/undo()`` would reverse now, if any: for a
    /// button that says what it will do.
    public func nextUndo() throws -> HistoryEntry? {
        try hasHistory() ? try seenByPrincipal(try HistoryScope(principal).nextUndo(in: db).map(HistoryLog.entry)) : nil
    }

    /// `entry`, if the principal may see every album it names (a change to
    /// folders alone: if they are an admin), in words that name only the
    /// folders they see; else nil.
    private func seenByPrincipal(_ entry: HistoryEntry?) throws -> HistoryEntry? {
        guard let entry, let visible = try visibleAlbumIDs() else { return entry }
        guard Self.isSeen(entry, with: visible) else { return nil }
        return try describedToReader(entry)
    }

    /// Whether someone who sees the albums `visible` sees `entry`.
    private static func isSeen(_ entry: HistoryEntry, with visible: Set<AlbumID>) -> Bool {
        !entry.albums.isEmpty && entry.albums.allSatisfy { visible.contains($0.id) }
    }

    /// The entry ``LibraryWriter/redo()`` would re-apply now, if any.
    public func nextRedo() throws -> HistoryEntry? {
        try hasHistory() ? try seenByPrincipal(try HistoryScope(principal).nextRedo(in: db).map(HistoryLog.entry)) : nil
    }

    /// How many history entries the library keeps.
    public func keptHistoryEntries() throws -> Int {
        try hasHistory() ? try HistoryLog.keptEntries(in: db) : HistoryRetention.defaultKeptEntries
    }

    /// Whether the file has the history tables (a library at an older
    /// schema opened read-only has not).
    func hasHistory() throws -> Bool {
        try db.hasTable("history_entry")
    }
}
