-- Finding photos (Documentation/Finding.md): the facts a search asks about
-- that albums did not keep before, and the indexes that answer it.
--
-- * `camera_make`, `camera_model`, `lens`: EXIF Make, Model and LensModel
--   as written ("FUJIFILM", "X100V").
-- * `has_location`: whether the file records a GPS latitude and
--   longitude. The place itself is not kept: a library shares albums,
--   and a position is what a family photo should least give away.
--
-- Every photo's facts are read again from its source, as migration 0003
-- arranged for orientation: the photos go on the list of outdated facts,
-- which opening the library empties where the source still holds the
-- photo's bytes.
ALTER TABLE photo ADD COLUMN camera_make TEXT;
ALTER TABLE photo ADD COLUMN camera_model TEXT;
ALTER TABLE photo ADD COLUMN lens TEXT;
ALTER TABLE photo ADD COLUMN has_location INTEGER NOT NULL DEFAULT 0 CHECK (has_location IN (0, 1));

INSERT OR IGNORE INTO photo_facts_outdated (photo_id) SELECT id FROM photo;

-- The timeline's order, newest first: when taken, else when imported.
-- A search walks this index and stops at its page, whatever it filters;
-- it carries every fact a search filters by, so that the photos it passes
-- over are judged from the index alone, read in order, and only those
-- that match are read from the table.
CREATE INDEX photo_by_time ON photo (coalesce(captured_at, imported_at), id, captured_at, media_type, pixel_width,
    pixel_height, orientation, camera_make, camera_model, lens, has_location, original_name);
-- Capture dates by range ("July 2025"), and photos by camera.
CREATE INDEX photo_by_capture ON photo (captured_at);
CREATE INDEX photo_by_camera ON photo (camera_model COLLATE NOCASE);
-- Which albums hold a photo ("in no album", "in Trip") is album_item_photo's, from 0001.

-- File names by their trigrams, so that a name search that matches few
-- photos finds them without reading every name. It only narrows: the
-- search still applies its own LIKE to what it finds. Kept from photo by
-- the triggers below (photo is its content; it stores no copy).
CREATE VIRTUAL TABLE photo_name USING fts5 (original_name, content = 'photo', content_rowid = 'id', tokenize = 'trigram');
INSERT INTO photo_name (photo_name) VALUES ('rebuild');
CREATE TRIGGER photo_name_insert AFTER INSERT ON photo BEGIN
    INSERT INTO photo_name (rowid, original_name) VALUES (new.id, new.original_name);
END;
CREATE TRIGGER photo_name_delete AFTER DELETE ON photo BEGIN
    INSERT INTO photo_name (photo_name, rowid, original_name) VALUES ('delete', old.id, old.original_name);
END;
CREATE TRIGGER photo_name_update AFTER UPDATE OF original_name ON photo BEGIN
    INSERT INTO photo_name (photo_name, rowid, original_name) VALUES ('delete', old.id, old.original_name);
    INSERT INTO photo_name (rowid, original_name) VALUES (new.id, new.original_name);
END;
-- The few items named otherwise than their photo (an upload of bytes
-- already there, under another name), read whole by a name search.
CREATE INDEX album_item_named ON album_item (file_name, photo_id) WHERE file_name IS NOT NULL;
