"""The SQL of ratings: the rated ranking of a finished tournament, current ratings, what each
tournament did to them, the tournaments to apply in finish order, and a player's profile."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from ..storage.pool import WHOLE_TOURNAMENT_TIMEOUT, Connection, Db

RATINGS_LOCK = 0x5B1DE8  # advisory lock: ratings change in one transaction at a time, in finish order

# The entrants a finished tournament rates: its stored standings (disqualified entries are not in
# them) less the entries that never started a game.
RATED_SQL = """
    SELECT s.player_id, s.final_score, s.time_left, s.rank
      FROM standings s
     WHERE s.tournament_id = $1 AND s.status NOT IN ('joined', 'absent')
     ORDER BY s.rank"""


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Change:
    """One rated entrant of one tournament: its rank there and its rating before and after."""

    player_id: int
    rank: int
    before: Rating
    after: Rating


async def lock(conn: Connection) -> None:
    """Hold the ratings until the transaction ends (finishes and rebuilds wait for each other)."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)


async def rated_tournament(conn: Connection, tournament_id: int) -> asyncpg.Record | None:
    """The tournament's settings when it is finished, not cancelled and rated; else None."""
    return await conn.fetchrow(
        """SELECT id, settings FROM tournaments
            WHERE id = $1 AND rated AND finished_at IS NOT NULL AND cancelled_at IS NULL""",
        tournament_id,
    )


async def rated_entrants(conn: Connection, tournament_id: int) -> list[asyncpg.Record]:
    return await conn.fetch(RATED_SQL, tournament_id, timeout=WHOLE_TOURNAMENT_TIMEOUT)


async def current(conn: Connection, game: str, player_ids: list[int]) -> dict[int, Rating]:
    rows = await conn.fetch(
        "SELECT player_id, mu, sigma, games FROM ratings WHERE game = $1 AND player_id = ANY($2::bigint[])",
        game,
        player_ids,
        timeout=WHOLE_TOURNAMENT_TIMEOUT,
    )
    return {r["player_id"]: Rating(r["mu"], r["sigma"], r["games"]) for r in rows}


def _numbers(change: Change) -> tuple[float, float, float, float, int]:
    return change.before.mu, change.before.sigma, change.after.mu, change.after.sigma, change.after.games


async def save(conn: Connection, tournament_id: int, game: str, changes: list[Change]) -> None:
    """The new ratings and the tournament's history rows (replacing any it had): two statements
    however many entrants (a player is rated once a tournament, so no row is written twice)."""
    if not changes:
        return
    players = [c.player_id for c in changes]
    numbers = list(zip(*(_numbers(c) for c in changes), strict=True))
    mu_before, sigma_before, mu, sigma, games = (list(column) for column in numbers)
    await conn.execute(
        """INSERT INTO ratings (player_id, game, mu, sigma, games)
           SELECT p, $2, m, s, g FROM unnest($1::bigint[], $3::float8[], $4::float8[], $5::int[]) AS u (p, m, s, g)
           ON CONFLICT (player_id, game) DO UPDATE
              SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, updated_at = now()""",
        players,
        game,
        mu,
        sigma,
        games,
        timeout=WHOLE_TOURNAMENT_TIMEOUT,
    )
    await conn.execute(
        """INSERT INTO rating_history (tournament_id, player_id, game, rank, mu_before, sigma_before, mu, sigma, games)
           SELECT $1, p, $3, r, mb, sb, m, s, g
             FROM unnest($2::bigint[], $4::int[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::int[])
                  AS u (p, r, mb, sb, m, s, g)
           ON CONFLICT (tournament_id, player_id) DO UPDATE
              SET game = excluded.game, rank = excluded.rank, mu_before = excluded.mu_before,
                  sigma_before = excluded.sigma_before, mu = excluded.mu, sigma = excluded.sigma,
                  games = excluded.games""",
        tournament_id,
        players,
        game,
        [c.rank for c in changes],
        mu_before,
        sigma_before,
        mu,
        sigma,
        games,
        timeout=WHOLE_TOURNAMENT_TIMEOUT,
    )


async def forget(conn: Connection, game: str | None) -> None:
    """Delete every rating and history row (of one game, or all)."""
    await conn.execute("DELETE FROM rating_history WHERE game = $1 OR $1::text IS NULL", game)
    await conn.execute("DELETE FROM ratings WHERE game = $1 OR $1::text IS NULL", game)


async def rated_in_finish_order(conn: Connection) -> list[asyncpg.Record]:
    """Every finished rated tournament (cancelled ones never count), in the order they finished."""
    return await conn.fetch(
        """SELECT id, settings FROM tournaments
            WHERE rated AND finished_at IS NOT NULL AND cancelled_at IS NULL
            ORDER BY finished_at, id"""
    )


async def rating_of(db: Db, player_id: int, game: str) -> Rating | None:
    row = await db.fetchrow("SELECT mu, sigma, games FROM ratings WHERE player_id = $1 AND game = $2", player_id, game)
    return None if row is None else Rating(row["mu"], row["sigma"], row["games"])


async def ratings_of(db: Db, player_id: int) -> list[asyncpg.Record]:
    return await db.fetch("SELECT game, mu, sigma, games FROM ratings WHERE player_id = $1 ORDER BY game", player_id)


async def profile_player(db: Db, player_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(
        "SELECT id, name, roster_name, handle, profile_public FROM players WHERE id = $1", player_id
    )


async def recent_results(
    db: Db, player_id: int, limit: int, seen: tuple[bool, int | None, list[int]]
) -> list[asyncpg.Record]:
    """The player's latest ranked results in finished tournaments, newest first, with the rating
    each rated one left it with. ``seen``: (every one, an organiser's own, clubs' ones) besides the
    listed tournaments: an unlisted one is shown only to those who see it in the tournaments' list.
    A match's (docs/matches.md) is shown to all once it is over (``match_id``: the match), a bracket's
    game once its bracket is over (``bracket_id``: the bracket, also of the bracket's own place)."""
    return await db.fetch(
        """SELECT t.id AS tournament_id, t.name AS tournament, t.finished_at, t.settings, s.rank, s.final_score,
                  (SELECT count(*) FROM standings a WHERE a.tournament_id = t.id) AS entrants,
                  h.mu, h.sigma, h.mu_before, h.sigma_before, h.games,
                  (SELECT m.id FROM matches m WHERE m.tournament_id = t.id) AS match_id,
                  CASE t.kind WHEN 'bracket' THEN t.id WHEN 'bracket_game' THEN t.parent_id END AS bracket_id
             FROM standings s JOIN tournaments t ON t.id = s.tournament_id
             LEFT JOIN rating_history h ON h.tournament_id = s.tournament_id AND h.player_id = s.player_id
            WHERE s.player_id = $1 AND t.finished_at IS NOT NULL AND t.cancelled_at IS NULL
              AND (t.listed OR t.kind IN ('match', 'bracket_game') OR $3::boolean OR t.organiser_id = $4::bigint
                   OR t.club_id = ANY($5::bigint[]))
              AND (t.kind <> 'bracket_game'
                   OR (SELECT b.finished_at IS NOT NULL FROM tournaments b WHERE b.id = t.parent_id))
            ORDER BY t.finished_at DESC, t.id DESC LIMIT $2""",
        player_id,
        limit,
        *seen,
    )


async def history(db: Db, player_id: int, limit: int, seen: tuple[bool, int | None, list[int]]) -> list[asyncpg.Record]:
    """The player's rating history: per game, its latest ``limit`` rated tournaments (matches and
    bracket games among them), oldest first, each with the rating before and after. ``seen`` as in
    ``recent_results``: ``seen`` is false for a tournament the caller may not see named."""
    return await db.fetch(
        """SELECT * FROM (
             SELECT h.game, h.tournament_id, t.name AS tournament, t.finished_at, h.rank, h.games,
                    h.mu_before, h.sigma_before, h.mu, h.sigma,
                    (SELECT count(*) FROM standings a WHERE a.tournament_id = t.id) AS entrants,
                    (SELECT m.id FROM matches m WHERE m.tournament_id = t.id) AS match_id,
                    CASE t.kind WHEN 'bracket' THEN t.id WHEN 'bracket_game' THEN t.parent_id END AS bracket_id,
                    (t.listed OR t.kind IN ('match', 'bracket_game') OR $3::boolean OR t.organiser_id = $4::bigint
                       OR t.club_id = ANY($5::bigint[]))
                    AND (t.kind <> 'bracket_game'
                         OR (SELECT b.finished_at IS NOT NULL FROM tournaments b WHERE b.id = t.parent_id)) AS seen,
                    row_number() OVER (PARTITION BY h.game ORDER BY t.finished_at DESC, t.id DESC) AS latest
               FROM rating_history h JOIN tournaments t ON t.id = h.tournament_id
              WHERE h.player_id = $1) x
            WHERE latest <= $2
            ORDER BY game, finished_at, tournament_id""",
        player_id,
        limit,
        *seen,
    )
