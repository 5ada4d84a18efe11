-- How many of an album's items are videos, so that the page can say
-- "10 photos, 2 videos" of an album where it said "12 photos" without
-- reading the album. Kept by the triggers below, so that every write
-- keeps it (imports, loads committed into their placeholders, moves,
-- copies, removals, undo and redo, repairs) without each remembering to.
-- A smart album holds no items: what it shows is counted when it is read.
-- A migration that rebuilds `photo` or `album_item` makes these (and the
-- index of videos) again.

ALTER TABLE album ADD COLUMN video_count INTEGER NOT NULL DEFAULT 0 CHECK (video_count >= 0);

UPDATE album SET video_count = (
    SELECT count(*) FROM album_item i JOIN photo p ON p.id = i.photo_id
    WHERE i.album_id = album.id AND p.media_type GLOB 'video/?*');

-- The library's videos, so that a smart album of every photo counts its
-- videos without walking every photo.
CREATE INDEX photo_videos ON photo (id) WHERE media_type GLOB 'video/?*';

-- Asked in WHEN, so that a photo's item (nearly all of them) runs no
-- statement at all: an import pays one lookup of the photo an item.
CREATE TRIGGER album_video_count_insert AFTER INSERT ON album_item
WHEN new.photo_id IS NOT NULL AND (SELECT media_type GLOB 'video/?*' FROM photo WHERE id = new.photo_id)
BEGIN
    UPDATE album SET video_count = video_count + 1 WHERE id = new.album_id;
END;

-- A photo cannot go while an item holds it (ON DELETE RESTRICT), so its
-- kind is there to read when the item goes.
CREATE TRIGGER album_video_count_delete AFTER DELETE ON album_item
WHEN old.photo_id IS NOT NULL AND (SELECT media_type GLOB 'video/?*' FROM photo WHERE id = old.photo_id)
BEGIN
    UPDATE album SET video_count = video_count - 1 WHERE id = old.album_id;
END;

CREATE TRIGGER album_video_count_update AFTER UPDATE OF album_id, photo_id ON album_item
WHEN old.album_id IS NOT new.album_id OR old.photo_id IS NOT new.photo_id
BEGIN
    UPDATE album SET video_count = video_count - 1
    WHERE id = old.album_id AND old.photo_id IS NOT NULL AND (SELECT media_type GLOB 'video/?*' FROM photo WHERE id = old.photo_id);
    UPDATE album SET video_count = video_count + 1
    WHERE id = new.album_id AND new.photo_id IS NOT NULL AND (SELECT media_type GLOB 'video/?*' FROM photo WHERE id = new.photo_id);
END;

-- A photo whose facts, read again, make it a video or no longer one.
CREATE TRIGGER album_video_count_kind AFTER UPDATE OF media_type ON photo
WHEN (old.media_type GLOB 'video/?*') != (new.media_type GLOB 'video/?*')
BEGIN
    UPDATE album SET video_count = video_count
        + (CASE WHEN new.media_type GLOB 'video/?*' THEN 1 ELSE -1 END)
        * (SELECT count(*) FROM album_item i WHERE i.album_id = album.id AND i.photo_id = new.id)
    WHERE id IN (SELECT album_id FROM album_item WHERE photo_id = new.id);
END;
