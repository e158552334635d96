"""Entries: a player joins a tournament, and lists their own entries."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request, get, post
from litestar.exceptions import HTTPException, PermissionDeniedException

from ..communities.store import is_member
from ..competitions.ratings import limit_refusal
from ..competitions.teams import team_for, team_shape
from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of
from ..lib.http import strict_body
from ..lib.tokens import same_secret
from ..operations.openapi import PLAYER, errors
from ..players.auth import require_player
from ..watch.boards import boards_of
from ..watch.messages import Row, profile_of
from . import messages as p
from . import store
from .creation import entry_out
from .routes import find_tournament


def _entries_closed(tour: asyncpg.Record) -> str | None:
    """Why the tournament takes no entry now, or None when it does."""
    if tour["start"] == "together":
        if tour["status"] == "scheduled":
            return None
        return (
            f"the tournament started together at {tour['opens_at'].isoformat()}: "
            "entries were taken until then, and every game started at once"
        )
    if tour["status"] != "open":
        return f"the tournament is {tour['status']}: entries only while open"
    return None


async def join_body(request: Request[Any, Any, Any]) -> p.JoinBody:
    """The join body: optional (none, or ``{"entry_code": ..., "team": ...}``)."""
    if not await request.body():
        return p.JoinBody()
    return await strict_body(request, p.JoinBody)


async def check_access(request: Request[Any, Any, Any], tour: asyncpg.Record, player_id: int, code: str | None) -> None:
    """403 saying what is missing: the club's membership, the entry code, or the right one, or a
    rating within the tournament's limits. A wrong code costs a second join from the address's
    allowance, so codes are not guessed."""
    missing = []
    if tour["club_id"] is not None and not await is_member(core_of(request).db, tour["club_id"], player_id):
        missing.append(f"club members only: join the club {tour['club_name']!r} (id {tour['club_id']}) first")
    if tour["entry_code"] is not None:
        if code is None:
            missing.append('entry code needed: send {"entry_code": "..."}')
        elif not same_secret(code, tour["entry_code"]):
            limiter = limiter_of(request)
            await limiter.take(core_of(request).config.limits["join"], limiter.bucket_hash(request))
            missing.append("wrong entry code")
    refused = await limit_refusal(core_of(request).db, player_id, tour)
    if refused:
        missing.append(refused)
    if missing:
        raise PermissionDeniedException("; ".join(missing))


@post(
    "/api/tournaments/{tournament_id:int}/entries",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join")],
    responses=errors(400, 401, 403, 404, 409, 415, 429),
)
async def join(request: Request[Any, Any, Any], tournament_id: int) -> p.Entry:
    """Player: join a tournament (one entry per player): while it is open, or until its opening
    time when it starts together. A club's tournament takes its members only; one with an entry
    code takes the body ``{"entry_code": "..."}``; one with rating limits, players rated within
    them (403 saying what is missing). In a team battle the player joins for one of its clubs:
    ``{"team": CLUB_ID}`` (400 without it, 403 when not a member). Limited per client address (429
    with Retry-After); a wrong code counts twice."""
    db = core_of(request).db
    player = await require_player(request)
    body = await join_body(request)
    tour = await find_tournament(db, tournament_id)
    team_shape(tour["teams_top"], body.team, tournament_id)
    await check_access(request, tour, player["id"], body.entry_code)
    team = await team_for(db, body.team, player["id"])
    closed = _entries_closed(tour)
    if closed:
        raise HTTPException(status_code=409, detail=closed)
    address = limiter_of(request).address_hash(request)
    try:
        entry_id = await store.join(db, tournament_id, player["id"], address, None if team is None else team.id)
    except store.JoinRefused as err:
        tour = await find_tournament(db, tournament_id)
        raise HTTPException(status_code=409, detail=_entries_closed(tour) or str(err)) from None
    row = await store.entry(db, entry_id)
    assert row is not None
    out = entry_out(row)
    await boards_of(request).publish(
        tournament_id,
        row["ordinal"],
        Row(entry_id=out.id, player=out.player, score=0, status=out.status, team=team, player_id=profile_of(row)),
    )
    return out


@get("/api/me/entries", security=PLAYER, responses=errors(401))
async def my_entries(request: Request[Any, Any, Any]) -> list[p.Entry]:
    """Player: my entries, newest first."""
    player = await require_player(request)
    return [entry_out(r) for r in await store.entries_of_player(core_of(request).db, player["id"])]


ROUTES = [join, my_entries]
