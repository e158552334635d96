"""The server's PostgreSQL connections compile no statement (``jit`` off): PostgreSQL compiles any
statement whose estimate passes ``jit_above_cost`` on every call, and a statement estimated over
a big table's rows though it reads none of them (the clock's start of together tournaments, with
many entrants waiting) paid 30-40 ms of compiling each time, several times a second."""

from __future__ import annotations

import json

from spidertour.server.storage.pool import create_pool

# Estimated far above jit_above_cost (100,000 by default); only planned here, never run.
COSTLY = "SELECT sum(a * b) FROM generate_series(1, 10000000) a, generate_series(1, 1000) b"


async def test_the_pool_compiles_nothing(database_url: str) -> None:
    pool = await create_pool(database_url, 2)
    try:
        async with pool.acquire() as conn:
            assert await conn.fetchval("SHOW jit") == "off"
            plan = json.loads(await conn.fetchval(f"EXPLAIN (FORMAT JSON) {COSTLY}"))[0]
            assert plan["Plan"]["Total Cost"] > 100_000  # a statement PostgreSQL would otherwise compile
            assert "JIT" not in plan, plan["JIT"]
    finally:
        await pool.close()
