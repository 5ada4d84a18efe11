-- History: undo and redo (README, "History: undo and redo").
--
-- Triggers note, for every row of album, album_segment and album_item that
-- a transaction inserts, deletes or moves, what it takes to put it back:
-- one `history_step` per row change, in the order they happen. albums
-- then files the steps of a change a person made (a move, a batch, a
-- rename, an import) under one `history_entry`, and drops the steps of
-- what is not a change of its own (a load committing into its
-- placeholder, or failing).
--
-- Undo replays an entry's steps backwards: rows come back with the same
-- ids, keys, names and locks, so the order is the same as before, exactly.
-- The replay's own row changes are noted the same way and become what a
-- redo replays. Counters (item counts, revisions) are not noted: the
-- replay keeps them by counting what it does, and every album it touches
-- gets a new revision, as any change does.
--
-- Entries are kept in commit order across every process writing the
-- file; the newest `history_setting.kept_entries` (1,000 by default) are
-- kept, and older ones dropped with their steps.

CREATE TABLE history_entry (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    committed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- What a person did, in words: "move 3 items to 'Book' at 2".
    description TEXT NOT NULL CHECK (length(description) > 0),
    -- The albums it touched: a JSON array of {"id": …, "name": …}.
    albums TEXT NOT NULL,
    -- Its steps are the history_step rows first_step…last_step.
    first_step INTEGER NOT NULL,
    -- (an entry whose rows all went their own way since has none: last = first - 1).
    last_step INTEGER NOT NULL CHECK (last_step >= first_step - 1),
    -- 1 once undone (and until redone); undone entries are always the newest.
    is_undone INTEGER NOT NULL DEFAULT 0 CHECK (is_undone IN (0, 1))
) STRICT;

-- One row change, with the values it takes to reverse it. `action`:
--   1 item inserted      (row_id)
--   2 item deleted       (row_id and every column of the row)
--   3 item moved         (row_id, album_id, segment_id, order_key before)
--   4 segment inserted   (row_id)
--   5 segment deleted    (row_id, album_id, order_key)
--   6 segment rekeyed    (row_id, order_key before)
--   7 album inserted     (row_id)
--   8 album deleted      (row_id, name, order_key, is_locked, revision, created_at)
--   9 album changed      (row_id, name, order_key, is_locked before)
CREATE TABLE history_step (
    id INTEGER PRIMARY KEY,
    action INTEGER NOT NULL CHECK (action BETWEEN 1 AND 9),
    row_id INTEGER NOT NULL,
    album_id INTEGER,
    segment_id INTEGER,
    order_key INTEGER,
    photo_id INTEGER,
    load_source TEXT,
    load_owner_host TEXT,
    load_owner_process_id INTEGER,
    load_owner_started_at TEXT,
    name TEXT,
    is_locked INTEGER,
    revision INTEGER,
    created_at TEXT
) STRICT;

-- How much history to keep; no row means the default.
CREATE TABLE history_setting (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    kept_entries INTEGER NOT NULL CHECK (kept_entries BETWEEN 1 AND 1000000)
) STRICT;

CREATE TRIGGER history_item_inserted AFTER INSERT ON album_item BEGIN
    INSERT INTO history_step (action, row_id) VALUES (1, new.id);
END;

CREATE TRIGGER history_item_deleted AFTER DELETE ON album_item BEGIN
    INSERT INTO history_step (action, row_id, album_id, segment_id, order_key, photo_id, load_source,
        load_owner_host, load_owner_process_id, load_owner_started_at, created_at)
    VALUES (2, old.id, old.album_id, old.segment_id, old.order_key, old.photo_id, old.load_source,
        old.load_owner_host, old.load_owner_process_id, old.load_owner_started_at, old.added_at);
END;

CREATE TRIGGER history_item_moved AFTER UPDATE OF album_id, segment_id, order_key ON album_item
WHEN old.album_id IS NOT new.album_id OR old.segment_id IS NOT new.segment_id OR old.order_key IS NOT new.order_key
BEGIN
    INSERT INTO history_step (action, row_id, album_id, segment_id, order_key)
    VALUES (3, old.id, old.album_id, old.segment_id, old.order_key);
END;

CREATE TRIGGER history_segment_inserted AFTER INSERT ON album_segment BEGIN
    INSERT INTO history_step (action, row_id) VALUES (4, new.id);
END;

CREATE TRIGGER history_segment_deleted AFTER DELETE ON album_segment BEGIN
    INSERT INTO history_step (action, row_id, album_id, order_key) VALUES (5, old.id, old.album_id, old.order_key);
END;

CREATE TRIGGER history_segment_rekeyed AFTER UPDATE OF order_key ON album_segment
WHEN old.order_key IS NOT new.order_key
BEGIN
    INSERT INTO history_step (action, row_id, order_key) VALUES (6, old.id, old.order_key);
END;

CREATE TRIGGER history_album_inserted AFTER INSERT ON album BEGIN
    INSERT INTO history_step (action, row_id) VALUES (7, new.id);
END;

CREATE TRIGGER history_album_deleted AFTER DELETE ON album BEGIN
    INSERT INTO history_step (action, row_id, name, order_key, is_locked, revision, created_at)
    VALUES (8, old.id, old.name, old.order_key, old.is_locked, old.revision, old.created_at);
END;

CREATE TRIGGER history_album_changed AFTER UPDATE OF name, order_key, is_locked ON album
WHEN old.name IS NOT new.name OR old.order_key IS NOT new.order_key OR old.is_locked IS NOT new.is_locked
BEGIN
    INSERT INTO history_step (action, row_id, name, order_key, is_locked)
    VALUES (9, old.id, old.name, old.order_key, old.is_locked);
END;
