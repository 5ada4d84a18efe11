-- The journal of committed changes: one row per transaction that changed
-- an album, holding its change sets (the removed, inserted, moved and
-- updated positions with their item ids, per album and per operation).
--
-- It is how a change made by one process reaches every other process
-- watching the same file (albums serve, an app embedding the library):
-- they read the rows past the last one they saw. Rows are appended in
-- commit order and kept for the newest 10,000 transactions; a watcher
-- further behind reloads instead.
--
-- `changes` is a compact binary encoding (LEB128 numbers), described in
-- Sources/AlbumsPersistence/Changes/ChangeJournal.swift.

CREATE TABLE change_journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    committed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    changes BLOB NOT NULL
) STRICT;
