-- The first schema of an albums library.
--
-- Shipped migrations never change: add a new numbered file instead.
-- Order keys are explained in README.md ("How order is stored").

-- 'ALBM': tells albums' files from other SQLite files (see file(1)'s magic).
PRAGMA application_id = 1095516749;

-- Every migration applied to this file, with the SHA-256 of its text.
CREATE TABLE schema_migration (
    version INTEGER PRIMARY KEY CHECK (version > 0),
    name TEXT NOT NULL CHECK (length(name) > 0),
    checksum TEXT NOT NULL CHECK (length(checksum) = 64),
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- Ids of albums, photos and items are never reused (AUTOINCREMENT): a UI,
-- a script or a pending load that still holds an old id must not reach a
-- newer row.

-- The ordered list of albums.
CREATE TABLE album (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Case-sensitive, any Unicode, not empty, no control characters (C0, DEL, C1).
    name TEXT NOT NULL UNIQUE CHECK (
        length(name) > 0
        AND name NOT GLOB ('*[' || char(
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
            17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127,
            128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
            144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159
        ) || ']*')
    ),
    -- Gapped key giving the album's place in the list of albums.
    order_key INTEGER NOT NULL UNIQUE CHECK (order_key > 0 AND order_key < 4611686018427387904),
    is_locked INTEGER NOT NULL DEFAULT 0 CHECK (is_locked IN (0, 1)),
    -- Grows with every committed transaction that changes the album.
    revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    -- All items, placeholders included.
    item_count INTEGER NOT NULL DEFAULT 0 CHECK (item_count >= 0),
    placeholder_count INTEGER NOT NULL DEFAULT 0 CHECK (placeholder_count BETWEEN 0 AND item_count),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- One piece of content, identified by the SHA-256 of its bytes.
CREATE TABLE photo (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256 BLOB NOT NULL UNIQUE CHECK (length(sha256) = 32),
    byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
    media_type TEXT NOT NULL CHECK (media_type GLOB 'image/?*'),
    pixel_width INTEGER CHECK (pixel_width > 0),
    pixel_height INTEGER CHECK (pixel_height > 0),
    -- As the file records it (EXIF carries no zone): YYYY-MM-DDTHH:MM:SS, maybe more.
    captured_at TEXT CHECK (
        captured_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*'
    ),
    original_name TEXT NOT NULL,
    source_path TEXT NOT NULL,
    imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((pixel_width IS NULL) = (pixel_height IS NULL))
) STRICT;

-- A contiguous run of an album's items. An album's order is
-- (segment order_key, item order_key); the per-segment counts let a
-- position be found without counting every item before it.
CREATE TABLE album_segment (
    id INTEGER PRIMARY KEY,
    album_id INTEGER NOT NULL REFERENCES album (id) ON DELETE CASCADE,
    order_key INTEGER NOT NULL CHECK (order_key > 0 AND order_key < 4611686018427387904),
    item_count INTEGER NOT NULL CHECK (item_count >= 0),
    UNIQUE (album_id, order_key)
) STRICT;

-- Covers "sum of counts before this segment" without touching the table.
CREATE INDEX album_segment_running_count ON album_segment (album_id, order_key, item_count);

-- One slot of an album: a photo, or a placeholder holding the slot of a pending load.
CREATE TABLE album_item (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    album_id INTEGER NOT NULL REFERENCES album (id) ON DELETE CASCADE,
    segment_id INTEGER NOT NULL REFERENCES album_segment (id) ON DELETE CASCADE,
    -- Keys in use are below 2^46; 2^46 up to 2^47 parks a row for the
    -- length of one statement while keys are exchanged.
    order_key INTEGER NOT NULL CHECK (order_key > 0 AND order_key < 140737488355328),
    photo_id INTEGER REFERENCES photo (id) ON DELETE RESTRICT,
    -- Placeholder only: where the load reads from and which process owns it.
    load_source TEXT,
    load_owner_host TEXT,
    load_owner_process_id INTEGER CHECK (load_owner_process_id > 0),
    load_owner_started_at TEXT,
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((photo_id IS NULL) = (load_source IS NOT NULL)),
    CHECK ((photo_id IS NULL) = (load_owner_host IS NOT NULL)),
    CHECK ((photo_id IS NULL) = (load_owner_process_id IS NOT NULL)),
    UNIQUE (segment_id, order_key),
    -- A photo stands at most once in an album (NULLs, i.e. placeholders, never collide).
    UNIQUE (album_id, photo_id)
) STRICT;

CREATE INDEX album_item_photo ON album_item (photo_id);
CREATE INDEX album_item_placeholder ON album_item (album_id) WHERE photo_id IS NULL;
