"""Live updates between processes and to watchers.

- Each process batches the rows its players changed and publishes them on Redis every tick
  (``PREFIX:board``), with tournament status changes and takeovers (``PREFIX:takeover``).
- Each process subscribes once and hands rows to its local ``Feed`` of that tournament.
- A feed coalesces: at most 1 / ``FEED_SECONDS`` update messages a second go to its watchers,
  however many players move. A watcher that cannot keep up keeps only what it has not yet been
  sent, merged, so it never slows the feed, other watchers or players (drop-to-latest).
- A watcher may follow a few entries: it is then sent the top page and those entries' changes
  only, which keeps a big tournament's updates small.
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

from .leaderboard import Leaderboard, Row
from .metrics import REDIS_ERRORS

log = logging.getLogger("spidertour.hub")

PUBLISH_SECONDS = 0.1
FEED_SECONDS = 0.25  # at most four updates a second to a watcher
TOP = 20
OFFER_CHUNK = 50  # watchers offered a tick between two turns of the event loop


class BoardEvent(msgspec.Struct):
    t: int  # tournament id
    rows: list[Row] = []
    status: str | None = None


class Update(msgspec.Struct, tag="update", omit_defaults=True):
    """Watch websocket: what changed since the last message."""

    tournament_id: int
    entrants: int
    changed: list[Row]
    top: list[Row]
    status: str | None = None
    at: float = 0.0  # server time (seconds since the epoch) the update was made


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(BoardEvent)


class Tick:
    """One feed tick: what changed, shared by every watcher of the feed, encoded at most twice."""

    def __init__(
        self, tournament_id: int, entrants: int, changed: dict[int, Row], top: list[Row], status: str | None
    ) -> None:
        self.tournament_id, self.entrants, self.changed, self.top, self.status = (
            tournament_id,
            entrants,
            changed,
            top,
            status,
        )
        self.at = time.time()
        self.top_same = False  # the top page and the count are those of the last tick
        self._all: bytes | None = None
        self._bare: bytes | None = None

    def update(self, changed: list[Row]) -> Update:
        return Update(
            tournament_id=self.tournament_id,
            entrants=self.entrants,
            changed=changed,
            top=self.top,
            status=self.status,
            at=self.at,
        )

    def all_encoded(self) -> bytes:
        """The update with every changed row (for watchers that follow everything)."""
        if self._all is None:
            self._all = _encoder.encode(self.update(list(self.changed.values())))
        return self._all

    def bare_encoded(self) -> bytes:
        """The update with the top page only (for watchers none of whose entries changed)."""
        if self._bare is None:
            self._bare = _encoder.encode(self.update([]))
        return self._bare


class Watcher:
    """One watch connection's outbox: the feed offers, the connection's own task takes and sends.

    ``follow``: the entries whose changes this watcher wants (None: every entry). When the last
    update has gone, the next tick is sent as the feed encoded it, shared, with no copying; only a
    watcher still busy sending merges ticks (latest row per entry), so it never holds more than
    one message's worth and never slows anyone (drop-to-latest).
    """

    def __init__(self, follow: frozenset[int] | None = None) -> None:
        self.follow = follow
        self.pending: dict[int, Row] = {}
        self.status: str | None = None
        self.top: list[Row] = []
        self.entrants = 0
        self.fresh: bytes | None = None  # the tick's shared encoding, when nothing else is pending
        self.ready = asyncio.Event()

    def offer(self, tick: Tick) -> None:
        if self.follow is None:
            mine = tick.changed
        else:
            mine = {eid: tick.changed[eid] for eid in self.follow if eid in tick.changed}
            if not mine and tick.top_same and tick.status is None:
                return  # nothing this watcher sees has changed: nothing to send
        if not self.ready.is_set():  # nothing waiting: this tick goes as it is
            self.pending = mine  # a reference; never changed in place
            self.status = tick.status
            if self.follow is None:
                self.fresh = tick.all_encoded()
            elif not mine:
                self.fresh = tick.bare_encoded()
            else:  # some followed rows: a message of its own, made when sent
                self.fresh = None
        else:  # the last one is still waiting: merge into a new dict (the tick's stays untouched)
            self.pending = {**self.pending, **mine}
            if tick.status is not None:
                self.status = tick.status
            self.fresh = None
        self.top = tick.top
        self.entrants = tick.entrants
        self.ready.set()

    def take(self, tournament_id: int) -> bytes:
        """Everything not yet sent, as one message."""
        self.ready.clear()
        fresh, self.fresh = self.fresh, None
        pending, self.pending = self.pending, {}
        status, self.status = self.status, None
        if fresh is not None:
            return fresh
        return _encoder.encode(
            Update(
                tournament_id=tournament_id,
                entrants=self.entrants,
                changed=list(pending.values()),
                top=self.top,
                status=status,
                at=time.time(),
            )
        )


class Feed:
    """Updates of one tournament for this process's watchers."""

    def __init__(self, hub: Hub, tournament_id: int) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self.watchers: set[Watcher] = set()
        self.changed: dict[int, Row] = {}
        self.status: str | None = None
        self.last_top: list[Row] = []  # the top page and count of the last tick: unchanged, not resent
        self.last_entrants = -1
        self.task = asyncio.create_task(self._run())

    def add(self, rows: list[Row], status: str | None) -> None:
        for row in rows:
            self.changed[row.entry_id] = row
        if status is not None:
            self.status = status

    def _wanted(self, changed: dict[int, Row]) -> list[int]:
        """The changed entries some watcher will be sent (only these need their rank looked up)."""
        wanted: set[int] = set()
        for watcher in self.watchers:
            if watcher.follow is None:
                return list(changed)
            wanted.update(eid for eid in watcher.follow if eid in changed)
        return list(wanted)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(FEED_SECONDS)
            if not self.changed and self.status is None:
                continue
            changed, self.changed = self.changed, {}
            status, self.status = self.status, None
            try:
                board = self.hub.board
                ids = self._wanted(changed)
                ranks = await board.ranks(self.tournament_id, ids)
                for eid, rank in zip(ids, ranks, strict=True):
                    changed[eid].rank = rank
                top = await board.page(self.tournament_id, 0, TOP)
                entrants = await board.count(self.tournament_id)
            except RedisError:
                REDIS_ERRORS.inc()
                log.warning("feed of tournament %s could not read Redis", self.tournament_id)
                self.changed = {**changed, **self.changed}
                continue
            if len(ids) < len(changed):  # rows no watcher is sent: drop them before sharing
                changed = {eid: changed[eid] for eid in ids}
            tick = Tick(self.tournament_id, entrants, changed, top, status)
            tick.top_same = top == self.last_top and entrants == self.last_entrants
            self.last_top, self.last_entrants = top, entrants
            for i, watcher in enumerate(list(self.watchers)):
                watcher.offer(tick)
                if i % OFFER_CHUNK == OFFER_CHUNK - 1:
                    # Let the loop read and answer moves between chunks: a thousand watchers woken
                    # at once would hold every move back for the tens of milliseconds their sends take.
                    await asyncio.sleep(0)


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
                    await pubsub.aclose()

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
            feed = self.feeds[tournament_id] = Feed(self, tournament_id)
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
