import GRDB

/// Whose changes an undo or a redo takes back: the file's holder (the CLI,
/// an app linking the library) reaches the whole history, newest first, as
/// one stack; a person on a server, only the changes they made; a share
/// link, its own.
///
/// An undo takes the scope's newest entry not undone, a redo the one it
/// undid last, and a new change of the scope drops what it could redo (the
/// holder's, every undone entry, as it always has).
struct HistoryScope {
    /// The condition on `history_entry` that selects the scope's entries; nil: every entry.
    private let condition: String?
    private let arguments: StatementArguments

    init(_ principal: Principal) {
        switch principal {
        case .holder:
            (condition, arguments) = (nil, [])
        case .person(let person):
            (condition, arguments) = ("actor_person_id = ?", [person.id.rawValue])
        case .shareLink(let id, _):
            (condition, arguments) = ("actor_kind = 'share_link' AND actor_name = ?", [String(id.rawValue)])
        }
    }

    private func entries(undone: Bool) -> String {
        "is_undone = \(undone ? 1 : 0)" + (condition.map { " AND \($0)" } ?? "")
    }

    /// The entry an undo reverses now: the scope's newest not undone.
    func nextUndo(in db: Database) throws -> Row? {
        try Row.fetchOne(
            db, sql: "SELECT \(HistoryLog.entryColumns) FROM history_entry WHERE \(entries(undone: false)) ORDER BY id DESC LIMIT 1",
            arguments: arguments)
    }

    /// The entry a redo re-applies now: the scope's last undone. An undo
    /// files its steps after every step there is, so the last undone holds
    /// the newest steps (of several that wrote none, the oldest entry).
    func nextRedo(in db: Database) throws -> Row? {
        try Row.fetchOne(
            db,
            sql: "SELECT \(HistoryLog.entryColumns) FROM history_entry WHERE \(entries(undone: true)) ORDER BY first_step DESC, id ASC LIMIT 1",
            arguments: arguments)
    }

    /// Drops the scope's undone entries: its new change makes them unreachable.
    func dropUndoneEntries(in db: Database) throws {
        try HistoryLog.drop(
            Row.fetchAll(db, sql: "SELECT id, first_step, last_step FROM history_entry WHERE \(entries(undone: true))", arguments: arguments),
            in: db)
    }
}
