-- A photo's name in one album, where it differs from the name the photo
-- was first imported with. Photos are kept once per content: bytes loaded
-- again under another name (an upload, an import from elsewhere) keep the
-- name they came with in the album they came into, so that whoever loaded
-- them reads nothing of the first import, and a copy of the item carries
-- it along. NULL: the photo's own name.

ALTER TABLE album_item ADD COLUMN file_name TEXT
    CHECK (file_name IS NULL OR (photo_id IS NOT NULL AND length(file_name) > 0));
