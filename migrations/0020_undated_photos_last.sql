-- Photos that record no capture date come last in the timeline, not at
-- their import time (Documentation/Finding.md, "The timeline's order").
--
-- Ordered by their import time, a folder of scans imported today stood
-- before every photo taken before today, and `photos --months` counted
-- them under a month that `--taken` of that month does not find them in.
-- The time key is now the capture date alone, '' for none: below every
-- date, so undated photos come after every dated one, newest imported
-- (highest id) first, and their month is '' ("no date") wherever one is
-- counted.
--
-- The index is the one 0014 made, on the new key; nothing else changes.
DROP INDEX photo_by_time;
CREATE INDEX photo_by_time ON photo (coalesce(captured_at, ''), id, captured_at, media_type, pixel_width,
    pixel_height, orientation, camera_make, camera_model, lens, has_location, original_name);
