"""The SQL of schedules: creating, listing and stopping them, and the tournaments they made."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg

from .store import TOURNAMENT_SQL

SCHEDULE_COLUMNS = """id, name, template, first_opens_at, every_minutes, open_minutes, ahead_minutes, active,
                      created_at, organiser_id, club_id,
                      (SELECT o.name FROM organisers o WHERE o.id = organiser_id) AS organiser_name,
                      (SELECT c.name FROM clubs c WHERE c.id = club_id) AS club_name"""
SCHEDULE_SQL = f"SELECT {SCHEDULE_COLUMNS} FROM schedules"


async def create_schedule(
    db: asyncpg.Pool,
    name: str,
    template: dict[str, Any],
    first_opens_at: datetime,
    every_minutes: int,
    open_minutes: int,
    ahead_minutes: int,
    organiser_id: int | None = None,
    club_id: int | None = None,
) -> asyncpg.Record:
    row = await db.fetchrow(
        f"""INSERT INTO schedules (name, template, first_opens_at, every_minutes, open_minutes, ahead_minutes,
                                   organiser_id, club_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {SCHEDULE_COLUMNS}""",
        name,
        template,
        first_opens_at,
        every_minutes,
        open_minutes,
        ahead_minutes,
        organiser_id,
        club_id,
    )
    assert row is not None
    return row


async def schedules(db: asyncpg.Pool, active_only: bool = False) -> list[asyncpg.Record]:
    where = "WHERE active" if active_only else ""
    return await db.fetch(f"{SCHEDULE_SQL} {where} ORDER BY id")


async def schedule(db: asyncpg.Pool, schedule_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"{SCHEDULE_SQL} WHERE id = $1", schedule_id)


async def stop_schedule(db: asyncpg.Pool, schedule_id: int) -> bool:
    done = await db.fetchval("UPDATE schedules SET active = false WHERE id = $1 RETURNING id", schedule_id)
    return done is not None


async def made_occurrences(db: asyncpg.Pool, schedule_id: int, occurrences: list[datetime]) -> set[datetime]:
    """Which of these occurrences already have their tournament."""
    rows = await db.fetch(
        "SELECT occurrence FROM tournaments WHERE schedule_id = $1 AND occurrence = ANY($2::timestamptz[])",
        schedule_id,
        occurrences,
    )
    return {r["occurrence"] for r in rows}


async def scheduled_tournaments(db: asyncpg.Pool, schedule_id: int, limit: int = 20) -> list[asyncpg.Record]:
    return await db.fetch(
        f"{TOURNAMENT_SQL} WHERE t.schedule_id = $1 ORDER BY t.occurrence DESC LIMIT $2", schedule_id, limit
    )
