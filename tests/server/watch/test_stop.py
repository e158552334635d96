"""A server stopped right after it started stops: the hub's reader and the sign-outs' pub/sub tasks
end even when their cancel lands while redis-py connects or subscribes (which it may swallow, going
on to listen).

Run on uvloop, as the server is, many times at moments spread over the tasks' start."""

from __future__ import annotations

import asyncio

import asyncpg
import uvloop

from spidertour.server.players.signouts import Signouts
from spidertour.server.storage.redis_client import connect
from spidertour.server.watch.boards import Boards
from tests.services import unique_name

ROUNDS = 60
GUARD = 30.0  # seconds: far beyond any stop; reached only by a stop that never ends


async def _stops(redis_url: str, database_url: str) -> list[str]:
    hung: list[str] = []
    redis = connect(redis_url)
    db = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    try:
        for i in range(ROUNDS):
            prefix = unique_name("st")
            boards, signouts = Boards(redis, prefix), Signouts(redis, db, prefix)
            boards.start()
            signouts.start()
            await asyncio.sleep((i % 6) * 0.0005)
            for name, stop in (("hub", boards.stop), ("signouts", signouts.stop)):
                try:
                    await asyncio.wait_for(stop(), GUARD)
                except TimeoutError:
                    hung.append(f"{name} in round {i}")
            if hung:
                break
    finally:
        await redis.aclose()
        await db.close()
    return hung


def test_the_pub_sub_tasks_stop_however_early_they_are_stopped(redis_url: str, database_url: str) -> None:
    assert uvloop.run(_stops(redis_url, database_url)) == []
