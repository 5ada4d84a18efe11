-- Which album or folder an import made of which folder or album of its
-- source (a folder tree on disk, another organizer's catalog), so that
-- importing the same source again finds it wherever it stands now and
-- whatever it is called, and adds only what is new.
--
-- `source` names the source ("tree", "shotwell:/path/photo.db"); `key`
-- is the source's own name for the folder or album (a path on disk, an
-- event's id). A row goes with its album or folder.
CREATE TABLE import_origin (
    source TEXT NOT NULL CHECK (length(source) > 0),
    key TEXT NOT NULL CHECK (length(key) > 0),
    album_id INTEGER UNIQUE REFERENCES album (id) ON DELETE CASCADE,
    folder_id INTEGER UNIQUE REFERENCES folder (id) ON DELETE CASCADE,
    PRIMARY KEY (source, key),
    CHECK ((album_id IS NULL) != (folder_id IS NULL))
) STRICT;
