-- A photo is shown as the organizer it came from showed it: a rotation
-- kept in that organizer's catalog rather than written into the file
-- (Shotwell's and Lightroom's by default) is the photo's orientation
-- (Documentation/Importing.md, "Importing from another organizer").
--
-- `orientation` stays what every reader of the library uses (display size,
-- search, the page). `file_orientation` is the file's own, where it
-- differs: a thumbnail is made from the file turned as its own header
-- says, then turned on to `orientation`. NULL: the file says the same.
ALTER TABLE photo ADD COLUMN file_orientation INTEGER CHECK (file_orientation BETWEEN 1 AND 8);
