"""The SQL of series: creating and reading them, their tournaments, and the results their table
is worked out from (the stored final standings of their finished, not cancelled, tournaments)."""

from __future__ import annotations

from typing import Any

import asyncpg

from ...communities.store import held
from ...storage.pool import Db

SERIES_SQL = """
    SELECT s.id, s.name, s.points, s.best_of, s.club_id, s.organiser_id,
           (SELECT c.name FROM clubs c WHERE c.id = s.club_id) AS club_name,
           (SELECT o.name FROM organisers o WHERE o.id = s.organiser_id) AS organiser_name,
           coalesce((SELECT jsonb_agg(jsonb_build_object('id', t.id, 'listed', t.listed, 'organiser_id',
                                                         t.organiser_id, 'club_id', t.club_id)
                                      ORDER BY t.opens_at, t.id)
                       FROM tournaments t WHERE t.series_id = s.id), '[]'::jsonb) AS tournaments
      FROM series s"""


async def create_series(
    db: asyncpg.Pool,
    name: str,
    points: Any,
    best_of: int | None,
    club_id: int | None,
    organiser_id: int | None,
    most: int,
) -> int | None:
    """The new series' id; None when its organiser runs ``most`` series already (nothing made)."""
    async with db.acquire() as conn, conn.transaction():
        if organiser_id is not None and await held(conn, organiser_id, "series") >= most:
            return None
        series_id: int = await conn.fetchval(
            """INSERT INTO series (name, points, best_of, club_id, organiser_id) VALUES ($1, $2, $3, $4, $5)
               RETURNING id""",
            name,
            points,
            best_of,
            club_id,
            organiser_id,
        )
        return series_id


async def series(db: Db, series_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"{SERIES_SQL} WHERE s.id = $1", series_id)


async def every_series(
    db: asyncpg.Pool, limit: int, offset: int, seen: tuple[bool, bool, int | None, list[int]]
) -> list[asyncpg.Record]:
    """Series, newest first. ``seen``: (every one, series of no club too, an organiser's own, clubs' ones)."""
    return await db.fetch(
        f"""{SERIES_SQL}
            WHERE $3::boolean OR ($4::boolean AND s.club_id IS NULL)
               OR s.organiser_id = $5::bigint OR s.club_id = ANY($6::bigint[])
            ORDER BY s.id DESC LIMIT $1 OFFSET $2""",
        limit,
        offset,
        *seen,
    )


async def tournament(db: Db, tournament_id: int) -> asyncpg.Record | None:
    """What joining a series needs of a tournament: who runs it, its club and its series."""
    return await db.fetchrow(
        "SELECT id, organiser_id, club_id, series_id FROM tournaments WHERE id = $1", tournament_id
    )


async def add_tournament(db: asyncpg.Pool, series_id: int, tournament_id: int) -> bool:
    """The tournament joins the series; False when it is in a series already (this one or another)."""
    done = await db.fetchval(
        "UPDATE tournaments SET series_id = $1 WHERE id = $2 AND series_id IS NULL RETURNING id",
        series_id,
        tournament_id,
    )
    return done is not None


async def results(db: asyncpg.Pool, series_id: int) -> list[asyncpg.Record]:
    """Every result of the series' finished, not cancelled, tournaments: each ranked entry with its
    rank and the count of ranked entries, and each disqualified entry (rank NULL). Tournaments not
    yet finished add nothing yet; cancelled ones nothing ever."""
    return await db.fetch(
        """WITH done AS (
               SELECT t.id FROM tournaments t
                WHERE t.series_id = $1 AND t.finished_at IS NOT NULL AND t.cancelled_at IS NULL)
           SELECT s.player_id, s.tournament_id, s.rank,
                  count(*) OVER (PARTITION BY s.tournament_id)::int AS ranked
             FROM standings s JOIN done ON done.id = s.tournament_id
           UNION ALL
           SELECT e.player_id, e.tournament_id, NULL::int, 0
             FROM entries e JOIN done ON done.id = e.tournament_id
            WHERE e.disqualified IS NOT NULL AND NOT e.practice""",
        series_id,
    )


async def players(db: asyncpg.Pool, player_ids: list[int]) -> dict[int, asyncpg.Record]:
    rows = await db.fetch(  # a handle a club keeps from the public: none
        """SELECT id, name, CASE WHEN roster_name IS NULL THEN handle END AS handle, profile_public
             FROM players WHERE id = ANY($1::bigint[])""",
        player_ids,
    )
    return {r["id"]: r for r in rows}
