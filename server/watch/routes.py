"""Leaderboards over HTTP: a page of the standings, and "around me"."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, get, post
from litestar.exceptions import NotFoundException
from litestar.params import Parameter

from . import store
from .leaderboard import Row
from .openapi import ADMIN, errors
from .routes import MAX_ID, require_admin
from .services import Services
from .watch import ranked, standings_page


class Board(msgspec.Struct):
    tournament_id: int
    status: str
    entrants: int
    rows: list[Row]


async def _status(services: Services, tournament_id: int) -> str:
    row = await store.tournament(services.db, tournament_id) if 0 < tournament_id <= MAX_ID else None
    if row is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    return str(row["status"])


async def _entrants(services: Services, tournament_id: int, status: str) -> int:
    return await ranked(services, tournament_id, status)


@get("/api/tournaments/{tournament_id:int}/leaderboard", responses=errors(400, 404))
async def leaderboard(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 50,
) -> Board:
    """A page of the standings: live from Redis while the tournament runs, from PostgreSQL once finished."""
    services: Services = request.app.state.services
    status = await _status(services, tournament_id)
    rows = await standings_page(services, tournament_id, status, offset, limit)
    return Board(
        tournament_id=tournament_id, status=status, entrants=await _entrants(services, tournament_id, status), rows=rows
    )


@get("/api/tournaments/{tournament_id:int}/leaderboard/around/{entry_id:int}", responses=errors(400, 404))
async def around(
    request: Request[Any, Any, Any],
    tournament_id: int,
    entry_id: int,
    k: Annotated[int, Parameter(ge=0, le=50)] = 5,
) -> Board:
    """An entry's rank with k neighbours above and below."""
    services: Services = request.app.state.services
    status = await _status(services, tournament_id)
    if not 0 < entry_id <= MAX_ID:
        raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
    if status == "cancelled":
        raise NotFoundException(f"tournament {tournament_id} was cancelled: nothing is ranked")
    if status == "finished":
        rank = await services.db.fetchval(
            "SELECT rank FROM standings WHERE tournament_id = $1 AND entry_id = $2", tournament_id, entry_id
        )
        if rank is None:
            raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
        start = max(0, rank - 1 - k)
        rows = await standings_page(services, tournament_id, status, start, rank - 1 - start + k + 1)
    else:
        await services.board.ensure(services.db, tournament_id)
        found = await services.board.around(tournament_id, entry_id, k)
        if found is None:
            raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
        rows = found
    return Board(
        tournament_id=tournament_id, status=status, entrants=await _entrants(services, tournament_id, status), rows=rows
    )


class Rebuilt(msgspec.Struct):
    tournament_id: int
    entries: int


@post(
    "/api/tournaments/{tournament_id:int}/leaderboard/rebuild",
    status_code=200,
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def rebuild(request: Request[Any, Any, Any], tournament_id: int) -> Rebuilt:
    """Organiser: rebuild the Redis leaderboard from PostgreSQL now (it also rebuilds by itself)."""
    require_admin(request)
    services: Services = request.app.state.services
    await _status(services, tournament_id)
    return Rebuilt(tournament_id=tournament_id, entries=await services.board.reset(services.db, tournament_id))


BOARD_ROUTES = [leaderboard, around, rebuild]
