-- Who made each change (Documentation/People.md): the file's holder (the
-- CLI, an app linking the library), a person (by the name they had then),
-- or a share link (its id). Entries older than this migration were made
-- by the holder: no person could sign in before it.
--
-- A file of its own, as the history's other migrations are, so that the
-- history benchmark can leave the history out.

ALTER TABLE history_entry ADD COLUMN actor_kind TEXT NOT NULL DEFAULT 'holder'
    CHECK (actor_kind IN ('holder', 'person', 'share_link'));
ALTER TABLE history_entry ADD COLUMN actor_name TEXT;
