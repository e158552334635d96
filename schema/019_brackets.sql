-- Knockout brackets (docs/matches.md, Knockout brackets).
--
-- A bracket is a tournament of its own (``kind = 'bracket'``): its name, settings, seed, salt and
-- commitment, its club, entry code, listing and series, and its entries (the players who joined
-- until ``opens_at``). It never starts a game itself and is never rated as a whole: each pairing is
-- a tournament of ``kind = 'bracket_game'`` (``parent_id``: its bracket) whose two entries the server
-- makes, on the deal of ``<seed>/<round>``, started together by the tournaments' clock.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_kind_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_kind_check
    CHECK (kind IN ('tournament', 'match', 'bracket', 'bracket_game'));
ALTER TABLE tournaments ADD COLUMN parent_id bigint REFERENCES tournaments (id) ON DELETE CASCADE;
CREATE INDEX tournaments_parent ON tournaments (parent_id) WHERE parent_id IS NOT NULL;
-- The brackets' games not finished: what the bracket clock looks at each sweep, among every match in play.
CREATE INDEX tournaments_bracket_games_open ON tournaments (id) WHERE kind = 'bracket_game' AND finished_at IS NULL;

-- A bracket's places are shared (the losers of a round: 3=, 5=, ...): a rank may repeat in a
-- tournament's standings; each entry is ranked once.
ALTER TABLE standings DROP CONSTRAINT standings_pkey;
ALTER TABLE standings ADD PRIMARY KEY (tournament_id, entry_id);
CREATE INDEX standings_rank ON standings (tournament_id, rank);

-- ``id``: the bracket's tournament. ``size`` (a power of two) and ``rounds`` are set at the seeding
-- (``seeded_at``); ``champion_id`` when the final is decided; ``done_at`` once finished or cancelled
-- (the clock reads the brackets not done). Its status follows: cancelled, finished (the tournament's
-- marks), running (seeded), else scheduled.
CREATE TABLE brackets (
    id bigint PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    break_seconds int NOT NULL DEFAULT 60 CHECK (break_seconds BETWEEN 0 AND 86400),
    rated boolean NOT NULL DEFAULT true,  -- each pairing's game is rated (the bracket's tournament never is)
    size int CHECK (size >= 2),
    rounds int CHECK (rounds >= 1),
    seeded_at timestamptz,
    champion_id bigint REFERENCES players (id),
    done_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX brackets_not_done ON brackets (id) WHERE done_at IS NULL;

-- A pairing of a round: slot k of round r + 1 is the winners of slots 2k - 1 and 2k of round r.
-- ``player1`` is the higher seed (the smaller number); a bye has no ``player2`` and no game
-- (``tournament_id`` null), its player the winner at once. ``entry*_id``: the players' entries of
-- the pairing's game. ``decided``: the winner is known (null winner: neither player may advance).
CREATE TABLE bracket_pairings (
    bracket_id bigint NOT NULL REFERENCES brackets (id) ON DELETE CASCADE,
    round int NOT NULL CHECK (round >= 1),
    slot int NOT NULL CHECK (slot >= 1),
    starts_at timestamptz NOT NULL,
    player1_id bigint REFERENCES players (id),
    seed1 int,
    entry1_id bigint REFERENCES entries (id) ON DELETE CASCADE,
    player2_id bigint REFERENCES players (id),
    seed2 int,
    entry2_id bigint REFERENCES entries (id) ON DELETE CASCADE,
    tournament_id bigint UNIQUE REFERENCES tournaments (id) ON DELETE CASCADE,
    winner_player_id bigint REFERENCES players (id),
    decided boolean NOT NULL DEFAULT false,
    PRIMARY KEY (bracket_id, round, slot)
);
