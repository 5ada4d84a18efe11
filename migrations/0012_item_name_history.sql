-- Undoing a removal brings an item's name (0011) back with it: a deleted
-- item's step keeps it in `name`, which item steps did not use.
--
-- A file of its own, as the history's other migrations are, so that the
-- history benchmark can leave the history out.

DROP TRIGGER history_item_deleted;

CREATE TRIGGER history_item_deleted AFTER DELETE ON album_item BEGIN
    INSERT INTO history_step (action, row_id, album_id, segment_id, order_key, photo_id, load_source,
        load_owner_host, load_owner_process_id, load_owner_started_at, name, created_at)
    VALUES (2, old.id, old.album_id, old.segment_id, old.order_key, old.photo_id, old.load_source,
        old.load_owner_host, old.load_owner_process_id, old.load_owner_started_at, old.file_name, old.added_at);
END;
