"""A tournament of 60,000 entrants finishes even when every ordinary statement must answer within
half a second: the statements over all its entries at the finish (the absent marked, the standings
and ratings stored) have a timeout of their own (``WHOLE_TOURNAMENT_TIMEOUT``), so the finish is
not cut off and retried for ever. A page deep in its final standings is read as any other."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx

from spidertour.server.storage.migrations import migrate
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

ENTRIES = 60_000


async def test_a_big_finish_outlasts_a_short_statement_timeout(
    fresh_database_url: str, redis_url: str, admin_token: str
) -> None:
    conn = await asyncpg.connect(fresh_database_url)
    try:
        await migrate(conn)
        tid = await conn.fetchval(
            """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at, entry_count)
               VALUES ('sixty thousand', '{"variant": "spider78", "suits": 1, "time_limit": 600}', 's', 'c',
                       now() - interval '2 hours', now() - interval '1 minute', $1)
               RETURNING id""",
            ENTRIES,
        )
        await conn.execute("INSERT INTO players (name) SELECT 'p' || g FROM generate_series(1, $1) g", ENTRIES)
        await conn.execute(
            """INSERT INTO entries (tournament_id, player_id, ordinal)
               SELECT $1, id, row_number() OVER (ORDER BY id) FROM players""",
            tid,
        )
        await conn.execute("ANALYZE")
        env = {**server_env(unique_name("bigfin")), "DB_TIMEOUT": "0.5"}
        proc = ServerProcess(fresh_database_url, redis_url, admin_token, env=env).start()
        try:
            for _ in range(600):
                if await conn.fetchval("SELECT finished_at IS NOT NULL FROM tournaments WHERE id = $1", tid):
                    break
                await asyncio.sleep(0.2)
            # A page deep in the final standings, and an entry with its neighbours there.
            deep = httpx.get(f"{proc.url}/api/tournaments/{tid}/leaderboard", params={"offset": ENTRIES - 10}).json()
            last = await conn.fetchval(
                "SELECT entry_id FROM standings WHERE tournament_id = $1 AND rank = $2", tid, ENTRIES
            )
            around = httpx.get(f"{proc.url}/api/tournaments/{tid}/leaderboard/around/{last}", params={"k": 2}).json()
        finally:
            proc.stop()
        assert [r["rank"] for r in deep["rows"]] == list(range(ENTRIES - 9, ENTRIES + 1))
        assert deep["rows"][-1]["entry_id"] == last and {r["status"] for r in deep["rows"]} == {"absent"}
        assert [r["rank"] for r in around["rows"]] == [ENTRIES - 2, ENTRIES - 1, ENTRIES]
        assert await conn.fetchval("SELECT finished_at IS NOT NULL FROM tournaments WHERE id = $1", tid)
        stored = await conn.fetchrow(
            "SELECT count(*) AS n, min(rank) AS first, max(rank) AS last FROM standings WHERE tournament_id = $1", tid
        )
        assert stored is not None and (stored["n"], stored["first"], stored["last"]) == (ENTRIES, 1, ENTRIES)
        assert (
            await conn.fetchval("SELECT count(*) FROM entries WHERE tournament_id = $1 AND status = 'absent'", tid)
            == ENTRIES
        )
    finally:
        await conn.close()
