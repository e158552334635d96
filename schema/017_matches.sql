-- Matches (docs/matches.md): head-to-head and small pools, asked for with POST /api/matches.
--
-- Each match is backed by a tournament of its own (``kind = 'match'``): its seed, salt, settings
-- and commitment, its entries (the seats, ``ordinal`` = the seat), its finish, standings, ratings
-- and replays are a tournament's. Such a tournament is in no list, and no tournament route shows
-- it before it is finished.
ALTER TABLE tournaments ADD COLUMN kind text NOT NULL DEFAULT 'tournament' CHECK (kind IN ('tournament', 'match'));

-- A seat must start its game by ``start_by`` (MATCH_START_SECONDS after it was taken), else the
-- clock makes it absent. Cleared when the game starts or the seat is made absent, so the index
-- holds the seats still to start only.
ALTER TABLE entries ADD COLUMN start_by timestamptz;
CREATE INDEX entries_start_by ON entries (start_by) WHERE start_by IS NOT NULL;

-- ``status``: waiting (seats free), playing (every seat taken, or no longer seating at
-- MATCH_WAIT_SECONDS with two seats or more), unmatched (alone at MATCH_WAIT_SECONDS). It is over
-- once its tournament is finished (``tournaments.finished_at`` is its ``over_at``). ``taken``: seats taken;
-- ``low``/``high``: the lowest and highest rating ordinal of its seated players when seated.
CREATE TABLE matches (
    id bigserial PRIMARY KEY,
    format text NOT NULL,
    seats int NOT NULL CHECK (seats BETWEEN 2 AND 8),
    taken int NOT NULL DEFAULT 0 CHECK (taken >= 0 AND taken <= seats),
    tournament_id bigint NOT NULL UNIQUE REFERENCES tournaments (id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'playing', 'unmatched')),
    low double precision NOT NULL DEFAULT 0,
    high double precision NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    over_at timestamptz  -- its tournament's finished_at, once the clock sees it finished
);
CREATE INDEX matches_waiting ON matches (format, created_at, id) WHERE status = 'waiting';
CREATE INDEX matches_open ON matches (tournament_id) WHERE over_at IS NULL;
