-- Videos stand in albums beside photos (Documentation/PhotoFacts.md,
-- "Videos"): the photo table, which holds every piece of content by its
-- digest, now takes a video's media type too, and a video's duration.
--
-- * `media_type`: `image/…` or `video/…`, as the bytes say.
-- * `duration`: how long a video runs, in seconds, as its container says;
--   NULL for a still, and for a video whose container does not say.
--
-- SQLite cannot change a CHECK in place: the table is rebuilt, as 0003
-- rebuilt it (the migration runner turns foreign keys off around it and
-- checks them before commit). Ids and the id counter are kept, so items
-- still point at their photos and photo_name's rows still match; the
-- indexes and the triggers that went with the old table are made again,
-- the timeline's index now covering the duration the search lists.

CREATE TABLE photo_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256 BLOB NOT NULL UNIQUE CHECK (length(sha256) = 32),
    byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
    media_type TEXT NOT NULL CHECK (media_type GLOB 'image/?*' OR media_type GLOB 'video/?*'),
    pixel_width INTEGER CHECK (pixel_width > 0),
    pixel_height INTEGER CHECK (pixel_height > 0),
    orientation INTEGER NOT NULL DEFAULT 1 CHECK (orientation BETWEEN 1 AND 8),
    -- ISO 8601 as the file records it: 2026-07-14T09:12:00.25+02:00, or less.
    captured_at TEXT CHECK (captured_at GLOB '[0-9][0-9][0-9][0-9]*'),
    original_name TEXT NOT NULL,
    source_path TEXT NOT NULL,
    imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    camera_make TEXT,
    camera_model TEXT,
    lens TEXT,
    has_location INTEGER NOT NULL DEFAULT 0 CHECK (has_location IN (0, 1)),
    file_orientation INTEGER CHECK (file_orientation BETWEEN 1 AND 8),
    kept_in INTEGER REFERENCES storage_place (id) ON DELETE RESTRICT,
    duration REAL CHECK (duration IS NULL OR (duration >= 0 AND media_type GLOB 'video/?*')),
    CHECK ((pixel_width IS NULL) = (pixel_height IS NULL))
) STRICT;

INSERT INTO photo_new (id, sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
    original_name, source_path, imported_at, camera_make, camera_model, lens, has_location, file_orientation, kept_in)
SELECT id, sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
    original_name, source_path, imported_at, camera_make, camera_model, lens, has_location, file_orientation, kept_in
FROM photo;

-- Ids are never reused: carry the old table's AUTOINCREMENT counter over.
INSERT OR REPLACE INTO sqlite_sequence (rowid, name, seq)
SELECT (SELECT rowid FROM sqlite_sequence WHERE name = 'photo_new'), 'photo_new', seq
FROM sqlite_sequence WHERE name = 'photo';

DROP TABLE photo;
ALTER TABLE photo_new RENAME TO photo;

CREATE INDEX photo_by_capture ON photo (captured_at);
CREATE INDEX photo_by_camera ON photo (camera_model COLLATE NOCASE);
CREATE INDEX photo_kept_in ON photo (kept_in) WHERE kept_in IS NOT NULL;
CREATE INDEX photo_by_time ON photo (coalesce(captured_at, ''), id, captured_at, media_type, pixel_width,
    pixel_height, orientation, camera_make, camera_model, lens, has_location, original_name, duration);

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
