"""The SQL of schedules: creating, listing and stopping them, and the tournaments they made."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg

from ..communities.store import held
from .store import TOURNAMENT_SQL

# A revoked organiser's schedule makes nothing (its revocation stopped it; this holds for one made
# as it was revoked too): it is listed as stopped.
SCHEDULE_COLUMNS = """id, name, template, first_opens_at, every_minutes, open_minutes, ahead_minutes,
                      active AND NOT EXISTS (SELECT 1 FROM organisers o
                                              WHERE o.id = organiser_id AND o.revoked_at IS NOT NULL) AS active,
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
    most: int | None = None,
) -> asyncpg.Record | None:
    """The new schedule; None when its organiser runs ``most`` schedules already (nothing made)."""
    async with db.acquire() as conn, conn.transaction():
        if organiser_id is not None and most is not None and await held(conn, organiser_id, "schedules") >= most:
            return None
        return await conn.fetchrow(
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


async def schedules(db: asyncpg.Pool, active_only: bool = False) -> list[asyncpg.Record]:
    """Every schedule, or those still making tournaments (running, their organiser not revoked)."""
    rows = await db.fetch(f"{SCHEDULE_SQL} {'WHERE active' if active_only else ''} ORDER BY id")
    return [r for r in rows if r["active"]] if active_only else rows


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
