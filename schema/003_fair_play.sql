-- Fair play: a salted commitment, starting together, and what the organiser's integrity report reads.

-- The salt drawn at creation and covered by the commitment; revealed with the seed. NULL for
-- tournaments created before salts: their commitment covers the seed and settings alone.
ALTER TABLE tournaments ADD COLUMN salt text;

-- 'own': every entrant starts its own clock while the tournament is open. 'together': entries until
-- opens_at, then the server starts every game at once; closes_at = opens_at + time_limit.
ALTER TABLE tournaments ADD COLUMN start text NOT NULL DEFAULT 'own' CHECK (start IN ('own', 'together'));
CREATE INDEX tournaments_together_unstarted ON tournaments (opens_at)
    WHERE start = 'together' AND finished_at IS NULL;

-- Client addresses, only ever as a keyed hash (HMAC-SHA-256 under the server's address key): the
-- address a player registered from, an entry was joined from, and its last play connection came from.
ALTER TABLE players ADD COLUMN address_hash bytea;
ALTER TABLE entries ADD COLUMN address_hash bytea;
ALTER TABLE entries ADD COLUMN play_address_hash bytea;

-- Server-wide secrets made once and shared by every server process (the address key).
CREATE TABLE server_secrets (
    name   text  PRIMARY KEY,
    value  bytea NOT NULL
);
