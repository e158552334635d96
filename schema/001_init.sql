-- Tournaments, players, entries and every accepted move.

CREATE TABLE tournaments (
    id           bigserial PRIMARY KEY,
    name         text        NOT NULL,
    settings     jsonb       NOT NULL,          -- engine settings, every field filled in
    seed         text        NOT NULL,          -- secret until finished_at is set
    commitment   text        NOT NULL,          -- SHA-256 of seed and settings, public from creation
    opens_at     timestamptz NOT NULL,
    closes_at    timestamptz NOT NULL,
    finished_at  timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (closes_at > opens_at)
);
CREATE INDEX tournaments_unfinished ON tournaments (closes_at) WHERE finished_at IS NULL;

CREATE TABLE players (
    id          bigserial PRIMARY KEY,
    name        text        NOT NULL,
    token_hash  bytea       NOT NULL UNIQUE,    -- SHA-256 of the secret token; the token is never stored
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE entries (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint      NOT NULL REFERENCES tournaments (id),
    player_id      bigint      NOT NULL REFERENCES players (id),
    created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    status         text        NOT NULL DEFAULT 'joined'
                   CHECK (status IN ('joined', 'playing', 'won', 'ended', 'timed_out', 'absent')),
    started_at     timestamptz,
    deadline       timestamptz,
    score          integer     NOT NULL DEFAULT 0,   -- 25 a reveal + 100 a sequence, as of the last move
    reveals        integer     NOT NULL DEFAULT 0,
    sequences      integer     NOT NULL DEFAULT 0,
    final_score    integer,                          -- set when the game is over
    time_left      integer,                          -- whole seconds remaining when it ended
    ended_at       timestamptz,
    moves          integer     NOT NULL DEFAULT 0,   -- accepted moves so far
    last_seq       bigint      NOT NULL DEFAULT 0,   -- the client's sequence number of the last accepted move
    epoch          bigint      NOT NULL DEFAULT 0,   -- bumped by each new play connection: one writer
    UNIQUE (tournament_id, player_id)
);
CREATE INDEX entries_running ON entries (deadline) WHERE status = 'playing';
CREATE INDEX entries_player ON entries (player_id);

CREATE TABLE moves (
    entry_id    bigint           NOT NULL REFERENCES entries (id),
    n           integer          NOT NULL,          -- 1, 2, 3 ... per entry
    seq         bigint           NOT NULL,          -- the client's sequence number
    move        jsonb            NOT NULL,          -- RULES.md's JSON form
    t           double precision NOT NULL,          -- seconds since the game started, by the server's clock
    created_at  timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (entry_id, n)
);

CREATE TABLE standings (
    tournament_id  bigint  NOT NULL REFERENCES tournaments (id),
    rank           integer NOT NULL,
    entry_id       bigint  NOT NULL REFERENCES entries (id),
    player_id      bigint  NOT NULL,
    player         text    NOT NULL,
    final_score    integer NOT NULL,
    time_left      integer NOT NULL,
    status         text    NOT NULL,
    PRIMARY KEY (tournament_id, rank)
);
