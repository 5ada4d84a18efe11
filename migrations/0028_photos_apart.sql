-- The same bytes may stand behind more than one photo (Documentation/People.md,
-- "Uploads"): a person who uploads bytes that the library holds only in
-- albums they cannot see gets a photo of their own (its own id, name and
-- import time) over those bytes, never the hidden one. For the holder and
-- for anyone who sees a photo of those bytes, importing them again still
-- finds that photo.
--
-- * `is_apart`: 1 for such a photo made apart. Its thumbnails and video
--   renditions are its own (cached under its id too), so nothing made for
--   the hidden photo, nor how soon it comes, reaches its uploader.
-- * `sha256` is unique among photos not made apart: `photo_by_content`
--   indexes the digest with 0 beside it for those, and the photo's own id
--   for one made apart. It also finds every photo of a digest.
--
-- SQLite cannot drop a UNIQUE in place: the table is rebuilt, as 0025
-- rebuilt it (the migration runner turns foreign keys off around it and
-- checks them before commit). Ids and the id counter are kept, so items
-- still point at their photos and photo_name's rows still match; the
-- indexes and the triggers that went with the old table are made again.

CREATE TABLE photo_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
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
    motion_sha256 BLOB CHECK (motion_sha256 IS NULL OR length(motion_sha256) = 32),
    motion_byte_count INTEGER CHECK (motion_byte_count IS NULL OR motion_byte_count >= 0),
    motion_media_type TEXT CHECK (motion_media_type IS NULL OR motion_media_type GLOB 'video/?*'),
    motion_duration REAL CHECK (motion_duration IS NULL OR motion_duration >= 0),
    motion_source_path TEXT,
    is_apart INTEGER NOT NULL DEFAULT 0 CHECK (is_apart IN (0, 1)),
    CHECK ((pixel_width IS NULL) = (pixel_height IS NULL)),
    CHECK ((motion_source_path IS NULL) = (motion_sha256 IS NULL) AND (motion_sha256 IS NULL) = (motion_byte_count IS NULL)
        AND (motion_sha256 IS NULL) = (motion_media_type IS NULL))
) STRICT;

INSERT INTO photo_new (id, sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
    original_name, source_path, imported_at, camera_make, camera_model, lens, has_location, file_orientation, kept_in,
    duration, motion_sha256, motion_byte_count, motion_media_type, motion_duration, motion_source_path)
SELECT id, sha256, byte_count, media_type, pixel_width, pixel_height, orientation, captured_at,
    original_name, source_path, imported_at, camera_make, camera_model, lens, has_location, file_orientation, kept_in,
    duration, motion_sha256, motion_byte_count, motion_media_type, motion_duration, motion_source_path
FROM photo;

-- Ids are never reused: carry the old table's AUTOINCREMENT counter over.
INSERT OR REPLACE INTO sqlite_sequence (rowid, name, seq)
SELECT (SELECT rowid FROM sqlite_sequence WHERE name = 'photo_new'), 'photo_new', seq
FROM sqlite_sequence WHERE name = 'photo';

DROP TABLE photo;
ALTER TABLE photo_new RENAME TO photo;

CREATE UNIQUE INDEX photo_by_content ON photo (sha256, is_apart * id);
-- The photos whose Live Photo motion has these bytes: a kept copy is
-- named by its content, and a move deletes one only once no photo keeps it.
CREATE INDEX photo_by_motion ON photo (motion_sha256) WHERE motion_sha256 IS NOT NULL;
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
