-- The history keeps covers: an album's steps record its cover before a
-- change (`cover_photo_id`), so that undo puts a cover back with the
-- photo whose removal cleared it, and with an album it deleted.
--
-- A file of its own, as the history's other migrations are, so that the
-- history benchmark can leave the history out.

ALTER TABLE history_step ADD COLUMN cover_photo_id INTEGER;

DROP TRIGGER history_album_deleted;
DROP TRIGGER history_album_changed;

CREATE TRIGGER history_album_deleted AFTER DELETE ON album BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, revision, created_at, cover_photo_id)
    VALUES (8, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.revision, old.created_at, old.cover_photo_id);
END;

CREATE TRIGGER history_album_changed AFTER UPDATE OF name, parent_id, order_key, is_locked, cover_photo_id ON album
WHEN old.name IS NOT new.name OR old.parent_id IS NOT new.parent_id OR old.order_key IS NOT new.order_key
    OR old.is_locked IS NOT new.is_locked OR old.cover_photo_id IS NOT new.cover_photo_id
BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, cover_photo_id)
    VALUES (9, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.cover_photo_id);
END;
