"""A running tournament's "playing now" and "waiting to start", counted by PostgreSQL at most once a
``COUNT_SECONDS`` per process and tournament, however many read the first page of its board.

A count reads every entry of the tournament (a 100,000-entrant one in tens of milliseconds): done
on every read of the first page it would be most of the page's time and of PostgreSQL's work. Kept
out of a move's path: nothing is counted as games start or end; the figure is at most a second old.
Readers who come while it is being counted wait for that count rather than start their own.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg

from . import store

COUNT_SECONDS = 1.0


class LiveCounts:
    def __init__(self, seconds: float = COUNT_SECONDS) -> None:
        self.seconds = seconds
        self.known: dict[int, tuple[float, tuple[int, int]]] = {}  # tournament -> (counted at, counts)
        self.counting: dict[int, asyncio.Future[tuple[int, int]]] = {}

    async def get(self, db: asyncpg.Pool, tournament_id: int) -> tuple[int, int]:
        """(playing, waiting) of the tournament, counted at most ``seconds`` ago."""
        found = self.known.get(tournament_id)
        if found is not None and time.monotonic() - found[0] < self.seconds:
            return found[1]
        running = self.counting.get(tournament_id)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
        self.counting[tournament_id] = future
        try:
            counts = await store.live_counts(db, tournament_id)
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self.counting[tournament_id]
        future.set_result(counts)
        self._forget_old()
        self.known[tournament_id] = (time.monotonic(), counts)
        return counts

    def _forget_old(self) -> None:
        """Figures no longer fresh go (tournaments end; the dict stays small)."""
        if len(self.known) > 100:
            now = time.monotonic()
            self.known = {t: v for t, v in self.known.items() if now - v[0] < self.seconds}
