"""The standings as watchers read them: live from Redis while a tournament runs, from PostgreSQL
once it is finished, none once it is cancelled."""

from __future__ import annotations

import time

import asyncpg

from . import store
from .boards import Boards
from .feeds import TOP
from .messages import Row, Snapshot


async def ranked(db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str) -> int:
    """How many entries the ranking holds (counted where they are, never loaded)."""
    if status == "cancelled":
        return 0
    if status == "finished":
        return await store.ranked_count(db, tournament_id)
    return await boards.board.count(tournament_id)


async def standings_page(
    db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, offset: int, limit: int
) -> list[Row]:
    """Final standings from PostgreSQL once finished, else the live ones from Redis (none once cancelled)."""
    if status == "cancelled":
        return []
    if status == "finished":
        return [
            Row(
                entry_id=r["entry_id"],
                player=r["player"],
                score=r["score"],
                status=r["status"],
                time_left=r["time_left"],
                rank=r["rank"],
            )
            for r in await store.standings(db, tournament_id, offset, limit)
        ]
    await boards.board.ensure(db, tournament_id)
    return await boards.board.page(tournament_id, offset, limit)


async def snapshot(db: asyncpg.Pool, boards: Boards, tournament_id: int, status: str, limit: int = TOP) -> Snapshot:
    rows = await standings_page(db, boards, tournament_id, status, 0, limit)
    entrants = await ranked(db, boards, tournament_id, status)
    return Snapshot(tournament_id=tournament_id, status=status, entrants=entrants, top=rows, at=time.time())
