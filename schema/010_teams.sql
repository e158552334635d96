-- Team battles (docs/competitions.md): the clubs of a tournament's entrants play as teams, each
-- counted by the sum of its best `teams_top` scores. Every tournament so far is no team battle,
-- and every entry so far plays for no team.
ALTER TABLE tournaments ADD COLUMN teams_top int CHECK (teams_top BETWEEN 1 AND 50);
ALTER TABLE entries ADD COLUMN team_id bigint REFERENCES clubs (id);
CREATE INDEX entries_team ON entries (tournament_id, team_id) WHERE team_id IS NOT NULL;
