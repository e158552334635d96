"""The standings as watchers read them: live from Redis while a tournament runs, from PostgreSQL
once it is finished, none once it is cancelled.

While Redis is unavailable (any of ``REDIS_FAILURES``) the live standings are computed by
PostgreSQL instead, ranked the same way: slower, but every page and rank answers.
"""

from __future__ import annotations

import logging
import time

import asyncpg
import msgspec

from ..operations.metrics import REDIS_ERRORS
from ..storage.redis_client import REDIS_FAILURES
from . import store
from .boards import Boards
from .feeds import TOP
from .messages import Row, Snapshot, TeamRow, profile_of, row_of, team_of
from .teams import from_db

log = logging.getLogger("spidertour.standings")


def _redis_failed(boards: Boards, tournament_id: int) -> None:
    REDIS_ERRORS.inc()
    boards.stale.add(tournament_id)  # the clock rebuilds it once Redis answers again
    log.warning("Redis unavailable: the standings of tournament %s come from PostgreSQL", tournament_id)


def _live_row(record: asyncpg.Record) -> Row:
    row = row_of(record)
    row.rank = record["rank"]
    row.player_id = profile_of(record)
    return row


async def ranked(db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str) -> int:
    """How many entries the ranking holds (counted where they are, never loaded)."""
    if status == "cancelled":
        return 0
    if status == "finished":
        return await store.ranked_count(db, tournament_id)
    try:
        return await boards.board.count(tournament_id)
    except REDIS_FAILURES:
        _redis_failed(boards, tournament_id)
        return await store.live_count(db, tournament_id)


def _final_row(r: asyncpg.Record) -> Row:
    """A row of a finished tournament's stored standings."""
    return Row(
        entry_id=r["entry_id"],
        player=r["player"],
        score=r["score"],
        status=r["status"],
        time_left=r["time_left"],
        rank=r["rank"],
        team=team_of(r),
        matchpoints=msgspec.UNSET if r["matchpoints"] is None else r["matchpoints"],
        player_id=profile_of(r),
    )


async def standings_page(
    db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, offset: int, limit: int
) -> list[Row]:
    """Final standings from PostgreSQL once finished, else the live ones from Redis (none once cancelled)."""
    if status == "cancelled":
        return []
    if status == "finished":
        return [_final_row(r) for r in await store.standings(db, tournament_id, offset, limit)]
    try:
        await boards.board.ensure(db, tournament_id)
        return await boards.board.page(tournament_id, offset, limit)
    except REDIS_FAILURES:
        _redis_failed(boards, tournament_id)
        return [_live_row(r) for r in await store.live_rows(db, tournament_id, offset, limit)]


async def named(
    db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, name: str, offset: int, limit: int
) -> tuple[list[Row], int]:
    """The standings of the players whose name holds ``name`` (any case), by rank, a page of them, and
    how many there are: the matching entries found by PostgreSQL (at most ``store.SEARCH_CAP``),
    ranked by Redis while the tournament runs (one ZREVRANK each), never the whole board read."""
    if status == "cancelled":
        return [], 0
    if status == "finished":
        rows = await store.named_standings(db, tournament_id, name, offset, limit)
        found = await store.named_count(db, tournament_id, name)
        return [_final_row(r) for r in rows], found
    ids = await store.named_entries(db, tournament_id, name)
    try:
        await boards.board.ensure(db, tournament_id)
        every = await boards.board.rows_of(tournament_id, ids)
    except REDIS_FAILURES:
        _redis_failed(boards, tournament_id)
        every = [_live_row(r) for r in await store.live_named(db, tournament_id, name)]
    return every[offset : offset + limit], len(every)


async def live_around(db: asyncpg.Pool, boards: Boards, tournament_id: int, entry_id: int, k: int) -> list[Row] | None:
    """A running tournament's entry with ``k`` neighbours each side (None: not ranked)."""
    try:
        await boards.board.ensure(db, tournament_id)
        return await boards.board.around(tournament_id, entry_id, k)
    except REDIS_FAILURES:
        _redis_failed(boards, tournament_id)
    rank = await store.live_rank(db, tournament_id, entry_id)
    if rank is None:
        return None
    start = max(0, rank - 1 - k)
    return [_live_row(r) for r in await store.live_rows(db, tournament_id, start, rank - 1 - start + k + 1)]


async def snapshot(db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, limit: int = TOP) -> Snapshot:
    rows = await standings_page(db, boards, tournament_id, status, 0, limit)
    entrants = await ranked(db, boards, tournament_id, status)
    return Snapshot(tournament_id=tournament_id, status=status, entrants=entrants, top=rows, at=time.time())


async def team_standings(db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, top: int) -> list[TeamRow]:
    """A team battle's standings: final from PostgreSQL once finished, else live from Redis (from
    PostgreSQL while Redis is unavailable); none once cancelled."""
    if status == "cancelled":
        return []
    if status == "finished":
        return await from_db(db, tournament_id, top, final=True)
    try:
        await boards.board.ensure(db, tournament_id)
        return await boards.teams.standings(tournament_id, top)
    except REDIS_FAILURES:
        _redis_failed(boards, tournament_id)
        return await from_db(db, tournament_id, top, final=False)
