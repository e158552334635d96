"""Feeds: one tournament's updates for this process's watchers.

A feed coalesces: at most one update message every ``interval`` seconds (``FEED_MS``, four a
second by default) goes to its watchers,
however many players move. A watcher that cannot keep up keeps only what it has not yet been
sent, merged, so it never slows the feed, other watchers or players (drop-to-latest). A watcher
may follow a few entries: it is then sent the top page and those entries' changes only, which
keeps a big tournament's updates small. In a team battle a feed also sends the team standings
(a ``teams`` message) at a tick where they changed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

import msgspec

from ..operations.metrics import REDIS_ERRORS
from ..storage.redis_client import REDIS_FAILURES
from .leaderboard import Leaderboard
from .messages import Row, TeamRow, Teams, Update
from .teams import TeamBoard

log = logging.getLogger("spidertour.hub")

FEED_SECONDS = 0.25  # at most four updates a second to a watcher, unless FEED_MS says otherwise
TOP = 20
OFFER_CHUNK = 50  # watchers offered a tick between two turns of the event loop

_encoder = msgspec.json.Encoder()


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
        self._rows_at = 0  # where the changed rows go in the bare encoding (0: not found yet)

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

    def encoded_for(self, rows: dict[int, Row]) -> bytes:
        """The update for one watcher: the tick's changes themselves (every row), or the rows given,
        with the top page.

        Rows of its own are set into the bare encoding (``"changed":[]`` comes before any string
        field), so the top page is encoded once a tick, not once a watcher."""
        if rows is self.changed:
            return self.all_encoded()
        bare = self.bare_encoded()
        if not rows:
            return bare
        at = self._rows_at
        if not at:
            at = self._rows_at = bare.index(b'"changed":[') + len(b'"changed":[')
        return b"".join((bare[:at], b",".join([_encoder.encode(row) for row in rows.values()]), bare[at:]))


class Direct(Protocol):
    """A connection that can send at once, without waiting (the play port's): its updates go as
    they are offered, with no task of their own to wake."""

    def can_send(self) -> bool:
        """Its socket takes more now (False: the client reads slower than it is sent to, or left)."""
        ...

    def send_now(self, data: bytes) -> None: ...

    def when_writable(self, callback: Callable[[], None] | None) -> None:
        """Call ``callback`` whenever its socket takes more again (None: no longer)."""
        ...


class Watcher:
    """One watch connection's outbox: the feed offers, the connection's own task takes and sends
    (or, ``attach``-ed to a connection that sends at once, the offer sends it there and then).

    ``follow``: the entries whose changes this watcher wants (None: every entry). When the last
    update has gone, the next tick is sent as the feed encoded it (shared, with no copying; or, with
    rows of its own, those set into it); only a watcher still busy sending merges ticks (latest row
    per entry), so it never holds more than one message's worth and never slows anyone
    (drop-to-latest).
    """

    def __init__(self, follow: frozenset[int] | None = None) -> None:
        self.follow = follow
        self.pending: dict[int, Row] = {}
        self.status: str | None = None
        self.top: list[Row] = []
        self.entrants = 0
        self.fresh: bytes | None = None  # the tick's encoding for this watcher, when nothing else is pending
        self.updated = False  # an update waits to be sent
        self.teams: bytes | None = None  # the latest team standings not yet sent
        self.ready = asyncio.Event()
        self.direct: Direct | None = None  # attached: sent at once by the offer, while the socket takes it
        self.tournament_id = 0

    def attach(self, direct: Direct, tournament_id: int) -> None:
        """Send every update at once on ``direct`` from now on (after the snapshot), starting with
        what waits already; what its socket cannot take yet waits, merged, for ``flush``."""
        self.direct, self.tournament_id = direct, tournament_id
        direct.when_writable(self.flush)
        self.flush()

    def detach(self) -> None:
        if self.direct is not None:
            self.direct.when_writable(None)
            self.direct = None

    def flush(self) -> None:
        """Attached: send what waits, if the socket takes it now (else it waits for the next call)."""
        direct = self.direct
        if direct is not None and self.ready.is_set() and direct.can_send():
            for data in self.take_all(self.tournament_id):
                direct.send_now(data)

    def offer_teams(self, encoded: bytes) -> None:
        """A team battle's new standings: only the latest waits to be sent."""
        self.teams = encoded
        self.ready.set()
        if self.direct is not None:
            self.flush()

    def take_all(self, tournament_id: int) -> list[bytes]:
        """Every message waiting: the update, then the team standings."""
        out = [self.take(tournament_id)] if self.updated else []
        self.ready.clear()
        if self.teams is not None:
            out.append(self.teams)
            self.teams = None
        return out

    def offer(self, tick: Tick) -> None:
        follow, changed = self.follow, tick.changed
        if follow is None:
            mine = changed  # every changed row
        elif changed.keys().isdisjoint(follow):  # the common case: looks up the few followed, not every change
            if tick.top_same and tick.status is None:
                return  # nothing this watcher sees has changed: nothing to send
            mine = {}
        else:
            mine = {eid: changed[eid] for eid in follow if eid in changed}
        if not self.ready.is_set():  # nothing waiting: this tick goes as it is
            encoded = tick.encoded_for(mine)
            direct = self.direct
            if direct is not None and direct.can_send():  # attached, and the socket takes it: now
                direct.send_now(encoded)
                return
            self.pending = mine  # a reference; never changed in place
            self.status = tick.status
            self.fresh = encoded
        else:  # the last one is still waiting: merge into a new dict (the tick's stays untouched)
            self.pending = {**self.pending, **mine}
            if tick.status is not None:
                self.status = tick.status
            self.fresh = None
        self.top = tick.top
        self.entrants = tick.entrants
        self.updated = True
        self.ready.set()
        if self.direct is not None:
            self.flush()

    def take(self, tournament_id: int) -> bytes:
        """Everything not yet sent, as one message."""
        self.ready.clear()
        self.updated = False
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

    def __init__(
        self,
        board: Leaderboard,
        tournament_id: int,
        teams: TeamBoard | None = None,
        teams_top: int | None = None,
        interval: float = FEED_SECONDS,
    ) -> None:
        self.board = board
        self.interval = interval  # seconds between two ticks
        self.tournament_id = tournament_id
        self.team_board = teams
        self.teams_top = teams_top  # a team battle: how many best scores a team counts
        self.last_teams: list[TeamRow] | None = None
        self.watchers: set[Watcher] = set()
        self.changed: dict[int, Row] = {}
        self.status: str | None = None
        self.last_top: list[Row] = []  # the top page and count of the last tick: unchanged, not resent
        self.last_entrants = -1
        self.stale = False  # events may have been missed: the next tick reads the standings anyway
        self.stale_teams = False  # the team standings are read again at the next tick
        self.task = asyncio.create_task(self._run())

    def add(self, rows: list[Row], status: str | None) -> None:
        for row in rows:
            self.changed[row.entry_id] = row
        if status is not None:
            self.status = status

    def refresh(self) -> None:
        """Send the watchers the top page and the count at the next tick, changed or not, and to those
        that follow entries those entries' rows as they are now (their changes may have been lost)."""
        self.stale = True
        self.stale_teams = True

    def _followed(self) -> set[int]:
        """Every entry some watcher follows by name (those that follow every entry are not counted)."""
        followed: set[int] = set()
        for watcher in self.watchers:
            if watcher.follow is not None:
                followed |= watcher.follow
        return followed

    def _wanted(self, changed: dict[int, Row]) -> list[int]:
        """The changed entries some watcher will be sent (only these need their rank looked up)."""
        wanted: set[int] = set()
        for watcher in self.watchers:
            if watcher.follow is None:
                return list(changed)
            wanted |= watcher.follow & changed.keys()
        return list(wanted)

    async def _run(self) -> None:
        """Tick until cancelled: no failure ends it. While Redis fails, the rows wait for a later tick
        (the pause grows to two seconds)."""
        failures = 0
        while True:
            await asyncio.sleep(self.interval * (1 + min(failures, 7)))
            if not self.changed and self.status is None and not self.stale and not self.stale_teams:
                continue
            try:
                ok = await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug of ours: this tick's rows go, the feed goes on
                ok = False
                log.exception("feed of tournament %s failed a tick", self.tournament_id)
            failures = 0 if ok else failures + 1

    async def _tick(self) -> bool:
        """Offer the watchers what changed, ranked, with the top page. False when Redis failed (the
        rows are kept for the next tick)."""
        changed, self.changed = self.changed, {}
        status, self.status = self.status, None
        refresh, self.stale = self.stale, False
        board = self.board
        try:
            if refresh:  # events may have been lost: the followed entries' rows as they are now
                followed = self._followed() - changed.keys()
                for row in await board.rows_of(self.tournament_id, sorted(followed)) if followed else []:
                    changed[row.entry_id] = row
            ids = self._wanted(changed)
            ranks = await board.ranks(self.tournament_id, ids)
            top = await board.page(self.tournament_id, 0, TOP)
            entrants = await board.count(self.tournament_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            log.warning("feed of tournament %s could not read Redis", self.tournament_id)
            self.changed = {**changed, **self.changed}
            self.status = self.status or status
            self.stale = True
            return False
        teams = await self._teams(changed, status)
        for eid, rank in zip(ids, ranks, strict=True):
            changed[eid].rank = rank
        if len(ids) < len(changed):  # rows no watcher is sent: drop them before sharing
            changed = {eid: changed[eid] for eid in ids}
        tick = Tick(self.tournament_id, entrants, changed, top, status)
        tick.top_same = top == self.last_top and entrants == self.last_entrants
        self.last_top, self.last_entrants = top, entrants
        for i, watcher in enumerate(list(self.watchers)):
            watcher.offer(tick)
            if teams is not None:
                watcher.offer_teams(teams)
            if i % OFFER_CHUNK == OFFER_CHUNK - 1:
                # Let the loop read and answer moves between chunks: a thousand watchers woken
                # at once would hold every move back for the tens of milliseconds their sends take.
                await asyncio.sleep(0)
        return True

    async def _teams(self, changed: dict[int, Row], status: str | None) -> bytes | None:
        """A team battle's standings, encoded, when a team's entry changed and they did too."""
        top, board = self.teams_top, self.team_board
        if top is None or board is None:  # no team battle: nothing to read again at the next tick either
            self.stale_teams = False
            return None
        if status is None and not any(row.team is not None for row in changed.values()) and not self.stale_teams:
            return None
        try:
            teams = await board.standings(self.tournament_id, top)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            self.stale_teams = True  # read again at the next tick
            return None
        self.stale_teams = False
        if teams == self.last_teams:
            return None
        self.last_teams = teams
        return _encoder.encode(Teams(teams=teams))
