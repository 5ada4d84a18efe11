-- What a photo book depends on (README: "The facts of a photo"):
--
-- * `orientation`: EXIF's Orientation 1-8 (HEIF's irot/imir turned into
--   the same numbers); 1 for every photo until albums reads its source
--   again, which it does right after this migration where the source
--   still holds the same bytes.
-- * `captured_at` may be as short as a year: XMP dates give the
--   precision their author knew ("1975", "1975-06-01"). The rules of what
--   counts as a capture date, and the order of the tags read, are in
--   Sources/AlbumsTransfer/Loads/ImageHeaders/CaptureDateRules.swift.
--
-- SQLite cannot change a CHECK in place: the table is rebuilt (its
-- "12-step" ALTER; the migration runner turns foreign keys off around it
-- and checks them before commit). Ids are kept, so items still point at
-- their photos; the id counter is carried over.

CREATE TABLE photo_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256 BLOB NOT NULL UNIQUE CHECK (length(sha256) = 32),
    byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
    media_type TEXT NOT NULL CHECK (media_type GLOB 'image/?*'),
    pixel_width INTEGER CHECK (pixel_width > 0),
    pixel_height INTEGER CHECK (pixel_height > 0),
    orientation INTEGER NOT NULL DEFAULT 1 CHECK (orientation BETWEEN 1 AND 8),
    -- ISO 8601 as the file records it: 2026-07-14T09:12:00.25+02:00, or less.
    captured_at TEXT CHECK (captured_at GLOB '[0-9][0-9][0-9][0-9]*'),
    original_name TEXT NOT NULL,
    source_path TEXT NOT NULL,
    imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((pixel_width IS NULL) = (pixel_height IS NULL))
) STRICT;

INSERT INTO photo_new (id, sha256, byte_count, media_type, pixel_width, pixel_height, captured_at,
    original_name, source_path, imported_at)
SELECT id, sha256, byte_count, media_type, pixel_width, pixel_height, captured_at,
    original_name, source_path, imported_at
FROM photo;

-- Ids are never reused: carry the old table's AUTOINCREMENT counter over,
-- which may be past the largest id left.
INSERT OR REPLACE INTO sqlite_sequence (rowid, name, seq)
SELECT (SELECT rowid FROM sqlite_sequence WHERE name = 'photo_new'), 'photo_new', seq
FROM sqlite_sequence WHERE name = 'photo';

DROP TABLE photo;
ALTER TABLE photo_new RENAME TO photo;

-- Photos whose facts were read by an older albums, to be read again from
-- their sources (see above); emptied as they are.
CREATE TABLE photo_facts_outdated (
    photo_id INTEGER PRIMARY KEY REFERENCES photo (id) ON DELETE CASCADE
) STRICT;
INSERT INTO photo_facts_outdated (photo_id) SELECT id FROM photo;
