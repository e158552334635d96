-- Communities (docs/communities.md): accounts and their sessions, organisers, clubs, and who may
-- join a tournament. Existing data moves forward: every player so far is a guest whose token
-- becomes its first session, and every tournament and schedule so far is the owner's.

-- A guest has a name only. An account adds a handle (small letters, digits, _ and -) and a
-- password; a club member made from a roster signs in with a code; a host site's user comes in
-- by a signed token (issuer, subject). Passwords and codes are kept as argon2id hashes.
ALTER TABLE players ADD COLUMN handle text UNIQUE CHECK (handle ~ '^[a-z0-9_-]{3,24}$');
ALTER TABLE players ADD COLUMN password_hash text;
ALTER TABLE players ADD COLUMN code_hash text;
ALTER TABLE players ADD COLUMN external_issuer text;
ALTER TABLE players ADD COLUMN external_subject text;
ALTER TABLE players ADD CONSTRAINT players_external UNIQUE (external_issuer, external_subject);

-- One row per signed-in device: the bearer token's SHA-256, never the token. Ended sessions stay
-- (ended_at set) so that an ended token is told apart from an unknown one in the logs.
CREATE TABLE sessions (
    id          bigserial   PRIMARY KEY,
    player_id   bigint      NOT NULL REFERENCES players (id),
    token_hash  bytea       NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    ended_at    timestamptz
);
CREATE INDEX sessions_player_open ON sessions (player_id) WHERE ended_at IS NULL;
INSERT INTO sessions (player_id, token_hash, created_at) SELECT id, token_hash, created_at FROM players;
ALTER TABLE players ALTER COLUMN token_hash DROP NOT NULL;  -- sessions hold the tokens from now on

-- Organisers: each with its own token, scoped to what it owns. NULL organiser: the owner's.
CREATE TABLE organisers (
    id          bigserial   PRIMARY KEY,
    name        text        NOT NULL,
    token_hash  bytea       NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
ALTER TABLE tournaments ADD COLUMN organiser_id bigint REFERENCES organisers (id);
ALTER TABLE schedules ADD COLUMN organiser_id bigint REFERENCES organisers (id);

-- Clubs, their organisers and members. The invite code is shown to the club's organisers, so it
-- is kept as it is (it admits to the club; it signs no one in).
CREATE TABLE clubs (
    id           bigserial   PRIMARY KEY,
    name         text        NOT NULL,
    invite_code  text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE club_organisers (
    club_id       bigint NOT NULL REFERENCES clubs (id),
    organiser_id  bigint NOT NULL REFERENCES organisers (id),
    PRIMARY KEY (club_id, organiser_id)
);
CREATE TABLE club_members (
    club_id    bigint      NOT NULL REFERENCES clubs (id),
    player_id  bigint      NOT NULL REFERENCES players (id),
    joined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, player_id)
);
CREATE INDEX club_members_player ON club_members (player_id);

-- Who may join: a club's members only, holders of an entry code, or both; unlisted tournaments
-- are left out of the public list. Every tournament so far is open and listed.
ALTER TABLE tournaments ADD COLUMN club_id bigint REFERENCES clubs (id);
ALTER TABLE tournaments ADD COLUMN entry_code text;
ALTER TABLE tournaments ADD COLUMN listed boolean NOT NULL DEFAULT true;
ALTER TABLE schedules ADD COLUMN club_id bigint REFERENCES clubs (id);
