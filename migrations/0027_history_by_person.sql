-- On a server each person's undo takes back their own changes and their
-- redo re-applies what they undid (Documentation/History.md, "Undo on a
-- server"): an entry keeps its person by id, since a deleted person's
-- name may be given to someone else. Entries made before were matched to
-- their person by the name they had then (names are never changed).
--
-- Undone entries are no longer always the newest, and each write asks
-- whether any are left to drop: a partial index holds only those, so an
-- entry that is not undone costs nothing more to write.

ALTER TABLE history_entry ADD COLUMN actor_person_id INTEGER;

UPDATE history_entry SET actor_person_id = (SELECT p.id FROM person p WHERE p.name = history_entry.actor_name)
WHERE actor_kind = 'person';

CREATE INDEX history_entry_undone ON history_entry (id) WHERE is_undone = 1;
