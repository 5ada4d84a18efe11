-- The folders a history entry's words name, by id, with the path they were
-- named by when the change was made: a JSON array of {"id": …, "path": …}.
-- A person's history is worded from these for what they see now, so a
-- folder they cannot see is never named, by its old name either. NULL for
-- an entry that names no folder, and for those written before this
-- migration, whose words are reworded by the folders' current paths.
ALTER TABLE history_entry ADD COLUMN folders TEXT;
