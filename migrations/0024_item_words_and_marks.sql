-- What people write on what an album holds: each item's title and caption,
-- a favourite mark, a rating and keywords; an album's description.
--
-- They belong to the item, not to the photo: a photo in two albums can
-- carry a caption for each (a photo book's, a slideshow's), and what is
-- written on an item is seen exactly by those who see its album, so a
-- person who comes to share a photo another way (an upload of the same
-- bytes) learns nothing that was written where they cannot see. A copy
-- takes its item's words and marks with it; a move keeps them.

-- A title and a caption: NULL when there is none (never empty).
ALTER TABLE album_item ADD COLUMN title TEXT CHECK (length(title) > 0);
ALTER TABLE album_item ADD COLUMN caption TEXT CHECK (length(caption) > 0);
ALTER TABLE album_item ADD COLUMN is_favorite INTEGER NOT NULL DEFAULT 0 CHECK (is_favorite IN (0, 1));
-- 1 to 5 stars, -1 rejected, NULL not rated.
ALTER TABLE album_item ADD COLUMN rating INTEGER CHECK (rating = -1 OR rating BETWEEN 1 AND 5);
-- A JSON array of distinct keywords in the order they were given; NULL when none.
ALTER TABLE album_item ADD COLUMN keywords TEXT CHECK (json_type(keywords) = 'array' AND json_array_length(keywords) > 0);

-- The items of an album that carry anything, found without reading the rest.
CREATE INDEX album_item_marked ON album_item (album_id)
    WHERE title IS NOT NULL OR caption IS NOT NULL OR is_favorite = 1 OR rating IS NOT NULL OR keywords IS NOT NULL;

-- Items' words by their trigrams, so that a search of titles, captions
-- and keywords that matches few items finds them without reading every
-- item. It only narrows, as photo_name does: the search applies its own
-- LIKE to what it finds. Kept from album_item by the triggers below, which
-- pass over the items that carry no words (nearly all of them).
CREATE VIRTUAL TABLE item_words USING fts5 (title, caption, keywords, content = 'album_item', content_rowid = 'id', tokenize = 'trigram');
CREATE TRIGGER item_words_insert AFTER INSERT ON album_item
WHEN new.title IS NOT NULL OR new.caption IS NOT NULL OR new.keywords IS NOT NULL
BEGIN
    INSERT INTO item_words (rowid, title, caption, keywords) VALUES (new.id, new.title, new.caption, new.keywords);
END;
CREATE TRIGGER item_words_delete AFTER DELETE ON album_item
WHEN old.title IS NOT NULL OR old.caption IS NOT NULL OR old.keywords IS NOT NULL
BEGIN
    INSERT INTO item_words (item_words, rowid, title, caption, keywords) VALUES ('delete', old.id, old.title, old.caption, old.keywords);
END;
CREATE TRIGGER item_words_update AFTER UPDATE OF title, caption, keywords ON album_item
WHEN old.title IS NOT new.title OR old.caption IS NOT new.caption OR old.keywords IS NOT new.keywords
BEGIN
    INSERT INTO item_words (item_words, rowid, title, caption, keywords)
        SELECT 'delete', old.id, old.title, old.caption, old.keywords
        WHERE old.title IS NOT NULL OR old.caption IS NOT NULL OR old.keywords IS NOT NULL;
    INSERT INTO item_words (rowid, title, caption, keywords)
        SELECT new.id, new.title, new.caption, new.keywords
        WHERE new.title IS NOT NULL OR new.caption IS NOT NULL OR new.keywords IS NOT NULL;
END;

ALTER TABLE album ADD COLUMN description TEXT CHECK (length(description) > 0);

-- The history puts them back: an item's steps (deleted; marked) and an
-- album's (deleted; changed) keep them as they were before.
ALTER TABLE history_step ADD COLUMN title TEXT;
ALTER TABLE history_step ADD COLUMN caption TEXT;
ALTER TABLE history_step ADD COLUMN is_favorite INTEGER;
ALTER TABLE history_step ADD COLUMN rating INTEGER;
ALTER TABLE history_step ADD COLUMN keywords TEXT;
ALTER TABLE history_step ADD COLUMN description TEXT;

DROP TRIGGER history_item_deleted;
DROP TRIGGER history_album_deleted;
DROP TRIGGER history_album_changed;

CREATE TRIGGER history_item_deleted AFTER DELETE ON album_item BEGIN
    INSERT INTO history_step (action, row_id, album_id, segment_id, order_key, photo_id, load_source,
        load_owner_host, load_owner_process_id, load_owner_started_at, name, created_at,
        title, caption, is_favorite, rating, keywords)
    VALUES (2, old.id, old.album_id, old.segment_id, old.order_key, old.photo_id, old.load_source,
        old.load_owner_host, old.load_owner_process_id, old.load_owner_started_at, old.file_name, old.added_at,
        old.title, old.caption, old.is_favorite, old.rating, old.keywords);
END;

-- An item's marks changed: a step of action 3 (as an item moved) with
-- its place as it stands and its marks before. A trigger of its own, so
-- that a move's UPDATE compiles no more than it did before items had marks;
-- a step of a move holds no marks (is_favorite NULL), and undoing it leaves
-- them alone.
CREATE TRIGGER history_item_marked AFTER UPDATE OF title, caption, is_favorite, rating, keywords ON album_item
WHEN old.title IS NOT new.title OR old.caption IS NOT new.caption OR old.is_favorite IS NOT new.is_favorite
    OR old.rating IS NOT new.rating OR old.keywords IS NOT new.keywords
BEGIN
    INSERT INTO history_step (action, row_id, album_id, segment_id, order_key, title, caption, is_favorite, rating, keywords)
    VALUES (3, old.id, new.album_id, new.segment_id, new.order_key, old.title, old.caption, old.is_favorite, old.rating, old.keywords);
END;

CREATE TRIGGER history_album_deleted AFTER DELETE ON album BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, revision, created_at, cover_photo_id, search,
        description)
    VALUES (8, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.revision, old.created_at, old.cover_photo_id, old.search,
        old.description);
END;

CREATE TRIGGER history_album_changed AFTER UPDATE OF name, parent_id, order_key, is_locked, cover_photo_id, search, description ON album
WHEN old.name IS NOT new.name OR old.parent_id IS NOT new.parent_id OR old.order_key IS NOT new.order_key
    OR old.is_locked IS NOT new.is_locked OR old.cover_photo_id IS NOT new.cover_photo_id OR old.search IS NOT new.search
    OR old.description IS NOT new.description
BEGIN
    INSERT INTO history_step (action, row_id, name, parent_id, order_key, is_locked, cover_photo_id, search, description)
    VALUES (9, old.id, old.name, old.parent_id, old.order_key, old.is_locked, old.cover_photo_id, old.search, old.description);
END;
