import GRDB

/// The changes in effect that an undo or redo of an entry, out of the
/// history's order (a person's own change, with someone else's after it),
/// must not overwrite:
///
/// - those made after it (a later id), not undone;
/// - for a redo, also what someone else made, undid or redid since it was
///   undone (their entries' steps are newer than its own).
///
/// The holder's replays, and each person's within their own changes, keep
/// to the history's order, where none are found.
struct LaterChanges {
    /// Each such entry's steps, first and last.
    private let ranges: [(first: Int64, last: Int64)]
    private let db: Database

    /// The changes that a replay of entry `id` must not overwrite.
    init(replaying id: Int64, in db: Database) throws {
        self.db = db
        // An undo: the changes after it. A redo: those after it, and others' made since its undo.
        ranges = try Row.fetchAll(
            db,
            sql: """
                SELECT later.first_step, later.last_step FROM history_entry later, history_entry replayed
                WHERE replayed.id = ? AND later.id != replayed.id AND later.last_step >= later.first_step
                    AND ((later.id > replayed.id AND NOT later.is_undone)
                        OR (replayed.is_undone AND later.first_step > replayed.last_step
                            AND NOT (later.actor_kind IS replayed.actor_kind AND later.actor_name IS replayed.actor_name
                                AND later.actor_person_id IS replayed.actor_person_id)))
                ORDER BY later.id
                """,
            arguments: [id]
        ).map { ($0[0], $0[1]) }
    }

    /// Refuses (`refusal`) when a later change touched a row that steps
    /// `first`…`last` name, or changed an album whose items they moved, or
    /// moved items in an album they changed.
    ///
    /// - Returns: Whether any change came later: the replay then checks the
    ///   places it puts items back in (a segment a later change dropped).
    func requireUntouched(_ first: Int64, through last: Int64, refusal: (String) -> LibraryError) throws -> Bool {
        guard !ranges.isEmpty else { return false }
        let replayed = try Touched(steps: first, through: last, in: db)
        for range in ranges {
            let later = try Touched(steps: range.first, through: range.last, in: db)
            if replayed.overlaps(later) {
                throw refusal("a change made since by someone else touched the same items, albums or folders")
            }
        }
        return true
    }

    /// The rows some steps changed, and the albums whose items they moved.
    private struct Touched {
        /// Rows by table (item, segment, album, folder: the step's action
        /// in threes) and id.
        var rows = Set<Key>()
        /// The albums whose items or segments the steps changed.
        var albumsOfItems = Set<AlbumID>()
        /// The albums whose own row the steps changed (created, deleted, renamed, locked, moved).
        var albums = Set<AlbumID>()

        struct Key: Hashable {
            let table: Int
            let id: Int64
        }

        init(steps first: Int64, through last: Int64, in db: Database) throws {
            let steps = try Row.fetchCursor(
                db, sql: "SELECT action, row_id, album_id FROM history_step WHERE id BETWEEN ? AND ?", arguments: [first, last])
            while let step = try steps.next() {
                let action: Int = step[0]
                let id: Int64 = step[1]
                let table = (action - 1) / 3
                rows.insert(Key(table: table, id: id))
                switch table {
                case 1: if let album: Int64 = step[2] { albumsOfItems.insert(AlbumID(rawValue: album)) }
                case 2: albums.insert(AlbumID(rawValue: id))
                default: break
                }
            }
            albumsOfItems.formUnion(try ReplayIntent.albumsOfItems(steps: first, through: last, in: db))
        }

        func overlaps(_ other: Touched) -> Bool {
            !rows.isDisjoint(with: other.rows) || !albums.isDisjoint(with: other.albumsOfItems)
                || !albumsOfItems.isDisjoint(with: other.albums)
        }
    }
}
