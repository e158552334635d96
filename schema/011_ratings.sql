-- Ratings (docs/competitions.md, Ratings): one OpenSkill Plackett-Luce rating per player and game
-- ("variant/suits"), updated by every finished rated tournament in the order they finished.
-- Tournaments that finished before ratings existed stay unrated (`spidertour ratings rebuild`
-- rates every tournament marked rated, should an operator mark them); those still to finish are
-- rated, as new ones are by default. A tournament may also take only players rated within limits.
ALTER TABLE tournaments ADD COLUMN rated boolean NOT NULL DEFAULT true;
ALTER TABLE tournaments ADD COLUMN rating_min double precision;
ALTER TABLE tournaments ADD COLUMN rating_max double precision;
UPDATE tournaments SET rated = false WHERE finished_at IS NOT NULL;
CREATE INDEX tournaments_rated_finish ON tournaments (finished_at, id) WHERE rated AND cancelled_at IS NULL;

-- The current rating of a player in a game; double precision holds openskill's floats exactly.
CREATE TABLE ratings (
    player_id   bigint           NOT NULL REFERENCES players (id),
    game        text             NOT NULL,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    games       integer          NOT NULL,
    updated_at  timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, game)
);

-- What each rated tournament did to each rated entrant's rating: before and after.
CREATE TABLE rating_history (
    tournament_id  bigint           NOT NULL REFERENCES tournaments (id),
    player_id      bigint           NOT NULL REFERENCES players (id),
    game           text             NOT NULL,
    rank           integer          NOT NULL,
    mu_before      double precision NOT NULL,
    sigma_before   double precision NOT NULL,
    mu             double precision NOT NULL,
    sigma          double precision NOT NULL,
    games          integer          NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id);

-- A player's profile lists its latest results.
CREATE INDEX IF NOT EXISTS standings_by_player ON standings (player_id);
