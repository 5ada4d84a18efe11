-- A Live Photo is one item: its still is the photo, and its motion (the
-- short movie the phone took around it) goes with it, held in these
-- columns rather than as a photo of its own, so that a motion is never
-- found, listed or counted apart from its still (Documentation/PhotoFacts.md,
-- "Live Photos").
--
-- All NULL for a photo without motion; all set for a Live Photo. Its bytes
-- are known by their SHA-256 as a photo's are, and read from where they
-- were found.
ALTER TABLE photo ADD COLUMN motion_sha256 BLOB CHECK (motion_sha256 IS NULL OR length(motion_sha256) = 32);
ALTER TABLE photo ADD COLUMN motion_byte_count INTEGER CHECK (motion_byte_count IS NULL OR motion_byte_count >= 0);
ALTER TABLE photo ADD COLUMN motion_media_type TEXT CHECK (motion_media_type IS NULL OR motion_media_type GLOB 'video/?*');
ALTER TABLE photo ADD COLUMN motion_duration REAL CHECK (motion_duration IS NULL OR motion_duration >= 0);
ALTER TABLE photo ADD COLUMN motion_source_path TEXT CHECK (
    (motion_source_path IS NULL) = (motion_sha256 IS NULL) AND (motion_sha256 IS NULL) = (motion_byte_count IS NULL)
    AND (motion_sha256 IS NULL) = (motion_media_type IS NULL));
