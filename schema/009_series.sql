-- Series (docs/competitions.md): a season or a league that adds up the final standings of its
-- tournaments. `points` is "field" (a ranked entrant scores ranked entrants - rank + 1) or a list of
-- whole numbers (the k-th place scores the k-th, 0 past its end); `best_of` counts only a player's
-- best N results (NULL: all). A club's series takes that club's tournaments only. The table is
-- worked out on every read from the stored standings, so nothing else is kept.
CREATE TABLE series (
    id            bigserial   PRIMARY KEY,
    name          text        NOT NULL,
    points        jsonb       NOT NULL CHECK (points = '"field"'::jsonb OR jsonb_typeof(points) = 'array'),
    best_of       integer     CHECK (best_of >= 1),
    club_id       bigint      REFERENCES clubs (id),
    organiser_id  bigint      REFERENCES organisers (id),   -- NULL: the owner's
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- A tournament belongs to one series at most. Every tournament so far belongs to none.
ALTER TABLE tournaments ADD COLUMN series_id bigint REFERENCES series (id);
CREATE INDEX tournaments_series ON tournaments (series_id) WHERE series_id IS NOT NULL;
