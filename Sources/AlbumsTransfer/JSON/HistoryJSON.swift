import AlbumsPersistence

/// A history entry as `history` prints it with --json, and the API serves it.
package struct HistoryEntryJSON: Encodable, Sendable {
    package struct AlbumJSON: Encodable, Sendable {
        let id: Int64
        let name: String
    }

    let id: Int64
    let committed_at: String
    let description: String
    let albums: [AlbumJSON]
    let undone: Bool
    let row_changes: Int
    /// Who made it: `{"kind": "person", "name": "ana"}`; kind `holder` (name
    /// `cli`) for the CLI or an app linking the library, `share_link`.
    let made_by: [String: String]

    package init(_ entry: HistoryEntry) {
        id = entry.id
        committed_at = Timestamp.text(entry.committedAt)
        description = entry.description
        albums = entry.albums.map { AlbumJSON(id: $0.id.rawValue, name: $0.name) }
        undone = entry.isUndone
        row_changes = entry.rowChangeCount
        made_by = ["kind": entry.madeBy.kind, "name": entry.madeBy.description]
    }
}

/// What `history` prints with --json, and `GET /api/history` answers: the
/// entries, and what undo and redo would do now.
package struct HistoryListingJSON: Encodable, Sendable {
    let entries: [HistoryEntryJSON]
    let kept_entries: Int
    @KeptNull var next_undo: HistoryEntryJSON?
    @KeptNull var next_redo: HistoryEntryJSON?

    package init(entries: [HistoryEntry], reader: LibraryReader) throws {
        self.entries = entries.map(HistoryEntryJSON.init)
        kept_entries = try reader.keptHistoryEntries()
        next_undo = try reader.nextUndo().map(HistoryEntryJSON.init)
        next_redo = try reader.nextRedo().map(HistoryEntryJSON.init)
    }
}

/// What `undo` and `redo` print with --json, and the API answers.
package struct HistoryReplayJSON: Encodable, Sendable {
    let entry: HistoryEntryJSON
    let changes: [ChangeJSON]
    let dry_run: Bool

    package init(_ result: HistoryReplayResult, dryRun: Bool) {
        entry = HistoryEntryJSON(result.entry)
        changes = result.changes.map(ChangeJSON.init)
        dry_run = dryRun
    }
}
