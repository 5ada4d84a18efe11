-- People, roles and share links: a household on one `albums serve`
-- (Documentation/People.md).
--
-- A person signs in to the server with a name and a password. Only a
-- bcrypt hash of the password is kept. An admin holds every right; anyone
-- else holds what roles give them: a role on an album, or on a folder and
-- so on everything inside it, at any depth. The highest role that reaches an
-- album counts. Whoever holds the file (the CLI, an app linking the
-- library) is not a person and is never checked: that is how the server's
-- owner recovers access.
--
-- Roles, sessions and links belong to the people and albums they name:
-- deleting a person or an album deletes them too. They are not part of the
-- undo history (an album brought back by undo comes back unshared).

CREATE TABLE person (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Letters, digits and . _ - @; compared without regard to case.
    name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (
        length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^A-Za-z0-9._@-]*'
    ),
    -- bcrypt ("$2b$…"), never the password.
    password_hash TEXT NOT NULL CHECK (password_hash GLOB '$2[abxy]$*'),
    is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    -- A disabled person cannot sign in, and their sessions end.
    is_disabled INTEGER NOT NULL DEFAULT 0 CHECK (is_disabled IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- A role given to a person on one album or one folder (exactly one of the two).
CREATE TABLE role_grant (
    id INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    album_id INTEGER REFERENCES album (id) ON DELETE CASCADE,
    folder_id INTEGER REFERENCES folder (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
    CHECK ((album_id IS NULL) <> (folder_id IS NULL))
) STRICT;
CREATE UNIQUE INDEX role_grant_on_album ON role_grant (person_id, album_id) WHERE album_id IS NOT NULL;
CREATE UNIQUE INDEX role_grant_on_folder ON role_grant (person_id, folder_id) WHERE folder_id IS NOT NULL;
CREATE INDEX role_grant_by_album ON role_grant (album_id) WHERE album_id IS NOT NULL;
CREATE INDEX role_grant_by_folder ON role_grant (folder_id) WHERE folder_id IS NOT NULL;

-- A signed-in browser. The cookie holds a random token; the file holds its
-- SHA-256 only, so a copy of the file signs nobody in.
CREATE TABLE person_session (
    token_sha256 TEXT PRIMARY KEY CHECK (length(token_sha256) = 64),
    person_id INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX person_session_by_person ON person_session (person_id);

-- One album shown read-only to whoever holds the link: the token's SHA-256
-- only, an optional bcrypt-hashed password, an optional expiry.
CREATE TABLE share_link (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    album_id INTEGER NOT NULL REFERENCES album (id) ON DELETE CASCADE,
    token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
    password_hash TEXT CHECK (password_hash IS NULL OR password_hash GLOB '$2[abxy]$*'),
    expires_at TEXT,
    allows_download INTEGER NOT NULL DEFAULT 1 CHECK (allows_download IN (0, 1)),
    -- Who made it: a person's name, or NULL for the file's holder (the CLI).
    created_by TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at TEXT
) STRICT;
CREATE INDEX share_link_by_album ON share_link (album_id);
