"""Practice: after a tournament finishes, anyone with a player's token plays its deal again, unranked.

A practice entry is an entry marked ``practice`` (schema 013): it is played over the same play
websocket (``/ws/play/{entry_id}``), at the tournament's settings and time limit, and it is in no
standings, leaderboard, entrant count, export, replay, series or rating. With deal_variation it
plays the player's own entry's renamed deal (else entry 1's, the one the par was solved on); the
same game either way. A player has one practice game open (joined or playing) per tournament at a
time: asking again while it is open answers that one (200); once it is over, a new one (201).
"""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException

from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of
from ..lib.http import valid_id
from ..operations.openapi import PLAYER, errors
from ..players.auth import require_player
from ..storage.pool import Db
from ..storage.sql import HIDDEN_SQL, STATUS_SQL
from . import practice_messages as m
from .deal_checks import deal_count

PRACTICE_SQL = """
    SELECT e.id, e.tournament_id, t.name AS tournament, e.player_id, p.name AS player, e.status, e.score,
           e.final_score, e.time_left, e.started_at, e.deadline
      FROM entries e JOIN players p ON p.id = e.player_id JOIN tournaments t ON t.id = e.tournament_id"""


async def finished_tournament(db: Db, tournament_id: int, what: str) -> asyncpg.Record:
    """The tournament (id, name, status, settings, seed) once finished: 404 when there is none, 403
    before its finish, 409 when it was cancelled (``what``: what waits for the finish)."""
    row = (
        await db.fetchrow(
            f"""SELECT t.id, t.name, t.settings, t.seed, {STATUS_SQL} AS status FROM tournaments t
                 WHERE t.id = $1 AND NOT {HIDDEN_SQL}""",
            tournament_id,
        )
        if valid_id(tournament_id)
        else None
    )
    if row is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    if row["status"] == "cancelled":
        raise HTTPException(status_code=409, detail=f"the tournament was cancelled: it has no {what}")
    if row["status"] != "finished":
        raise PermissionDeniedException(f"{what} opens when the tournament finishes (it is {row['status']})")
    return row


async def open_practice(
    db: asyncpg.Pool, tournament_id: int, player_id: int, address: bytes | None
) -> tuple[int, bool]:
    """The player's open practice entry in the tournament, else a new one: (entry id, made now).

    The player's row is locked meanwhile, so two requests at once make one entry."""
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id)
        found = await conn.fetchval(
            """SELECT id FROM entries WHERE tournament_id = $1 AND player_id = $2 AND practice
                  AND status IN ('joined', 'playing') ORDER BY id DESC LIMIT 1""",
            tournament_id,
            player_id,
        )
        if found is not None:
            return found, False
        entry_id = await conn.fetchval(
            """INSERT INTO entries (tournament_id, player_id, ordinal, practice, address_hash)
               SELECT $1, $2, coalesce((SELECT ordinal FROM entries
                                         WHERE tournament_id = $1 AND player_id = $2 AND NOT practice), 1),
                      true, $3
               RETURNING id""",
            tournament_id,
            player_id,
            address,
        )
        return entry_id, True


def practice_out(row: asyncpg.Record) -> m.PracticeEntry:
    return m.PracticeEntry(
        id=row["id"],
        tournament_id=row["tournament_id"],
        tournament=row["tournament"],
        player_id=row["player_id"],
        player=row["player"],
        status=row["status"],
        score=row["score"],
        final_score=row["final_score"],
        time_left=row["time_left"],
        started_at=row["started_at"],
        deadline=row["deadline"],
    )


@post(
    "/api/tournaments/{tournament_id:int}/practice",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join")],
    responses=errors(401, 403, 404, 409, 429),
)
async def practise(request: Request[Any, Any, Any], tournament_id: int) -> Response[m.PracticeEntry]:
    """Player: play a finished tournament's deal again, unranked, over ``/ws/play/{entry_id}`` (201; the
    open practice entry of the player again, 200, while it is not over). 403 before the finish, 409
    when cancelled or of several deals. Its ``over`` message says where it would have ranked, and the par."""
    db = core_of(request).db
    player = await require_player(request)
    tour = await finished_tournament(db, tournament_id, "practice")
    deals = deal_count(tour["settings"])
    if deals > 1:
        raise HTTPException(
            status_code=409, detail=f"practice plays a tournament of one deal: this one had {deals} deals"
        )
    address = limiter_of(request).address_hash(request)
    entry_id, made = await open_practice(db, tournament_id, player["id"], address)
    row = await db.fetchrow(f"{PRACTICE_SQL} WHERE e.id = $1", entry_id)
    assert row is not None
    return Response(practice_out(row), status_code=201 if made else 200)


@get("/api/me/practice", security=PLAYER, responses=errors(401))
async def my_practice(request: Request[Any, Any, Any]) -> list[m.PracticeEntry]:
    """Player: my practice entries, newest first (``/api/me/entries`` lists the ranked ones)."""
    player = await require_player(request)
    rows = await core_of(request).db.fetch(
        f"{PRACTICE_SQL} WHERE e.player_id = $1 AND e.practice ORDER BY e.id DESC LIMIT 200", player["id"]
    )
    return [practice_out(r) for r in rows]


ROUTES = [practise, my_practice]
