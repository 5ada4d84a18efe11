-- The history learns folders (README, "History: undo and redo"): the
-- steps of a folder's rows, and an album's or a folder's parent before a
-- change, so that undo puts the tree back exactly.
--
-- history_step is rebuilt to take the new actions (a CHECK cannot change
-- in place), and every history trigger is made again: the item and
-- segment triggers name the rebuilt table, and the album's went with the
-- album table in the previous migration.

DROP TRIGGER history_item_inserted;
DROP TRIGGER history_item_deleted;
DROP TRIGGER history_item_moved;
DROP TRIGGER history_segment_inserted;
DROP TRIGGER history_segment_deleted;
DROP TRIGGER history_segment_rekeyed;

-- One row change, with the values it takes to reverse it. `action`:
--   1 item inserted      (row_id)
--   2 item deleted       (row_id and every column of the row)
--   3 item moved         (row_id, album_id, segment_id, order_key before)
--   4 segment inserted   (row_id)
--   5 segment deleted    (row_id, album_id, order_key)
--   6 segment rekeyed    (row_id, order_key before)
--   7 album inserted     (row_id)
--   8 album deleted      (row_id, name, parent_id, order_key, is_locked, revision, created_at)
--   9 album changed      (row_id, name, parent_id, order_key, is_locked before)
--  10 folder inserted    (row_id)
--  11 folder deleted     (row_id, name, parent_id, order_key, is_locked, revision, created_at)
--  12 folder changed     (row_id, name, parent_id, order_key, is_locked before)
CREATE TABLE history_step_new (
    id INTEGER PRIMARY KEY,
    action INTEGER NOT NULL CHECK (action BETWEEN 1 AND 12),
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
    created_at TEXT,
    parent_id INTEGER
) STRICT;

INSERT INTO history_step_new (id, action, row_id, album_id, segment_id, order_key, photo_id, load_source,
    load_owner_host, load_owner_process_id, load_owner_started_at, name, is_locked, revision, created_at)
SELECT id, action, row_id, album_id, segment_id, order_key, photo_id, load_source,
    load_owner_host, load_owner_process_id, load_owner_started_at, name, is_locked, revision, created_at
FROM history_step;

DROP TABLE history_step;
ALTER TABLE history_step_new RENAME TO history_step;

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
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, revision, created_at)
    VALUES (8, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.revision, old.created_at);
END;

CREATE TRIGGER history_album_changed AFTER UPDATE OF name, parent_id, order_key, is_locked ON album
WHEN old.name IS NOT new.name OR old.parent_id IS NOT new.parent_id OR old.order_key IS NOT new.order_key
    OR old.is_locked IS NOT new.is_locked
BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked)
    VALUES (9, old.id, old.name, old.parent_id, old.order_key, old.is_locked);
END;

CREATE TRIGGER history_folder_inserted AFTER INSERT ON folder BEGIN
    INSERT INTO history_step (action, row_id) VALUES (10, new.id);
END;

CREATE TRIGGER history_folder_deleted AFTER DELETE ON folder BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, revision, created_at)
    VALUES (11, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.revision, old.created_at);
END;

CREATE TRIGGER history_folder_changed AFTER UPDATE OF name, parent_id, order_key, is_locked ON folder
WHEN old.name IS NOT new.name OR old.parent_id IS NOT new.parent_id OR old.order_key IS NOT new.order_key
    OR old.is_locked IS NOT new.is_locked
BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked)
    VALUES (12, old.id, old.name, old.parent_id, old.order_key, old.is_locked);
END;
