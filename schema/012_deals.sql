-- Several deals in one event (docs/competitions.md "Several deals"; settings `deals` and `scoring`).
-- An entry's row holds the deal it plays (or last played) and its running totals: score,
-- final_score and time_left add up its deals; the *_before columns hold the sums of its earlier
-- deals (0 on deal 1, so every entry so far stays as it was). An entry's moves are numbered across
-- its deals; each earlier deal's own result is kept in entry_deals when the next one starts.
ALTER TABLE entries
    ADD COLUMN deal         integer NOT NULL DEFAULT 1,
    ADD COLUMN score_before integer NOT NULL DEFAULT 0,
    ADD COLUMN time_before  integer NOT NULL DEFAULT 0,
    ADD COLUMN moves_before integer NOT NULL DEFAULT 0;

CREATE TABLE entry_deals (
    entry_id     bigint      NOT NULL REFERENCES entries (id),
    deal         integer     NOT NULL CHECK (deal >= 1),
    status       text        NOT NULL,
    final_score  integer     NOT NULL,
    time_left    integer     NOT NULL,
    first_move   integer     NOT NULL,   -- the deal's moves are moves.n first_move + 1 .. last_move
    last_move    integer     NOT NULL,
    started_at   timestamptz,
    ended_at     timestamptz,
    PRIMARY KEY (entry_id, deal)
);

-- With `scoring: "matchpoints"` the final standings hold each entry's matchpoints (null otherwise).
ALTER TABLE standings ADD COLUMN matchpoints double precision;
