-- Who checkpoints the write-ahead log (README, "Replicas with Litestream").
--
-- By default ('auto') albums does, as SQLite does: a passive checkpoint
-- when the log passes 1,000 pages, and a truncating one when the last
-- process closes the library. A replicator such as Litestream copies the
-- log before it is checkpointed and wants to be the only one who
-- checkpoints; with 'external' albums never checkpoints, in any process,
-- and the log grows until the replicator checkpoints it.
--
-- One row at most; no row means 'auto'.

CREATE TABLE library_setting (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    checkpoints TEXT NOT NULL DEFAULT 'auto' CHECK (checkpoints IN ('auto', 'external'))
) STRICT;
