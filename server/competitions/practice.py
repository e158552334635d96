"""Practice: after a tournament finishes, anyone with a player's token plays its deal again, unranked.

A practice entry is an entry marked ``practice`` (schema 013): it is played over the same play
websocket (``/ws/play/{entry_id}``), at the tournament's settings and time limit, and it is in no
standings, leaderboard, entrant count, export, replay, series or rating. With deal_variation it
plays the player's own entry's renamed deal (else entry 1's, the one the par was solved on); the
same game either way. A tournament of several deals is practised one deal at a time (``{"deal": k}``
or ``?deal=k``): the entry's ``deal`` column holds k, and it plays deal k as the entrants did (dealt
from ``<seed>/<k>``, renamed alike), that deal only. A player has one practice game open (joined or
playing) per tournament and deal at a time: asking again while it is open answers that one (200);
once it is over, a new one (201).
"""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException
from msgspec import Struct

from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of
from ..lib.http import strict_body, valid_id
from ..operations.openapi import PLAYER, errors
from ..players.auth import require_player
from ..storage.pool import Db
from ..storage.sql import HIDDEN_SQL, STATUS_SQL
from . import practice_messages as m
from .deal_checks import deal_count

PRACTICE_SQL = """
    SELECT e.id, e.tournament_id, t.name AS tournament, e.player_id, p.name AS player, e.status, e.score,
           e.final_score, e.time_left, e.started_at, e.deadline, e.deal, t.settings
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


class PracticeBody(Struct, forbid_unknown_fields=True):
    """What to practise: with several deals, which one (1 to the tournament's deal count)."""

    deal: int | None = None


def query_deal(request: Request[Any, Any, Any]) -> int | None:
    """The deal named by ``?deal=k`` (None: not named): 400 in plain words for anything but a whole
    number from 1, or for two different ones."""
    said: set[int] = set()
    for raw in request.query_params.getall("deal", []):
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 6 or int(raw) < 1:
            raise HTTPException(status_code=400, detail=f"deal must be a whole number from 1, not {raw[:20]!r}")
        said.add(int(raw))
    if len(said) > 1:
        raise HTTPException(status_code=400, detail="two different deals asked for: say one")
    return said.pop() if said else None


async def asked_deal(request: Request[Any, Any, Any]) -> int | None:
    """The deal asked for, by ``?deal=k`` or the body ``{"deal": k}`` (None: not said). 400 in plain
    words for anything but a whole number from 1, or for two different answers."""
    query = query_deal(request)
    said = [] if query is None else [query]
    if await request.body():
        body = await strict_body(request, PracticeBody)
        if body.deal is not None:
            said.append(body.deal)
    if any(k < 1 for k in said):
        raise HTTPException(status_code=400, detail="deal must be a whole number from 1")
    if len(set(said)) > 1:
        raise HTTPException(status_code=400, detail="two different deals asked for: say one")
    return said[0] if said else None


def practised_deal(asked: int | None, deals: int, what: str = "practise") -> int:
    """The deal a practice plays (or an analysis covers: ``what``): the one deal of a tournament of
    one; the one asked for of several (400 when none is named, 404 past the last)."""
    if asked is None:
        if deals == 1:
            return 1
        how = '{"deal": k}' if what == "practise" else "?deal=k"
        raise HTTPException(
            status_code=400,
            detail=f"this tournament had {deals} deals: say which to {what} ({how}, k from 1 to {deals})",
        )
    if asked > deals:
        had = "one deal" if deals == 1 else f"{deals} deals"
        raise NotFoundException(f"no deal {asked}: this tournament had {had}")
    return asked


async def open_practice(
    db: asyncpg.Pool, tournament_id: int, player_id: int, address: bytes | None, deal: int = 1
) -> tuple[int, bool]:
    """The player's open practice entry of the tournament's deal, else a new one: (entry id, made now).

    The player's row is locked meanwhile, so two requests at once make one entry."""
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id)
        found = await conn.fetchval(
            """SELECT id FROM entries WHERE tournament_id = $1 AND player_id = $2 AND practice
                  AND deal = $3 AND status IN ('joined', 'playing') ORDER BY id DESC LIMIT 1""",
            tournament_id,
            player_id,
            deal,
        )
        if found is not None:
            return found, False
        entry_id = await conn.fetchval(
            """INSERT INTO entries (tournament_id, player_id, ordinal, practice, address_hash, deal)
               SELECT $1, $2, coalesce((SELECT ordinal FROM entries
                                         WHERE tournament_id = $1 AND player_id = $2 AND NOT practice), 1),
                      true, $3, $4
               RETURNING id""",
            tournament_id,
            player_id,
            address,
            deal,
        )
        return entry_id, True


def practice_out(row: asyncpg.Record) -> m.PracticeEntry:
    deals = deal_count(row["settings"])
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
        deal=row["deal"] if deals > 1 else None,
        deals=deals,
    )


@post(
    "/api/tournaments/{tournament_id:int}/practice",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join")],
    responses=errors(400, 401, 403, 404, 409, 429),
)
async def practise(request: Request[Any, Any, Any], tournament_id: int) -> Response[m.PracticeEntry]:
    """Player: play a finished tournament's deal again, unranked, over ``/ws/play/{entry_id}`` (201; the
    open practice entry of the player again, 200, while it is not over). With several deals, one deal:
    ``{"deal": k}`` (or ``?deal=k``), 400 without it, 404 past the last deal. 403 before the finish,
    409 when cancelled. Its ``over`` message says where it would have ranked (among that deal's
    results, with several), and the par (deal 1's with several: the other deals have none)."""
    db = core_of(request).db
    player = await require_player(request)
    asked = await asked_deal(request)
    tour = await finished_tournament(db, tournament_id, "practice")
    deal = practised_deal(asked, deal_count(tour["settings"]))
    address = limiter_of(request).address_hash(request)
    entry_id, made = await open_practice(db, tournament_id, player["id"], address, deal)
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
