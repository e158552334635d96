"""Every Redis call site takes any failure of its connection as "Redis unavailable", and the hub's
and the feeds' loops never die of one.

Run on uvloop, as the server is, with a client that tries nothing again (redis-py's defaults do not
try a RuntimeError again): a connection reset under it reaches the callers as ``RuntimeError:
unable to perform operation on <TCPTransport closed=True>``, not as a RedisError.
"""

from __future__ import annotations

import asyncio
import json

import uvloop
from redis.asyncio import Redis

from spidertour.server.config import Limit
from spidertour.server.fairplay.limits import Limiter
from spidertour.server.storage.redis_client import connect
from spidertour.server.watch.boards import Boards
from spidertour.server.watch.feeds import Watcher
from spidertour.server.watch.messages import Row
from tests.faults.proxy import TcpProxy
from tests.services import unique_name

TID = 7


def row(score: int) -> Row:
    return Row(entry_id=1, player="ann", score=score, status="playing")


async def _updated_to(watcher: Watcher, score: int, timeout: float = 5.0) -> bool:
    """The watcher is offered an update showing entry 1 at this score within ``timeout``."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + timeout
    while loop.time() < ends:
        try:
            await asyncio.wait_for(watcher.ready.wait(), ends - loop.time())
        except TimeoutError:
            return False
        sent = watcher.take(TID)
        if f'"entry_id":1,"player":"ann","score":{score}'.encode() in sent:
            return True
    return False


async def _run(redis_url: str) -> list[str]:
    problems: list[str] = []
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        redis = Redis.from_url(proxy.url)
        boards = Boards(redis, prefix)
        limiter = Limiter(redis, prefix, (), b"key")
        boards.start()
        try:
            watcher = boards.hub.watch(TID)
            await boards.publish(TID, 1, row(25))
            if not await _updated_to(watcher, 25):
                problems.append("no update before any reset")
            for step, score in enumerate((50, 75, 100)):
                proxy.reset()
                await asyncio.sleep(0.05)
                for name, call in (
                    ("publish", boards.publish(TID, 1, row(score))),
                    ("takeover", boards.hub.takeover(1)),
                    ("stopped", boards.hub.stopped([1], "why")),
                    ("limit", limiter.take(Limit("join", 60, 10, "joins"), b"address")),
                    ("disqualified", boards.disqualified(TID, None, 99)),
                    ("finished", boards.finished(TID + 1)),
                ):
                    try:
                        await call
                    except Exception as err:
                        problems.append(f"reset {step}: {name} raised {err!r}")
                    proxy.reset()
                    await asyncio.sleep(0.05)
                # The publish loop's and the feed's next Redis calls meet dead connections too. Whether
                # the write above reached the board is chance (the clock makes a missed one good): this
                # one goes on a new connection.
                await redis.connection_pool.disconnect(inuse_connections=False)
                await boards.publish(TID, 1, row(score))
                if not await _updated_to(watcher, score):
                    problems.append(f"reset {step}: the watcher was never updated to {score}")
            dead = [task for task in [*boards.hub.tasks, boards.hub.feeds[TID].task] if task.done()]
            if dead:
                problems.append(f"loops ended: {dead}")
        finally:
            await boards.stop()
            await redis.aclose()
    clean = Redis.from_url(redis_url)  # not through the proxy: its connections may be dead
    try:
        keys = [key async for key in clean.scan_iter(match=f"{prefix}:*")]
        if keys:
            await clean.delete(*keys)
    finally:
        await clean.aclose()
    return problems


async def test_every_call_site_outlives_a_reset_connection(redis_url: str) -> None:
    assert await asyncio.to_thread(uvloop.run, _run(redis_url)) == []


async def _changed(watcher: Watcher, timeout: float = 5.0) -> dict[int, int]:
    """The rows (entry -> score) in the ``changed`` of the watcher's next update, within ``timeout``."""
    await asyncio.wait_for(watcher.ready.wait(), timeout)
    update = json.loads(watcher.take(TID))
    return {r["entry_id"]: r["score"] for r in update["changed"]}


async def _refreshed(redis_url: str) -> tuple[bool, bool, dict[int, int], dict[int, int]]:
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        redis = connect(proxy.url)
        boards = Boards(redis, prefix)
        boards.start()
        try:
            watcher = boards.hub.watch(TID)
            follower = boards.hub.watch(TID, frozenset({30}))  # an entry far below the top page
            others = boards.hub.watch(TID, frozenset({31}))  # an entry not on the board
            await asyncio.sleep(0.3)  # subscribed
            for entry in range(2, 31):
                await boards.board.record(
                    TID, entry, Row(entry_id=entry, player=f"p{entry}", score=100, status="playing")
                )
            await boards.board.record(TID, 1, row(140))  # first on the board, but its event never published
            proxy.reset()
            updated = await _updated_to(watcher, 140)
            followed, other = await _changed(follower), await _changed(others)
            await asyncio.sleep(0.6)  # two ticks more
            feed = boards.hub.feeds[TID]
            return updated, not (feed.stale or feed.stale_teams), followed, other
        finally:
            await boards.stop()
            await boards.board.drop(TID)
            await redis.aclose()


async def test_after_the_subscription_is_reset_watchers_get_the_standings_as_they_are(redis_url: str) -> None:
    """Events published while the subscription was down are lost for good: once it is back, each
    feed sends its watchers the top page and count read afresh (here: a row whose event never came);
    then the feed is quiet again (no team battle: no team standings left to read at every tick)."""
    updated, settled, followed, other = await asyncio.to_thread(uvloop.run, _refreshed(redis_url))
    assert updated
    assert settled
    # A watcher following an entry gets that entry's row as it is on the board (beyond the top page),
    # whose changes may have been lost; one following an entry not on the board gets no row.
    assert followed == {30: 100}
    assert other == {}
