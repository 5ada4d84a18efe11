import GRDB

extension LibraryWriter {
    /// Says in each import's history entry how many files it brought in,
    /// once the loads of `placeholders` are done: what its undo takes out,
    /// not what it was given (a load that failed, was skipped, cancelled or
    /// found its photo already in the album leaves no item). An import
    /// begun afresh and one whose stale placeholders another run filled
    /// are both counted again.
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
            let brought = try Int.fetchOne(
                db,
                cachedSQL: """
                    SELECT count(*) FROM history_step s JOIN album_item i ON i.id = s.row_id
                    WHERE s.id BETWEEN ? AND ? AND s.action = 1 AND i.photo_id IS NOT NULL
                    """,
                arguments: [first, last]) ?? 0
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
