"""How far behind the event loop runs: the overload signal of a process whose CPU is saturated.

``MOVES_WAITING`` bounds the moves waiting for PostgreSQL; when the process itself has no CPU left,
moves wait instead in the sockets and in the event loop's queue, where no count sees them. A small
task asks to be woken every ``TICK`` seconds and measures how late it is woken: that delay is what
every frame read now waits before it is handled. Past ``LOOP_LAG_MS`` a move is answered try_again
(busy) at once, before it changes anything (``Play.busy``), for as long again as the loop was
late (at most ``HOLD`` seconds): the frames that piled up meanwhile are answered at once rather
than played late, while the loop catches up. A move's path reads one attribute; the task costs
the loop 50 wake-ups a second.

The garbage collector's pauses in between (``operations.collector``) are left out of that
decision, not out of the measure: a collection is one stall, after which the loop keeps up, so the
moves that waited through it are played, not refused. (With 10,000 connections a process, the first
collection of the middle generation after they connect takes about half a second.) A loop late for
want of CPU is still late at the next wake-up, collection or not.
"""

from __future__ import annotations

import asyncio
import contextlib

from ...operations.collector import gc_paused
from ...operations.metrics import LOOP_LAG

TICK = 0.02  # seconds between two measures
HOLD = 1.0  # seconds at most that one late wake-up keeps the process busy


class LoopLag:
    """The event loop's lag, measured every ``TICK`` seconds; ``behind`` past ``limit`` seconds (0: never)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.lag = 0.0  # the last measure, in seconds
        self.own = 0.0  # ... less the garbage collector's pauses within it: what decides ``behind``
        self.behind = False
        self.until = 0.0  # the loop's time until which the process is busy
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        peak = 0.0  # the highest lag since the gauge was last set
        last_report = loop.time()
        while True:
            asked, collecting = loop.time(), gc_paused()
            await asyncio.sleep(TICK)
            now = loop.time()
            self.lag = max(now - asked - TICK, 0.0)
            self.own = max(self.lag - (gc_paused() - collecting), 0.0)
            if 0 < self.limit < self.own:
                self.until = now + min(self.own, HOLD)
            self.behind = now < self.until
            peak = max(peak, self.lag)
            if loop.time() - last_report >= 1.0:  # the gauge: the worst of the last second
                LOOP_LAG.set(peak)
                peak, last_report = 0.0, loop.time()
