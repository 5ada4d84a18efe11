import AlbumsPersistence

/// A history entry as `history` prints it with --json, and the API serves it.
package struct HistoryEntryJSON: Encodable, Sendable {
    package struct AlbumJSON: Encodable, Sendable {
        let id: Int64
        let name: String
    }

    let id: Int64
    let committedAt: String
    let description: String
    let albums: [AlbumJSON]
    let undone: Bool
    let rowChanges: Int
    /// Who made it: `{"kind": "person", "name": "ana"}`; kind `holder` (name
    /// `cli`) for the CLI or an app linking the library, `share_link`.
    let madeBy: [String: String]

    package init(_ entry: HistoryEntry) {
        id = entry.id
        committedAt = Timestamp.text(entry.committedAt)
        description = entry.description
        albums = entry.albums.map { AlbumJSON(id: $0.id.rawValue, name: $0.name) }
        undone = entry.isUndone
        rowChanges = entry.rowChangeCount
        madeBy = ["kind": entry.madeBy.kind, "name": entry.madeBy.description]
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case id
        case committedAt = "committed_at"
        case description
        case albums
        case undone
        case rowChanges = "row_changes"
        case madeBy = "made_by"
    }
}

/// What `history` prints with --json, and `GET /api/history` answers: the
/// entries, and what undo and redo would do now.
package struct HistoryListingJSON: Encodable, Sendable {
    let entries: [HistoryEntryJSON]
    let keptEntries: Int
    @KeptNull var nextUndo: HistoryEntryJSON?
    @KeptNull var nextRedo: HistoryEntryJSON?

    package init(entries: [HistoryEntry], reader: LibraryReader) throws {
        self.entries = entries.map(HistoryEntryJSON.init)
        keptEntries = try reader.keptHistoryEntries()
        nextUndo = try reader.nextUndo().map(HistoryEntryJSON.init)
        nextRedo = try reader.nextRedo().map(HistoryEntryJSON.init)
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case entries
        case keptEntries = "kept_entries"
        case nextUndo = "next_undo"
        case nextRedo = "next_redo"
    }
}

/// What `undo` and `redo` print with --json, and the API answers.
package struct HistoryReplayJSON: Encodable, Sendable {
    let entry: HistoryEntryJSON
    let changes: [ChangeJSON]
    let dryRun: Bool

    package init(_ result: HistoryReplayResult, dryRun: Bool) {
        entry = HistoryEntryJSON(result.entry)
        changes = result.changes.map(ChangeJSON.init)
        self.dryRun = dryRun
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case entry
        case changes
        case dryRun = "dry_run"
    }
}
