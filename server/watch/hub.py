"""Live updates between processes and to watchers.

- Each process batches the rows its players changed and publishes them on Redis every tick
  (``PREFIX:board``), with tournament status changes; takeovers (``PREFIX:takeover``) and games
  the organiser stopped (``PREFIX:stop``) go at once.
- Each process subscribes once and hands rows to its local ``Feed`` of that tournament
  (``feeds``), which coalesces them for its watchers.

Neither loop ever ends but by ``stop``: a failure of Redis (of any kind: see
``storage.redis_client``) is logged and tried again after a pause that grows to two seconds.
Rows that could not be published wait for the next tick; after the subscription was lost, every
feed sends its watchers the standings as they are (the top page, and the rows of the entries a
watcher follows), since events published meanwhile are gone.
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

from ..operations.metrics import REDIS_ERRORS
from ..storage.outages import Outage
from ..storage.redis_client import REDIS_FAILURES, stop_tasks
from .feeds import FEED_SECONDS, Feed, Watcher
from .leaderboard import Leaderboard
from .messages import Row
from .teams import TeamBoard

log = logging.getLogger("spidertour.hub")

PUBLISH_SECONDS = 0.1
BACKOFF_SECONDS = (0.25, 0.5, 1.0, 2.0)  # pauses after 1, 2, 3... failures in a row
STOP_CHUNK = 1000  # entries named in one stop event at most


class BoardEvent(msgspec.Struct):
    """What one process tells the others about a tournament: changed rows, a new status."""

    t: int  # tournament id
    rows: list[Row] = []
    status: str | None = None


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(BoardEvent)


class StopEvent(msgspec.Struct):
    """The organiser ended these entries' games: their connections, on whichever process, are told why."""

    entries: list[int]
    why: str
    origin: str  # the process that ended it (it told its own connection already)


_stop_decoder = msgspec.json.Decoder(StopEvent)


def backoff(failures: int) -> float:
    return BACKOFF_SECONDS[min(failures, len(BACKOFF_SECONDS)) - 1] if failures else 0.0


class Hub:
    def __init__(
        self,
        redis: Redis,
        board: Leaderboard,
        prefix: str,
        teams: TeamBoard | None = None,
        feed_seconds: float = FEED_SECONDS,
    ) -> None:
        self.redis = redis
        self.feed_seconds = feed_seconds  # each feed's tick
        self.board = board
        self.teams = teams
        self.channel = f"{prefix}:board"
        self.takeover_channel = f"{prefix}:takeover"
        self.stop_channel = f"{prefix}:stop"
        self.outbox: dict[int, dict[int, Row]] = {}
        self.status_outbox: dict[int, str] = {}
        self.feeds: dict[int, Feed] = {}
        self.on_takeover: Callable[[int, str], None] | None = None
        self.on_stop: Callable[[int, str], None] | None = None
        self.process_id = f"{time.time_ns()}-{id(self)}"
        self.tasks: list[asyncio.Task[Any]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._publish_loop()), asyncio.create_task(self._listen_loop())]

    async def stop(self) -> None:
        await stop_tasks([*self.tasks, *(f.task for f in self.feeds.values())])

    # ------------------------------------------------------------------ publishing

    def changed(self, tournament_id: int, row: Row) -> None:
        self.outbox.setdefault(tournament_id, {})[row.entry_id] = row

    def status_changed(self, tournament_id: int, status: str) -> None:
        self.status_outbox[tournament_id] = status

    async def takeover(self, entry_id: int) -> None:
        """Tell every process that a new connection now holds this entry."""
        await self._tell(self.takeover_channel, f"{entry_id} {self.process_id}".encode(), "takeover")

    async def stopped(self, entry_ids: list[int], why: str) -> bool:
        """Tell every other process that the organiser ended these entries' games (``on_stop`` there).
        False when Redis is unavailable."""
        for start in range(0, len(entry_ids), STOP_CHUNK):
            event = StopEvent(entries=entry_ids[start : start + STOP_CHUNK], why=why, origin=self.process_id)
            if not await self._tell(self.stop_channel, _encoder.encode(event), "stop"):
                return False
        return True

    async def _tell(self, channel: str, data: bytes, what: str) -> bool:
        try:
            await self.redis.publish(channel, data)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            log.warning("could not publish a %s event (Redis unavailable)", what)
            return False
        return True

    async def _publish_loop(self) -> None:
        failures = 0
        while True:
            await asyncio.sleep(PUBLISH_SECONDS + backoff(failures))
            if not self.outbox and not self.status_outbox:
                continue
            outbox, self.outbox = self.outbox, {}
            statuses, self.status_outbox = self.status_outbox, {}
            events: list[BoardEvent] = []
            try:
                events = [
                    BoardEvent(t=tid, rows=list(rows.values()), status=statuses.pop(tid, None))
                    for tid, rows in outbox.items()
                ]
                events += [BoardEvent(t=tid, status=status) for tid, status in statuses.items()]
                pipe = self.redis.pipeline(transaction=False)
                for event in events:
                    pipe.publish(self.channel, _encoder.encode(event))
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except REDIS_FAILURES:
                failures += 1
                REDIS_ERRORS.inc()
                log.warning("could not publish %d leaderboard events (Redis unavailable); trying again", len(events))
                for event in events:  # keep them for the next tick, behind any newer row
                    rows = self.outbox.setdefault(event.t, {})
                    for row in event.rows:
                        rows.setdefault(row.entry_id, row)
                    if event.status:
                        self.status_outbox.setdefault(event.t, event.status)
            except Exception:  # never the end of live updates: these events go, the next ones follow
                failures += 1
                log.exception("could not publish %d leaderboard events; dropped", len(events))
            else:
                failures = 0

    # ------------------------------------------------------------------ receiving

    async def _listen_loop(self) -> None:
        outage = Outage(log, "leaderboard subscription")  # its failures drive the pause and the refresh
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel, self.takeover_channel, self.stop_channel)
                if outage.failures:
                    outage.ok()
                    self._refresh_feeds()
                if pubsub.connection is not None:  # the client itself reconnects after a reset
                    pubsub.connection.register_connect_callback(self._reconnected)
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        try:
                            self._dispatch(message["channel"], message["data"])
                        except Exception:  # one bad event never ends the subscription
                            log.exception("could not handle an event on %r", message["channel"])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                REDIS_ERRORS.inc()
                if not isinstance(err, REDIS_FAILURES):  # not Redis out of reach or reset: with its traceback
                    log.warning("leaderboard subscription lost; reconnecting", exc_info=True)
                outage.failed(repr(err))
            finally:
                with contextlib.suppress(Exception):
                    if pubsub.connection is not None:  # it goes back to the pool: not ours to watch
                        pubsub.connection.deregister_connect_callback(self._reconnected)
                    await pubsub.aclose()
            await asyncio.sleep(backoff(max(outage.failures, 1)))

    async def _reconnected(self, _: object) -> None:
        # redis-py reconnected by itself: a WARNING, as the loss of the subscription it follows is one.
        log.warning("leaderboard subscription reconnected: watchers are sent the standings afresh")
        self._refresh_feeds()

    def _refresh_feeds(self) -> None:
        """Events published while the subscription was down are lost: every feed sends its watchers
        the standings as they are now."""
        for feed in self.feeds.values():
            feed.refresh()

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        name = channel.decode()
        if name == self.takeover_channel:
            entry, _, origin = data.decode().partition(" ")
            if self.on_takeover is not None and entry.isdigit():
                self.on_takeover(int(entry), origin)
            return
        if name == self.stop_channel:
            try:
                stop = _stop_decoder.decode(data)
            except msgspec.DecodeError:
                log.warning("ignored a malformed stop event")
                return
            if self.on_stop is not None and stop.origin != self.process_id:
                for entry_id in stop.entries:
                    self.on_stop(entry_id, stop.why)
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

    def watch(self, tournament_id: int, follow: frozenset[int] | None = None, teams_top: int | None = None) -> Watcher:
        """A new watcher of the tournament (``teams_top``: a team battle's, for its team standings)."""
        feed = self.feeds.get(tournament_id)
        if feed is None:
            feed = self.feeds[tournament_id] = Feed(self.board, tournament_id, self.teams, teams_top, self.feed_seconds)
        elif teams_top is not None:
            feed.teams_top = teams_top
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
