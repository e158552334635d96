-- The organiser's actions: cancelled tournaments, disqualified entries, recurring schedules.

ALTER TABLE tournaments ADD COLUMN cancelled_at timestamptz;   -- set with finished_at: nothing is ranked

ALTER TABLE entries ADD COLUMN disqualified text;              -- the organiser's reason; NULL: ranked
ALTER TABLE entries ADD COLUMN disqualified_at timestamptz;

-- A schedule creates one tournament per occurrence: first_opens_at + k * every_minutes, each
-- created ahead_minutes before it opens and open for open_minutes. The unique (schedule_id,
-- occurrence) makes that exactly once, however many server processes try at the same moment.
CREATE TABLE schedules (
    id              bigserial   PRIMARY KEY,
    name            text        NOT NULL,
    template        jsonb       NOT NULL,           -- the tournament body without its name and times
    first_opens_at  timestamptz NOT NULL,
    every_minutes   integer     NOT NULL CHECK (every_minutes BETWEEN 5 AND 525600),
    open_minutes    integer     NOT NULL CHECK (open_minutes BETWEEN 1 AND 525600),
    ahead_minutes   integer     NOT NULL CHECK (ahead_minutes BETWEEN 0 AND 525600),
    active          boolean     NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE tournaments ADD COLUMN schedule_id bigint REFERENCES schedules (id);
ALTER TABLE tournaments ADD COLUMN occurrence timestamptz;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_schedule_occurrence UNIQUE (schedule_id, occurrence);
