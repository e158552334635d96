"""``FEED_MS``: how often a tournament's watchers are sent an update, however often its players move.
Real Redis, the server's own boards and hub; a score published every 40 ms for two seconds."""

from __future__ import annotations

import asyncio
from itertools import pairwise

from spidertour.server.config import Config
from spidertour.server.storage.redis_client import connect
from spidertour.server.watch.boards import Boards
from spidertour.server.watch.messages import Row
from tests.services import unique_name

TID = 11
SECONDS = 2.0


async def _update_times(redis_url: str, feed_seconds: float) -> list[float]:
    """When the watcher was offered an update, in seconds from the first move."""
    prefix = unique_name("st_feed")
    redis = connect(redis_url)
    boards = Boards(redis, prefix, feed_seconds)
    boards.start()
    loop = asyncio.get_running_loop()
    times: list[float] = []
    try:
        watcher = boards.hub.watch(TID)
        await asyncio.sleep(0.3)  # subscribed
        start = loop.time()

        async def watch() -> None:
            while True:
                await watcher.ready.wait()
                watcher.take(TID)
                times.append(loop.time() - start)

        watching = asyncio.create_task(watch())
        score = 0
        while loop.time() - start < SECONDS:
            score += 5
            await boards.publish(TID, 1, Row(entry_id=1, player="ann", score=score, status="playing"))
            await asyncio.sleep(0.04)
        await asyncio.sleep(feed_seconds + 0.2)  # the last tick
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
    finally:
        await boards.stop()
        await boards.board.drop(TID)
        await redis.aclose()
    return times


async def test_feed_ms_sets_how_often_watchers_are_updated(redis_url: str) -> None:
    slow = Config.from_env({"FEED_MS": "800"}).feed_seconds
    assert slow == 0.8
    often, seldom = (
        await _update_times(redis_url, Config.from_env({}).feed_seconds),
        await _update_times(redis_url, slow),
    )
    # Four a second by default: about eight in the two seconds; one every 0.8 s: two or three.
    assert len(often) >= 6, often
    assert 2 <= len(seldom) <= 4, seldom
    assert all(b - a > 0.6 for a, b in pairwise(seldom)), seldom  # never two close together
