-- An album's cover, chosen by hand (README, "Covers"): the photo it shows
-- in the album list. NULL means none is chosen and the album's first photo
-- stands for it, which readers work out; a chosen cover is always a photo
-- of its album.
--
-- Triggers clear it where the photo leaves: removed, or moved to another
-- album. A move inside the album, a sort or a swap keeps it: only the
-- item's keys change.

ALTER TABLE album ADD COLUMN cover_photo_id INTEGER;

CREATE TRIGGER album_cover_leaves_with_its_item AFTER DELETE ON album_item
WHEN old.photo_id IS NOT NULL
BEGIN
    UPDATE album SET cover_photo_id = NULL WHERE id = old.album_id AND cover_photo_id = old.photo_id;
END;

CREATE TRIGGER album_cover_leaves_with_its_move AFTER UPDATE OF album_id ON album_item
WHEN old.photo_id IS NOT NULL AND old.album_id IS NOT new.album_id
BEGIN
    UPDATE album SET cover_photo_id = NULL WHERE id = old.album_id AND cover_photo_id = old.photo_id;
END;
