"""Live updates between processes and to watchers.

- Each process batches the rows its players changed and adds them to one Redis stream every tick
  (``PREFIX:events``), with tournament status changes; takeovers and games the organiser stopped
  are added at once.
- Each process reads the stream from the last entry it read and hands rows to its local ``Feed``
  of that tournament (``feeds``), which coalesces them for its watchers; takeovers and stops go to
  the play side.

Neither loop ever ends but by ``stop``: a failure of Redis (of any kind: see
``storage.redis_client``) is logged and tried again after a pause that grows to two seconds.
Rows that could not be added wait for the next tick. A reader that lost Redis for a while reads on
from where it was, so nothing added meanwhile is lost; only if the stream no longer holds what it
had not read (``STREAM_KEEP`` entries are kept; a flushed or restarted Redis keeps none) does every
feed send its watchers the standings as they are (the top page, and the rows of the entries a
watcher follows).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, cast

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from ..operations.metrics import REDIS_ERRORS
from ..storage.outages import Outage
from ..storage.redis_client import REDIS_FAILURES, stop_tasks
from .feeds import FEED_SECONDS, Feed, Watcher
from .leaderboard import Leaderboard
from .messages import Row
from .teams import TeamBoard

log = logging.getLogger("spidertour.hub")

PUBLISH_SECONDS = 0.1
STREAM_KEEP = 1000  # entries the stream keeps, about: 30 s at full size, far longer than a reader's pause
READ_BLOCK_MS = 2000  # a read waits this long for new entries (under the client's 5 s command timeout)
READ_COUNT = 500  # entries a read returns at most
Entries = list[tuple[bytes, dict[bytes, bytes]]]  # what a stream's read answers: (id, fields) in order
BOARD, TAKEOVER, STOP = b"b", b"t", b"s"  # the kind of a stream entry (its field "k"; its data in "d")
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


def _id(entry_id: bytes) -> tuple[int, int]:
    """A stream entry's id ("ms-seq") as numbers, to compare."""
    ms, _, seq = entry_id.partition(b"-")
    return int(ms), int(seq or 0)


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
        self.stream = f"{prefix}:events"
        self.outbox: dict[int, dict[int, Row]] = {}
        self.status_outbox: dict[int, str] = {}
        self.feeds: dict[int, Feed] = {}
        self.on_takeover: Callable[[int, str], None] | None = None
        self.on_stop: Callable[[int, str], None] | None = None
        self.process_id = f"{time.time_ns()}-{id(self)}"
        self.tasks: list[asyncio.Task[Any]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._publish_loop()), asyncio.create_task(self._read_loop())]

    async def stop(self) -> None:
        await stop_tasks([*self.tasks, *(f.task for f in self.feeds.values())])

    # ------------------------------------------------------------------ publishing

    def changed(self, tournament_id: int, row: Row) -> None:
        self.outbox.setdefault(tournament_id, {})[row.entry_id] = row

    def status_changed(self, tournament_id: int, status: str) -> None:
        self.status_outbox[tournament_id] = status

    async def takeover(self, entry_id: int) -> None:
        """Tell every process that a new connection now holds this entry."""
        await self._tell(TAKEOVER, f"{entry_id} {self.process_id}".encode(), "takeover")

    async def stopped(self, entry_ids: list[int], why: str) -> bool:
        """Tell every other process that the organiser ended these entries' games (``on_stop`` there).
        False when Redis is unavailable."""
        for start in range(0, len(entry_ids), STOP_CHUNK):
            event = StopEvent(entries=entry_ids[start : start + STOP_CHUNK], why=why, origin=self.process_id)
            if not await self._tell(STOP, _encoder.encode(event), "stop"):
                return False
        return True

    def _add(self, redis: Any, kind: bytes, data: bytes) -> Any:
        """Add one entry to the stream (on the client or a pipeline), keeping about ``STREAM_KEEP``."""
        return redis.xadd(self.stream, {b"k": kind, b"d": data}, maxlen=STREAM_KEEP, approximate=True)

    async def _tell(self, kind: bytes, data: bytes, what: str) -> bool:
        try:
            await self._add(self.redis, kind, data)
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
                    self._add(pipe, BOARD, _encoder.encode(event))
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

    async def _read_loop(self) -> None:
        """Read the stream from the last entry read, for ever. After a failure it reads on from there:
        what was added meanwhile is read then, unless the stream lost some of it (``_lost_since``)."""
        outage = Outage(log, "leaderboard events' reader")  # its failures drive the pause
        last: bytes | None = None  # the id of the last entry read (None: not started)
        while True:
            try:
                if last is None:
                    last = await self._newest()
                elif outage.failures and await self._lost_since(last):
                    self._refresh_feeds()
                outage.ok()
                while True:
                    read = await self.redis.xread({self.stream: last}, count=READ_COUNT, block=READ_BLOCK_MS)
                    for _, entries in cast(list[tuple[bytes, Entries]], read):
                        for entry_id, fields in entries:
                            last = entry_id
                            try:
                                self._dispatch(fields.get(b"k", b""), fields.get(b"d", b""))
                            except Exception:  # one bad entry never ends the reading
                                log.exception("could not handle the stream's entry %r", entry_id)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                REDIS_ERRORS.inc()
                if not isinstance(err, REDIS_FAILURES):  # not Redis out of reach or reset: with its traceback
                    log.warning("leaderboard events' reader failed; reading on in a moment", exc_info=True)
                outage.failed(repr(err))
            await asyncio.sleep(backoff(max(outage.failures, 1)))

    async def _newest(self) -> bytes:
        """The id of the stream's newest entry: what came before this process started is not its news."""
        newest = cast(Entries, await self.redis.xrevrange(self.stream, count=1))
        return newest[0][0] if newest else b"0-0"

    async def _lost_since(self, last: bytes) -> bool:
        """Whether entries newer than ``last`` may be gone: the stream is gone (a flushed or restarted
        Redis), or older than what was read (a Redis restored from an earlier copy), or was trimmed
        past ``last`` while this reader was away (it is full and its oldest entry is newer)."""
        try:
            info = await self.redis.xinfo_stream(self.stream)
        except ResponseError:  # no such key: whatever it held is gone
            return True
        newest, seen = _id(info.get("last-generated-id") or b"0-0"), _id(last)
        if newest <= seen:
            return newest < seen
        first = info.get("first-entry")
        return int(info.get("length") or 0) >= STREAM_KEEP and first is not None and _id(first[0]) > seen

    def _refresh_feeds(self) -> None:
        """Entries added while this reader was away were lost: every feed sends its watchers the
        standings as they are now."""
        log.warning("leaderboard events were lost while Redis was away: watchers are sent the standings afresh")
        for feed in self.feeds.values():
            feed.refresh()

    def _dispatch(self, kind: bytes, data: bytes) -> None:
        if kind == TAKEOVER:
            entry, _, origin = data.decode().partition(" ")
            if self.on_takeover is not None and entry.isdigit():
                self.on_takeover(int(entry), origin)
            return
        if kind == STOP:
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
