-- The order of entries within a tournament (1, 2, 3 ...): the last tie-break of the ranking, and
-- small enough to pack into a leaderboard score exactly (see server/leaderboard.py).

ALTER TABLE tournaments ADD COLUMN entry_count integer NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN ordinal integer;

UPDATE entries e SET ordinal = o.n
  FROM (SELECT id, row_number() OVER (PARTITION BY tournament_id ORDER BY created_at, id) AS n FROM entries) o
 WHERE o.id = e.id;
UPDATE tournaments t SET entry_count = (SELECT count(*) FROM entries e WHERE e.tournament_id = t.id);

ALTER TABLE entries ALTER COLUMN ordinal SET NOT NULL;
ALTER TABLE entries ADD CONSTRAINT entries_ordinal_unique UNIQUE (tournament_id, ordinal);
