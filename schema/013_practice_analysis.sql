-- Practice on a finished tournament's deal, and the analysis of a finished game.
--
-- A practice entry is an entry (played over the same play websocket, its moves in ``moves``) marked
-- ``practice``: it is in no standings, leaderboard, entrant count, export, series or rating. A player
-- has one entry in a tournament and any number of practice entries after its finish, so the two
-- unique keys hold for the ranked entries only. A practice entry's ``ordinal`` names the deal it
-- plays (with deal_variation: the player's own entry's renamed deal, else entry 1's, the par's).

ALTER TABLE entries ADD COLUMN practice boolean NOT NULL DEFAULT false;

ALTER TABLE entries DROP CONSTRAINT entries_tournament_id_player_id_key;
CREATE UNIQUE INDEX entries_player_once ON entries (tournament_id, player_id) WHERE NOT practice;
ALTER TABLE entries DROP CONSTRAINT entries_ordinal_unique;
CREATE UNIQUE INDEX entries_ordinal_unique ON entries (tournament_id, ordinal) WHERE NOT practice;
CREATE INDEX entries_practice ON entries (tournament_id, player_id) WHERE practice;

-- Where a finished game's win was lost: worked out once by the solver, then served from here.
CREATE TABLE analyses (
    entry_id       bigint       PRIMARY KEY REFERENCES entries (id),
    positions      jsonb        NOT NULL,   -- [{"winnable": true|false|null}], the opening position first
    turning_point  integer,                 -- the 1-based move after which no win was found, NULL if none
    solved         integer      NOT NULL,   -- positions the solver searched (the others followed from them)
    seconds        double precision NOT NULL, -- CPU seconds the solver spent
    computed_at    timestamptz  NOT NULL DEFAULT now()
);

-- Who is working out an analysis: one process at a time, on a lease it renews (as par_claims).
CREATE TABLE analysis_claims (
    entry_id    bigint       PRIMARY KEY REFERENCES entries (id),
    claimed_by  text         NOT NULL,
    expires_at  timestamptz  NOT NULL,
    starts      integer      NOT NULL DEFAULT 1
);
