-- The change journal's entries may now say that photos entered the
-- library (the flag 2 at an entry's end, beside 1 for rights; see
-- ChangeJournal.swift), so that a timeline, a search or a smart album on
-- an open page reads again when photos are imported into no album.
--
-- No table changes: the blob's format does. This migration marks it, so
-- that an albums too old to read the flag refuses the file as newer than
-- it knows, before it reads an entry it would take for damage.

SELECT 1;
