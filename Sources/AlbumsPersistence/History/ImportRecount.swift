import GRDB

extension LibraryWriter {
    /// Says in each import's history entry how many files it brought in,
    /// once the loads of `placeholders` are done: what its undo takes out,
    /// not what it was given (a load that failed, was skipped, cancelled or
    /// found its photo already in the album leaves no item). An import
    /// begun afresh and one whose stale placeholders another run filled
    /// are both counted again. An import that brought nothing and holds no
    /// placeholder any more (the same folder imported again, say) leaves no
    /// entry: there is nothing to undo.
    ///
    /// Looks among the newest imports only (their entries hold the
    /// placeholders' insertions); a load whose entry was dropped from the
    /// history has nothing to recount.
    package func recountImports(holding placeholders: [AlbumItemID]) throws {
        guard try hasHistory(), !placeholders.isEmpty else { return }
        var remaining = Set(placeholders.map(\.rawValue))
        let entries = try Row.fetchAll(
            db,
            sql: """
                SELECT id, description, first_step, last_step FROM history_entry
                WHERE description LIKE 'import %' ORDER BY id DESC LIMIT \(Self.importsRecounted)
                """)
        for entry in entries where !remaining.isEmpty {
            let (id, description, first, last): (Int64, String, Int64, Int64) = (entry[0], entry[1], entry[2], entry[3])
            let inserted = try Int64.fetchAll(
                db, cachedSQL: "SELECT row_id FROM history_step WHERE id BETWEEN ? AND ? AND action = 1", arguments: [first, last])
            guard inserted.contains(where: remaining.contains) else { continue }
            remaining.subtract(inserted)
            let (brought, left) = try Row.fetchOne(
                db,
                cachedSQL: """
                    SELECT count(i.photo_id), count(i.id) FROM history_step s JOIN album_item i ON i.id = s.row_id
                    WHERE s.id BETWEEN ? AND ? AND s.action = 1
                    """,
                arguments: [first, last]
            ).map { ($0[0] as Int, $0[1] as Int) } ?? (0, 0)
            if left == 0, try Bool.fetchOne(db, cachedSQL: "SELECT is_undone FROM history_entry WHERE id = ?", arguments: [id]) == false {
                try HistoryLog.drop(entry: id, steps: first, through: last, in: db)
                continue
            }
            guard let recounted = Self.importDescription(description, counting: brought), recounted != description else { continue }
            try db.execute(cachedSQL: "UPDATE history_entry SET description = ? WHERE id = ?", arguments: [recounted, id])
        }
    }

    /// How many of the newest imports a recount looks through.
    private static let importsRecounted = 50

    /// "import 12 files into 'Trip' …" counting `count` files instead; nil
    /// for words that are no import's.
    private static func importDescription(_ description: String, counting count: Int) -> String? {
        let words = description.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count == 4, words[0] == "import", Int(words[1]) != nil, words[2] == "file" || words[2] == "files", words[3].hasPrefix("into ")
        else { return nil }
        return "import \(LibraryError.counted(count, "file")) \(words[3])"
    }
}
