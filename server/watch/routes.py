"""Leaderboards over HTTP: a page of the standings, "around me", and a rebuild on demand."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, get, post
from litestar.exceptions import NotFoundException, ServiceUnavailableException
from litestar.params import Parameter

from ..core import core_of
from ..lib.http import require_admin, valid_id
from ..operations.metrics import REDIS_ERRORS
from ..operations.openapi import ADMIN, errors
from ..storage.redis_client import REDIS_FAILURES
from . import store
from .boards import boards_of
from .messages import Board, Rebuilt
from .standings import live_around, named, ranked, standings_page


async def _status(request: Request[Any, Any, Any], tournament_id: int) -> str:
    status = await store.status(core_of(request).db, tournament_id) if valid_id(tournament_id) else None
    if status is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    return status


@get("/api/tournaments/{tournament_id:int}/leaderboard", responses=errors(400, 404))
async def leaderboard(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 50,
    name: Annotated[str | None, Parameter(min_length=1, max_length=40)] = None,
) -> Board:
    """A page of the standings: live from Redis while the tournament runs, from PostgreSQL once finished.
    With ``name``: a page of the entries whose player's name holds it (any case), ``found`` of them.
    A running tournament's first page also counts who is ``playing`` now and who is ``waiting`` to start
    (counted at most once a second per process: ``counts``)."""
    db, boards = core_of(request).db, boards_of(request)
    status = await _status(request, tournament_id)
    entrants = await ranked(db, boards, tournament_id, status)
    if name is not None and name.strip():
        rows, found = await named(db, boards, tournament_id, status, name.strip(), offset, limit)
        return Board(tournament_id=tournament_id, status=status, entrants=entrants, rows=rows, found=found)
    rows = await standings_page(db, boards, tournament_id, status, offset, limit)
    board = Board(tournament_id=tournament_id, status=status, entrants=entrants, rows=rows)
    if offset == 0 and status in ("open", "closing"):
        board.playing, board.waiting = await boards.counts.get(db, tournament_id)
    return board


@get("/api/tournaments/{tournament_id:int}/leaderboard/around/{entry_id:int}", responses=errors(400, 404))
async def around(
    request: Request[Any, Any, Any],
    tournament_id: int,
    entry_id: int,
    k: Annotated[int, Parameter(ge=0, le=50)] = 5,
) -> Board:
    """An entry's rank with k neighbours above and below."""
    db, boards = core_of(request).db, boards_of(request)
    status = await _status(request, tournament_id)
    if not valid_id(entry_id):
        raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
    if status == "cancelled":
        raise NotFoundException(f"tournament {tournament_id} was cancelled: nothing is ranked")
    if status == "finished":
        rank = await store.final_rank(db, tournament_id, entry_id)
        if rank is None:
            raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
        start = max(0, rank - 1 - k)
        rows = await standings_page(db, boards, tournament_id, status, start, rank - 1 - start + k + 1)
    else:
        found = await live_around(db, boards, tournament_id, entry_id, k)
        if found is None:
            raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
        rows = found
    entrants = await ranked(db, boards, tournament_id, status)
    return Board(tournament_id=tournament_id, status=status, entrants=entrants, rows=rows)


@post(
    "/api/tournaments/{tournament_id:int}/leaderboard/rebuild",
    status_code=200,
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def rebuild(request: Request[Any, Any, Any], tournament_id: int) -> Rebuilt:
    """Organiser: rebuild the Redis leaderboard from PostgreSQL now (it also rebuilds by itself).
    A finished tournament's board is rebuilt for a while only (``FINISHED_SECONDS``)."""
    require_admin(request)
    status = await _status(request, tournament_id)
    boards = boards_of(request)
    try:
        entries = await boards.board.reset(core_of(request).db, tournament_id)
        if status in ("finished", "cancelled"):
            await boards.board.expire(tournament_id)
    except REDIS_FAILURES:
        REDIS_ERRORS.inc()
        raise ServiceUnavailableException("Redis is unavailable: try again in a moment") from None
    return Rebuilt(tournament_id=tournament_id, entries=entries)


ROUTES = [leaderboard, around, rebuild]
