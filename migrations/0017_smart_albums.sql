-- Smart albums (README, "Smart albums"): an album whose `search` is set
-- is a saved search. It holds no items; what it shows is found when it is
-- read, as its reader may see it, so it is always current and never shows
-- a photo its reader could not see otherwise. Freezing it clears `search`
-- and gives it the photos it showed, as an ordinary album.
--
-- `search` is JSON with the keys of GET /api/photos: taken, name, format,
-- shape, min_megapixels, camera, lens, location, album_id, no_album.

ALTER TABLE album ADD COLUMN search TEXT CHECK (search IS NULL OR json_valid(search));
