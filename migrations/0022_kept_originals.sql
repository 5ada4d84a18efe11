-- Where a library keeps copies of its originals, beyond the files it
-- refers to: a folder it manages, or a bucket of an S3-compatible service.
-- A copy is named by its content (`Storage/StoragePlace.swift`), so the
-- same name serves in any place and a photo kept twice is stored once.
--
-- The place with the highest id is where new copies go; older places
-- still hold the copies not yet moved from them. Credentials never enter
-- the file: a bucket's row says where it is, not how to sign for it.
CREATE TABLE storage_place (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'bucket')),
    -- A folder's absolute path, or a bucket's name.
    location TEXT NOT NULL CHECK (length(location) > 0 AND location NOT GLOB ('*[' || char(1) || '-' || char(31) || ']*')),
    -- A bucket's service (https://…) and region; NULL for a folder.
    endpoint TEXT CHECK (endpoint GLOB 'http://?*' OR endpoint GLOB 'https://?*'),
    region TEXT CHECK (length(region) > 0),
    -- Prepended to a bucket's object names ('' or ending in '/').
    prefix TEXT NOT NULL DEFAULT '' CHECK (prefix = '' OR prefix GLOB '*/'),
    chosen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((kind = 'bucket') = (endpoint IS NOT NULL)),
    CHECK ((kind = 'bucket') = (region IS NOT NULL)),
    CHECK (kind = 'bucket' OR prefix = ''),
    CHECK (kind = 'bucket' OR location GLOB '/*')
) STRICT;

-- The place holding this photo's kept copy; NULL: only its source holds it.
ALTER TABLE photo ADD COLUMN kept_in INTEGER REFERENCES storage_place (id) ON DELETE RESTRICT;

CREATE INDEX photo_kept_in ON photo (kept_in) WHERE kept_in IS NOT NULL;

-- Placeholders whose load keeps a copy of what it reads (`import --copy`):
-- a load resumed after a crash keeps it too.
CREATE TABLE pending_copy (
    item_id INTEGER PRIMARY KEY REFERENCES album_item (id) ON DELETE CASCADE
) STRICT;
