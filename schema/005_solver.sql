-- Certified deals and the par of every tournament (the solver's line, kept secret until the finish).

ALTER TABLE tournaments ADD COLUMN certified boolean NOT NULL DEFAULT false;  -- the solver won its deal

CREATE TABLE pars (
    tournament_id  bigint           PRIMARY KEY REFERENCES tournaments (id),
    outcome        text             NOT NULL CHECK (outcome IN ('won', 'not found within budget', 'proven lost')),
    moves          jsonb            NOT NULL,   -- the winning line: RULES.md moves with their t, [] when not won
    final_score    integer,                     -- the line's final score at the pace, NULL when not won
    pace           double precision NOT NULL,   -- seconds a move the score assumes
    entry          integer,                     -- with deal_variation: the entry whose renamed deal was solved
    nodes          bigint           NOT NULL,   -- positions the search expanded
    seconds        double precision,            -- how long it searched
    computed_at    timestamptz      NOT NULL DEFAULT now()
);
