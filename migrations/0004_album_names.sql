-- Album names are what they look like (README, "Names"): stored in
-- Unicode NFC, never only invisible characters, never with bidirectional
-- controls, never `id` (it would shadow `id:P` references).
--
-- SQL cannot normalize Unicode, so the renaming is done by albums itself,
-- in this migration's transaction, right after this file runs
-- (Sources/AlbumsPersistence/Migrations/AlbumNameUpgrade.swift): each
-- album whose name breaks a rule is renamed, keeping its contents and its
-- place, and a note saying so is left here for the next command to print.

-- What an upgrade did that a person should hear about, printed and
-- deleted by the next command that opens the library for writing.
CREATE TABLE upgrade_note (
    id INTEGER PRIMARY KEY,
    note TEXT NOT NULL CHECK (length(note) > 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
