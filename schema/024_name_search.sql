-- A name search of a tournament's standings (``?name=`` on the leaderboard) finds the players whose
-- name holds the text by a trigram index instead of reading every entry of the tournament: at
-- 100,000 entrants the read of every name was most of the search's time. pg_trgm ships with
-- PostgreSQL (contrib) and is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX players_name_trgm ON players USING gin (lower(name) gin_trgm_ops);
CREATE INDEX standings_player_trgm ON standings USING gin (lower(player) gin_trgm_ops);
