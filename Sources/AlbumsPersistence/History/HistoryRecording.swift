import Foundation
import GRDB

/// What one write transaction files into the history (migration 0005).
///
/// The schema's triggers note every row change as a `history_step`; this
/// files the steps written since the transaction began under a new
/// `history_entry` named after what was done, or, during undo and redo,
/// leaves them to the replay.
final class HistoryRecording {
    /// The newest step when the transaction began.
    let mark: Int64
    /// The names of the changes made, in order (``LibraryWriter/describeChange(_:)``).
    var descriptions: [String] = []
    /// The folders each of ``descriptions`` names, by id and the path it names them by.
    var folderMentions: [[HistoryEntry.FolderMention]] = []
    /// Set by undo and redo, which file their steps themselves.
    var isReplaying = false
    /// The most albums an entry names (SQLite binds at most 32,766 values).
    static let mentionedAlbumLimit = 10_000

    /// Whether any entry is undone when the transaction begins: then a new
    /// change drops what its maker could redo.
    private let hasUndoneEntries: Bool

    init(in db: Database) throws {
        // One statement for both: this runs in every write transaction. The
        // undone entries have an index of their own (usually empty).
        let row = try Row.fetchOne(
            db,
            cachedSQL: "SELECT (SELECT coalesce(max(id), 0) FROM history_step), EXISTS (SELECT 1 FROM history_entry WHERE is_undone = 1)")
        mark = row?[0] ?? 0
        hasUndoneEntries = row?[1] ?? false
    }

    /// Files the transaction's steps as a new entry made by `principal`, if
    /// it wrote any: a new change clears what its maker could redo, and old
    /// entries are dropped.
    func fileEntry(operations: [[AlbumChangeSet]], madeBy principal: Principal, in db: Database) throws {
        guard !isReplaying else { return }
        let last = try HistoryLog.lastStep(in: db)
        guard last > mark else { return }
        if hasUndoneEntries { try HistoryScope(principal).dropUndoneEntries(in: db) }
        let albums = Self.mentions(in: operations)
        let maker = HistoryEntry.Maker(principal)
        var person: Int64?
        if case .person(let who) = principal { person = who.id.rawValue }
        var arguments: StatementArguments = [description(albums: albums), foldersJSON(), mark + 1, last, maker.kind, maker.storedName, person]
        // SQLite writes the albums' JSON. One album is the usual case; many
        // go through rows of values (bound values are limited: a repair of a
        // huge library names the first ones).
        let sql: String
        switch albums.count {
        case 1:
            arguments += [albums[0].id.rawValue, albums[0].name]
            sql = """
                INSERT INTO history_entry (description, folders, first_step, last_step, actor_kind, actor_name, actor_person_id, albums)
                VALUES (?, ?, ?, ?, ?, ?, ?, json_array(json_object('id', ?, 'name', ?)))
                """
        default:
            let named = albums.prefix(Self.mentionedAlbumLimit)
            for album in named { arguments += [album.id.rawValue, album.name] }
            let albumsJSON = named.isEmpty
                ? "'[]'"
                : "(SELECT json_group_array(json_object('id', column1, 'name', column2)) FROM (VALUES \(Array(repeating: "(?, ?)", count: named.count).joined(separator: ", "))))"
            sql = """
                INSERT INTO history_entry (description, folders, first_step, last_step, actor_kind, actor_name, actor_person_id, albums)
                VALUES (?, ?, ?, ?, ?, ?, ?, \(albumsJSON))
                """
        }
        try db.execute(cachedSQL: sql, arguments: arguments)
        let id = db.lastInsertedRowID
        if id % HistoryRetention.pruneInterval == 0 || last - mark > Int64(HistoryRetention.keptRowChanges / 64) {
            try HistoryLog.prune(in: db)
        }
    }

    /// The folders the entry's words name (those of the first two
    /// changes, which the words quote), as the `folders` column keeps them;
    /// nil when they name none.
    private func foldersJSON() -> String? {
        var mentions: [HistoryEntry.FolderMention] = []
        for mention in folderMentions.prefix(2).joined() where !mentions.contains(mention) { mentions.append(mention) }
        guard !mentions.isEmpty, let json = try? JSONEncoder().encode(mentions) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    private func description(albums: [HistoryEntry.AlbumMention]) -> String {
        switch descriptions.count {
        case 0: "change \(albums.map { LibraryError.quoted($0.name) }.joined(separator: ", "))"
        case 1: descriptions[0]
        case 2: "\(descriptions[0]); \(descriptions[1])"
        default: "\(descriptions.count) changes: \(descriptions[0]); \(descriptions[1]); …"
        }
    }

    /// Each album the change sets name once, by id, with its last name.
    static func mentions(in operations: [[AlbumChangeSet]]) -> [HistoryEntry.AlbumMention] {
        var order: [AlbumID] = []
        var names: [AlbumID: String] = [:]
        for changes in operations.joined() {
            if names.updateValue(changes.albumName, forKey: changes.albumID) == nil { order.append(changes.albumID) }
        }
        return order.map { HistoryEntry.AlbumMention(id: $0, name: names[$0]!) }
    }
}

/// Reads and tidies the history tables.
enum HistoryLog {
    /// The migration that creates the history.
    static let migrationVersion = 5

    /// The newest step's id, 0 if none.
    static func lastStep(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, cachedSQL: "SELECT coalesce(max(id), 0) FROM history_step") ?? 0
    }

    /// Deletes the steps `first`…`last`.
    static func deleteSteps(_ first: Int64, through last: Int64, in db: Database) throws {
        guard last >= first else { return }
        try db.execute(cachedSQL: "DELETE FROM history_step WHERE id BETWEEN ? AND ?", arguments: [first, last])
    }

    /// Drops the oldest entries beyond the kept count and the kept row changes.
    static func prune(in db: Database) throws {
        let kept = try keptEntries(in: db)
        try drop(Row.fetchAll(db, sql: "SELECT id, first_step, last_step FROM history_entry ORDER BY id DESC LIMIT -1 OFFSET ?", arguments: [kept]), in: db)
        var sizes = try Row.fetchAll(db, sql: "SELECT id, first_step, last_step FROM history_entry ORDER BY id")
        var total = sizes.reduce(0) { $0 + stepCount(first: $1[1], last: $1[2]) }
        var dropped: [Row] = []
        while total > HistoryRetention.keptRowChanges, sizes.count > 1 {
            let oldest = sizes.removeFirst()
            total -= stepCount(first: oldest[1], last: oldest[2])
            dropped.append(oldest)
        }
        try drop(dropped, in: db)
        // Steps older than every entry: written by hand, outside albums.
        try db.execute(sql: "DELETE FROM history_step WHERE id < (SELECT min(first_step) FROM history_entry)")
    }

    /// Deletes entries given as rows of (id, first_step, last_step), with their steps.
    static func drop(_ entries: [Row], in db: Database) throws {
        for entry in entries { try drop(entry: entry[0], steps: entry[1], through: entry[2], in: db) }
    }

    /// Deletes one entry with its steps `first`…`last`.
    static func drop(entry id: Int64, steps first: Int64, through last: Int64, in db: Database) throws {
        try deleteSteps(first, through: last, in: db)
        try db.execute(cachedSQL: "DELETE FROM history_entry WHERE id = ?", arguments: [id])
    }

    /// How many steps the range `first`…`last` holds (none when `last` is `first - 1`).
    static func stepCount(first: Int64, last: Int64) -> Int {
        max(0, Int(last - first) + 1)
    }

    static func keptEntries(in db: Database) throws -> Int {
        try Int.fetchOne(db, cachedSQL: "SELECT kept_entries FROM history_setting WHERE id = 1") ?? HistoryRetention.defaultKeptEntries
    }

    // MARK: - Entries

    static let entryColumns = "id, committed_at, description, albums, first_step, last_step, is_undone, actor_kind, actor_name, folders"

    static func entry(from row: Row) -> HistoryEntry {
        HistoryEntry(
            id: row[0], committedAt: Timestamp.date(row[1]), description: row[2], albums: decode(row[3]), isUndone: row[6],
            rowChangeCount: stepCount(first: row[4], last: row[5]), madeBy: HistoryEntry.Maker(kind: row[7], name: row[8]),
            folderMentions: (row[9] as String?).flatMap { try? JSONDecoder().decode([HistoryEntry.FolderMention].self, from: Data($0.utf8)) })
    }

    /// The albums column: a JSON array of {"id": …, "name": …}.
    static func decode(_ text: String) -> [HistoryEntry.AlbumMention] {
        struct Mention: Decodable {
            let id: Int64
            let name: String
        }
        let mentions = (try? JSONDecoder().decode([Mention].self, from: Data(text.utf8))) ?? []
        return mentions.map { HistoryEntry.AlbumMention(id: AlbumID(rawValue: $0.id), name: $0.name) }
    }
}
