"""The watch socket at the finish: the last update carries every entry's final state, and a big
finished tournament's snapshot reads only what it shows."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

import asyncpg
import websockets

from tests.client import Api
from tests.faults.proxy import TcpProxy
from tests.server.helpers import new_player, next_update, reveal_move, watcher
from tests.serverproc import ServerProcess

ENTRIES = 50_000


async def test_the_finishing_update_shows_entries_that_never_started_as_absent(api: Api, server: Any) -> None:
    seed = "finish-seed"
    tid = api.create_tournament(name="finish-update", seed=seed, variant="spider78", suits=2, closes_in=2)["id"]
    player, played = await new_player(api, server.ws_url, tid, "finisher")
    await player.play(reveal_move(seed))
    _, token = api.register("no-show")
    idle = api.join(tid, token)
    ws, first = await watcher(server.ws_url, tid)
    assert {r["entry_id"]: r["status"] for r in first["top"]}[idle["id"]] == "joined"
    await player.play({"type": "end"})
    await player.close()
    seen: dict[int, dict[str, Any]] = {}
    while True:
        update = await next_update(ws, timeout=10)
        seen.update({row["entry_id"]: row for row in update["changed"]})
        if update.get("status") == "finished":
            break
    await ws.close()
    assert seen[idle["id"]]["status"] == "absent" and seen[idle["id"]]["time_left"] == 0
    assert seen[idle["id"]]["score"] == 0 and seen[idle["id"]]["rank"] == 2
    assert seen[played["id"]]["status"] == "ended" and seen[played["id"]]["rank"] == 1
    by_http = {s["entry_id"]: s for s in api.http.get(f"/api/tournaments/{tid}/standings").json()}
    for entry_id, row in seen.items():
        assert (row["status"], row["score"], row["time_left"], row["rank"]) == (
            by_http[entry_id]["status"],
            by_http[entry_id]["score"],
            by_http[entry_id]["time_left"],
            by_http[entry_id]["rank"],
        )
    assert update["top"] == [{**r, "rank": r["rank"]} for r in update["top"]] and len(update["top"]) == 2


async def _big_finished_tournament(database_url: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        tag = secrets.token_hex(4)
        tid = await conn.fetchval(
            # unrated: a ratings rebuild in the same database (tests/server/competitions) leaves it out
            """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at, finished_at, entry_count,
                                        rated)
               VALUES ('fifty thousand', '{"variant": "spider78", "suits": 1, "time_limit": 600}', 's', 'c',
                       now() - interval '2 hours', now() - interval '1 hour', now() - interval '1 minute', $1, false)
               RETURNING id""",
            ENTRIES,
        )
        await conn.execute(
            """INSERT INTO players (name, token_hash)
               SELECT 'p' || g, sha256(($1 || g)::bytea) FROM generate_series(1, $2) g""",
            tag,
            ENTRIES,
        )
        await conn.execute(
            """INSERT INTO entries (tournament_id, player_id, ordinal, status, score, final_score, time_left)
               SELECT $1, p.id, row_number() OVER (ORDER BY p.id), 'ended', (p.id % 1000)::int, (p.id % 1000)::int, 0
                 FROM players p WHERE p.token_hash IN
                      (SELECT sha256(($2 || g)::bytea) FROM generate_series(1, $3) g)""",
            tid,
            tag,
            ENTRIES,
        )
        await conn.execute(
            """INSERT INTO standings (tournament_id, rank, entry_id, player_id, player, final_score, time_left, status)
               SELECT $1, row_number() OVER (ORDER BY e.final_score DESC, e.ordinal), e.id, e.player_id,
                      'p' || e.ordinal, e.final_score, 0, 'ended'
                 FROM entries e WHERE e.tournament_id = $1""",
            tid,
        )
        return int(tid)
    finally:
        await conn.close()


async def test_watching_a_finished_tournament_of_50000_entries_reads_only_the_top(
    server: Any, database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    """(``server``: the session's database is migrated.)"""
    tid = await _big_finished_tournament(database_url)
    with TcpProxy.for_database(database_url) as proxy:
        proc = ServerProcess(
            proxy.url, redis_url, admin_token, env={"REDIS_PREFIX": redis_prefix + "_big", "RATE_PER_SECOND": "500"}
        ).start()
        try:
            time.sleep(1.0)  # let the clock's first sweeps pass
            before = proxy.received
            async with websockets.connect(f"{proc.ws_url}/ws/watch/{tid}") as ws:
                snapshot = json.loads(await ws.recv())
            read = proxy.received - before
        finally:
            proc.stop()
    assert snapshot["status"] == "finished" and snapshot["entrants"] == ENTRIES
    assert [r["rank"] for r in snapshot["top"]] == list(range(1, 21))
    # 50,000 standings rows would be megabytes from PostgreSQL; the top page and a count are a few kB
    # (the clock's sweeps in the same moment included).
    assert read < 100_000, read
