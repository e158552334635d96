"""Live updates between processes and to watchers.

- Each process batches the rows its players changed and publishes them on Redis every tick
  (``PREFIX:board``), with tournament status changes and takeovers (``PREFIX:takeover``).
- Each process subscribes once and hands rows to its local ``Feed`` of that tournament
  (``feeds``), which coalesces them for its watchers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..operations.metrics import REDIS_ERRORS
from .feeds import Feed, Watcher
from .leaderboard import Leaderboard
from .messages import Row

log = logging.getLogger("spidertour.hub")

PUBLISH_SECONDS = 0.1


class BoardEvent(msgspec.Struct):
    """What one process tells the others about a tournament: changed rows, a new status."""

    t: int  # tournament id
    rows: list[Row] = []
    status: str | None = None


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(BoardEvent)


class Hub:
    def __init__(self, redis: Redis, board: Leaderboard, prefix: str) -> None:
        self.redis = redis
        self.board = board
        self.channel = f"{prefix}:board"
        self.takeover_channel = f"{prefix}:takeover"
        self.outbox: dict[int, dict[int, Row]] = {}
        self.status_outbox: dict[int, str] = {}
        self.feeds: dict[int, Feed] = {}
        self.on_takeover: Callable[[int, str], None] | None = None
        self.process_id = f"{time.time_ns()}-{id(self)}"
        self.tasks: list[asyncio.Task[Any]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._publish_loop()), asyncio.create_task(self._listen_loop())]

    async def stop(self) -> None:
        for task in self.tasks + [f.task for f in self.feeds.values()]:
            task.cancel()
        await asyncio.gather(*self.tasks, *(f.task for f in self.feeds.values()), return_exceptions=True)

    # ------------------------------------------------------------------ publishing

    def changed(self, tournament_id: int, row: Row) -> None:
        self.outbox.setdefault(tournament_id, {})[row.entry_id] = row

    def status_changed(self, tournament_id: int, status: str) -> None:
        self.status_outbox[tournament_id] = status

    async def takeover(self, entry_id: int) -> None:
        """Tell every process that a new connection now holds this entry."""
        with contextlib.suppress(RedisError):
            await self.redis.publish(self.takeover_channel, f"{entry_id} {self.process_id}")

    async def _publish_loop(self) -> None:
        while True:
            await asyncio.sleep(PUBLISH_SECONDS)
            if not self.outbox and not self.status_outbox:
                continue
            outbox, self.outbox = self.outbox, {}
            statuses, self.status_outbox = self.status_outbox, {}
            events = [
                BoardEvent(t=tid, rows=list(rows.values()), status=statuses.pop(tid, None))
                for tid, rows in outbox.items()
            ]
            events += [BoardEvent(t=tid, status=status) for tid, status in statuses.items()]
            try:
                pipe = self.redis.pipeline(transaction=False)
                for event in events:
                    pipe.publish(self.channel, _encoder.encode(event))
                await pipe.execute()
            except RedisError:
                REDIS_ERRORS.inc()
                log.warning("could not publish %d leaderboard events", len(events))
                for event in events:  # keep them for the next tick
                    self.outbox.setdefault(event.t, {}).update({r.entry_id: r for r in event.rows})
                    if event.status:
                        self.status_outbox.setdefault(event.t, event.status)

    # ------------------------------------------------------------------ receiving

    async def _listen_loop(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel, self.takeover_channel)
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        self._dispatch(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("leaderboard subscription lost; reconnecting", exc_info=True)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        if channel.decode() == self.takeover_channel:
            entry, _, origin = data.decode().partition(" ")
            if self.on_takeover is not None and entry.isdigit():
                self.on_takeover(int(entry), origin)
            return
        try:
            event = _event_decoder.decode(data)
        except msgspec.DecodeError:
            log.warning("ignored a malformed leaderboard event")
            return
        feed = self.feeds.get(event.t)
        if feed is not None:
            feed.add(event.rows, event.status)

    # ------------------------------------------------------------------ watchers

    def watch(self, tournament_id: int, follow: frozenset[int] | None = None) -> Watcher:
        feed = self.feeds.get(tournament_id)
        if feed is None:
            feed = self.feeds[tournament_id] = Feed(self.board, tournament_id)
        watcher = Watcher(follow)
        feed.watchers.add(watcher)
        return watcher

    def unwatch(self, tournament_id: int, watcher: Watcher) -> None:
        feed = self.feeds.get(tournament_id)
        if feed is None:
            return
        feed.watchers.discard(watcher)
        if not feed.watchers:
            feed.task.cancel()
            del self.feeds[tournament_id]
