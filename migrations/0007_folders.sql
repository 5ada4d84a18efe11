-- Folders: albums in an ordered tree (README, "Folders").
--
-- A folder holds albums and folders in a manual order. Every album and
-- folder has one parent (`parent_id`): a folder, or NULL for the
-- library's top level. The children of one parent, albums and folders
-- together, are ordered by `order_key`, gapped integer keys as the list
-- of albums had: a move writes one row, and the children of one parent are
-- laid out afresh only when a gap is used up. Keys are unique among the
-- albums of a parent and among its folders (the indexes below); that an
-- album and a folder of one parent never share a key is kept by albums
-- and verified by albums check.
--
-- Album names stay unique in the library. A folder's name is unique among
-- its parent's folders; albums keeps it apart from the names of the
-- albums beside it too, and never lets it hold a '/', which separates the
-- folders of a path ("Travel/2026/Lisbon").
--
-- Existing albums stay at the top level, in their order, with their keys.
--
-- The album table is rebuilt (SQLite cannot drop the UNIQUE on its
-- order_key in place: keys are now unique per parent); ids, counters and
-- the id counter are kept. Its history triggers, dropped with it, come
-- back in the next migration, which teaches the history folders.

CREATE TABLE folder (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- No cascade: what happens to a folder's contents is chosen by whoever deletes it.
    parent_id INTEGER REFERENCES folder (id),
    name TEXT NOT NULL CHECK (
        length(name) > 0
        AND instr(name, '/') = 0
        AND name NOT GLOB ('*[' || char(
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
            17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127,
            128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
            144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159
        ) || ']*')
    ),
    order_key INTEGER NOT NULL CHECK (order_key > 0 AND order_key < 4611686018427387904),
    -- While locked, nothing enters, leaves or moves inside the folder.
    is_locked INTEGER NOT NULL DEFAULT 0 CHECK (is_locked IN (0, 1)),
    -- Grows with every committed transaction that changes the folder or its list of children.
    revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (parent_id IS NOT id)
) STRICT;

CREATE UNIQUE INDEX folder_sibling_order ON folder (coalesce(parent_id, 0), order_key);
CREATE UNIQUE INDEX folder_sibling_name ON folder (coalesce(parent_id, 0), name);

CREATE TABLE album_new (
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
    -- The folder holding the album; NULL at the top level.
    parent_id INTEGER REFERENCES folder (id),
    -- Gapped key giving the album's place among its parent's children.
    order_key INTEGER NOT NULL CHECK (order_key > 0 AND order_key < 4611686018427387904),
    is_locked INTEGER NOT NULL DEFAULT 0 CHECK (is_locked IN (0, 1)),
    -- Grows with every committed transaction that changes the album.
    revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    -- All items, placeholders included.
    item_count INTEGER NOT NULL DEFAULT 0 CHECK (item_count >= 0),
    placeholder_count INTEGER NOT NULL DEFAULT 0 CHECK (placeholder_count BETWEEN 0 AND item_count),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO album_new (id, name, parent_id, order_key, is_locked, revision, item_count, placeholder_count, created_at)
SELECT id, name, NULL, order_key, is_locked, revision, item_count, placeholder_count, created_at FROM album;

INSERT OR REPLACE INTO sqlite_sequence (rowid, name, seq)
SELECT (SELECT rowid FROM sqlite_sequence WHERE name = 'album_new'), 'album_new', seq
FROM sqlite_sequence WHERE name = 'album';

DROP TABLE album;
ALTER TABLE album_new RENAME TO album;

CREATE UNIQUE INDEX album_sibling_order ON album (coalesce(parent_id, 0), order_key);
CREATE INDEX album_parent ON album (parent_id);
