-- An ask reads the player's entries that are not practice, newest first (its matches not over, the
-- opponents of its latest match): by player and id, so that the walk to the latest match's seat
-- reads that player's entries only, however many entries the server holds.
CREATE INDEX entries_player_latest ON entries (player_id, id) WHERE NOT practice;
