"""Every Redis call site takes any failure of its connection as "Redis unavailable", and the hub's
and the feeds' loops never die of one.

Run on uvloop, as the server is, with a client that tries nothing again (redis-py's defaults do not
try a RuntimeError again): a connection reset under it reaches the callers as ``RuntimeError:
unable to perform operation on <TCPTransport closed=True>``, not as a RedisError.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import uvloop
from redis.asyncio import Redis

from spidertour.server.config import Limit
from spidertour.server.fairplay.limits import Limiter
from spidertour.server.storage.redis_client import connect
from spidertour.server.watch.boards import Boards
from spidertour.server.watch.feeds import Watcher
from spidertour.server.watch.hub import STREAM_KEEP
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


async def _cut_and_back(redis_url: str, loss: str) -> tuple[bool, dict[int, int], dict[int, int], bool]:
    """A hub reading through a proxy, cut for a while. Meanwhile another process's hub (straight to
    Redis) adds entry 1's new row (140), and the board holds rows whose events never came (entries
    2-30: a page of 100s). ``loss`` "deleted": the stream is deleted too, as a flushed or restarted
    Redis loses it; "trimmed": so many entries follow that the stream drops entry 1's. Then the
    proxy is back."""
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        redis = connect(proxy.url)
        boards = Boards(redis, prefix)
        elsewhere = Boards(connect(redis_url), prefix)  # another process, which never lost Redis
        boards.start()
        elsewhere.start()
        try:
            watcher = boards.hub.watch(TID)
            follower = boards.hub.watch(TID, frozenset({30}))  # an entry far below the top page
            others = boards.hub.watch(TID, frozenset({31}))  # an entry not on the board
            await asyncio.sleep(0.3)  # reading
            proxy.cut()
            await asyncio.sleep(0.3)  # the reader has failed
            for entry in range(2, 31):
                await elsewhere.board.record(
                    TID, entry, Row(entry_id=entry, player=f"p{entry}", score=100, status="playing")
                )
            await elsewhere.publish(TID, 1, row(140))
            await asyncio.sleep(0.3)  # added to the stream
            if loss == "deleted":
                await elsewhere.redis.delete(boards.hub.stream)
            elif loss == "trimmed":  # another tournament's events, past what the stream keeps
                for i in range(STREAM_KEEP + 300):
                    elsewhere.hub.status_changed(TID + 1 + i, "open")
                await asyncio.sleep(0.3)
                assert await elsewhere.redis.xlen(boards.hub.stream) < STREAM_KEEP + 300
            proxy.restore()
            updated = await _updated_to(watcher, 140)
            followed, other = await _changed(follower, 3), await _changed(others, 3)
            await asyncio.sleep(0.6)  # two ticks more
            feed = boards.hub.feeds[TID]
            return updated, followed, other, not (feed.stale or feed.stale_teams)
        finally:
            await boards.stop()
            await elsewhere.stop()
            await elsewhere.board.drop(TID)
            await elsewhere.redis.delete(boards.hub.stream)
            await elsewhere.redis.aclose()
            await redis.aclose()


async def test_what_was_added_while_a_reader_was_cut_is_read_when_it_is_back(redis_url: str) -> None:
    """Nothing is lost: the reader reads on from the last entry it read, so entry 1's row comes as it
    was added, and no watcher is sent rows read afresh (the follower of entry 30, whose row never
    changed in an event, gets none)."""
    updated, followed, other, settled = await asyncio.to_thread(uvloop.run, _cut_and_back(redis_url, "none"))
    assert updated
    assert followed == {} and other == {}
    assert settled


@pytest.mark.parametrize("loss", ["deleted", "trimmed"])
async def test_when_the_stream_lost_what_a_reader_had_not_read_watchers_get_the_standings_as_they_are(
    redis_url: str, loss: str
) -> None:
    """Entries a reader had not read are gone (the stream deleted or trimmed while it was cut): each
    feed sends its watchers the top page and count read afresh (entry 1 at 140, whose event was
    lost), then the feed is quiet again (no team battle: no team standings left to read at every tick)."""
    updated, followed, other, settled = await asyncio.to_thread(uvloop.run, _cut_and_back(redis_url, loss))
    assert updated
    # A watcher following an entry gets that entry's row as it is on the board (beyond the top page),
    # whose changes may have been lost; one following an entry not on the board gets no row.
    assert followed == {30: 100}
    assert other == {}
    assert settled
