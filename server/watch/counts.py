"""A running tournament's "playing now" and "waiting to start", counted by PostgreSQL at most once a
``COUNT_SECONDS`` per process and tournament, however many read the first page of its board.

A count reads every entry of the tournament (a 100,000-entrant one in tens of milliseconds): done
on every read of the first page it would be most of the page's time and of PostgreSQL's work. Kept
out of a move's path: nothing is counted as games start or end. Only the first read of a
tournament (or one after ``STALE_SECONDS`` without any) waits for a count, readers at once sharing
it; the others get the last figure at once, and one older than ``COUNT_SECONDS`` is counted again
in the background for the next reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import asyncpg

from . import store

log = logging.getLogger("spidertour.watch")

COUNT_SECONDS = 1.0
STALE_SECONDS = 10.0  # a figure older than this is never served: the read waits for the count


class LiveCounts:
    def __init__(self, seconds: float = COUNT_SECONDS) -> None:
        self.seconds = seconds
        self.known: dict[int, tuple[float, tuple[int, int]]] = {}  # tournament -> (counted at, counts)
        self.counting: dict[int, asyncio.Task[tuple[int, int]]] = {}

    async def get(self, db: asyncpg.Pool, tournament_id: int) -> tuple[int, int]:
        """(playing, waiting) of the tournament: the last figure counted (a new count started when
        it is older than ``seconds``), or a first count."""
        found = self.known.get(tournament_id)
        if found is not None and time.monotonic() - found[0] < self.seconds:
            return found[1]
        task = self.counting.get(tournament_id)
        if task is None:
            task = self.counting[tournament_id] = asyncio.create_task(self._count(db, tournament_id))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())  # a failure is logged, not left
        if found is not None and time.monotonic() - found[0] < STALE_SECONDS:
            return found[1]  # the next reads get the new figure
        return await asyncio.shield(task)

    async def _count(self, db: asyncpg.Pool, tournament_id: int) -> tuple[int, int]:
        try:
            counts = await store.live_counts(db, tournament_id)
        except Exception:
            log.warning("could not count the entries of tournament %s", tournament_id, exc_info=True)
            raise
        finally:
            with contextlib.suppress(KeyError):
                del self.counting[tournament_id]
        self._forget_old()
        self.known[tournament_id] = (time.monotonic(), counts)
        return counts

    def _forget_old(self) -> None:
        """Figures of tournaments not read for a while go (tournaments end; the dict stays small)."""
        if len(self.known) > 100:
            now = time.monotonic()
            self.known = {t: v for t, v in self.known.items() if now - v[0] < 60 + self.seconds}
