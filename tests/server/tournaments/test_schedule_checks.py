"""A schedule is refused when its tournaments could not be created; every process's clock makes each
occurrence once, without drawing ids from the sequence for occurrences already made, and says once
(no traceback) when a schedule stored before these checks cannot make its tournament."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from spidertour.server.config import Config
from spidertour.server.storage.migrations import migrate
from spidertour.server.storage.pool import create_pool
from spidertour.server.tournaments.pars import SolverPool
from spidertour.server.tournaments.schedules import create_scheduled
from tests.client import Api
from tests.server.helpers import assert_error, unique

DAY = 24 * 60


def schedule_body(**fields: Any) -> dict[str, Any]:
    first = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=2)
    return {
        "name": unique("checked"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 60,
        "open_minutes": 30,
        "ahead_minutes": 60,
        "settings": {"variant": "spider78", "suits": 1},
        **fields,
    }


@pytest.mark.parametrize(
    "fields",
    [
        # made a year ahead and open for two days: its tournaments would close past the 366 days
        {"every_minutes": 3 * DAY, "open_minutes": 2 * DAY, "ahead_minutes": 365 * DAY},
        {"every_minutes": 100 * DAY, "open_minutes": 100 * DAY, "ahead_minutes": 300 * DAY},
    ],
)
async def test_a_schedule_whose_tournaments_cannot_be_made_is_refused(
    api: Api, database_url: str, fields: dict[str, Any]
) -> None:
    body = schedule_body(**fields)
    r = api.http.post("/api/schedules", headers=api.admin(), json=body)
    assert_error(r, 400, "could not be created", "366 days")
    conn = await asyncpg.connect(database_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM schedules WHERE name = $1", body["name"]) == 0
    finally:
        await conn.close()


@pytest.fixture
async def pools(fresh_database_url: str) -> Any:
    conn = await asyncpg.connect(fresh_database_url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    made = [await create_pool(fresh_database_url, size=2) for _ in range(3)]  # three processes
    try:
        yield made
    finally:
        for pool in made:
            await pool.close()


async def _insert_schedule(pool: asyncpg.Pool, ahead: int, open_minutes: int, every: int) -> int:
    first = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=1)
    return int(
        await pool.fetchval(
            """INSERT INTO schedules (name, template, first_opens_at, every_minutes, open_minutes, ahead_minutes)
               VALUES ($1, $2, $3, $4, $5, $6) RETURNING id""",
            unique("direct"),
            json.loads(json.dumps({"settings": {"variant": "spider78", "suits": 1}})),
            first,
            every,
            open_minutes,
            ahead,
        )
    )


async def _last_id(pool: asyncpg.Pool) -> int:
    """How many ids the tournaments' sequence has given out."""
    sql = "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM tournaments_id_seq"
    return int(await pool.fetchval(sql))


async def test_clocks_make_each_occurrence_once_without_drawing_ids(pools: list[asyncpg.Pool]) -> None:
    sid = await _insert_schedule(pools[0], ahead=150, open_minutes=30, every=60)
    first = [await create_scheduled(pool, SolverPool(), Config()) for pool in pools]
    assert sorted(len(m) for m in first) == [0, 0, 3]
    before = await _last_id(pools[0])
    for _ in range(4):  # four ticks of three processes' clocks
        for pool in pools:
            assert await create_scheduled(pool, SolverPool(), Config()) == []
    assert await _last_id(pools[0]) == before  # nothing drawn for occurrences already made
    assert await pools[0].fetchval("SELECT count(*) FROM tournaments WHERE schedule_id = $1", sid) == 3


async def test_a_stored_schedule_that_cannot_make_its_tournament_is_reported_once(
    pools: list[asyncpg.Pool], caplog: pytest.LogCaptureFixture
) -> None:
    """A schedule stored before creation checked it (straight into the database here)."""
    sid = await _insert_schedule(pools[0], ahead=365 * DAY, open_minutes=190 * DAY, every=200 * DAY)
    before = await _last_id(pools[0])
    with caplog.at_level(logging.INFO, logger="spidertour.organiser"):
        for _ in range(3):
            for pool in pools:
                await create_scheduled(pool, SolverPool(), Config())
    records = [r for r in caplog.records if r.name == "spidertour.organiser"]
    # The first occurrence is made; the second (200 days ahead, open for 190 more) cannot be, said once.
    assert await pools[0].fetchval("SELECT count(*) FROM tournaments WHERE schedule_id = $1", sid) == 1
    cannot = [r for r in records if "cannot create" in r.getMessage()]
    assert len(cannot) == 1, [r.getMessage() for r in records]
    assert "366 days" in cannot[0].getMessage() and cannot[0].exc_info is None
    assert await _last_id(pools[0]) == before + 1
