-- The history keeps a smart album's search: an album's steps record it
-- before a change, so that undoing a freeze or a deletion brings the saved
-- search back.
--
-- A file of its own, as the history's other migrations are, so that the
-- history benchmark can leave the history out.

ALTER TABLE history_step ADD COLUMN search TEXT;

DROP TRIGGER history_album_deleted;
DROP TRIGGER history_album_changed;

CREATE TRIGGER history_album_deleted AFTER DELETE ON album BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, revision, created_at, cover_photo_id, search)
    VALUES (8, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.revision, old.created_at, old.cover_photo_id, old.search);
END;

CREATE TRIGGER history_album_changed AFTER UPDATE OF name, parent_id, order_key, is_locked, cover_photo_id, search ON album
WHEN old.name IS NOT new.name OR old.parent_id IS NOT new.parent_id OR old.order_key IS NOT new.order_key
    OR old.is_locked IS NOT new.is_locked OR old.cover_photo_id IS NOT new.cover_photo_id OR old.search IS NOT new.search
BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, cover_photo_id, search)
    VALUES (9, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.cover_photo_id, old.search);
END;
