"""Many callers' small writes gathered into few round trips.

Each caller awaits its own result; while a batch is on its way, new items wait for the next one,
so batches grow with the load and cost nothing when it is light (a lone item goes at once).

``interval``: batches start at least this many seconds apart. A commit costs PostgreSQL far more
than a row does (about 0.5 ms against 10 us), so at a moderate load it pays to wait a few
milliseconds and commit ten or twenty moves at once rather than one or two; a lone item after a
quiet spell still goes at once, and under a heavy load the commits take longer than the interval
anyway.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batcher(Generic[T, R]):
    def __init__(
        self,
        run: Callable[[list[T]], Awaitable[list[R]]],
        max_batch: int = 500,
        concurrency: int = 2,
        interval: float = 0.0,
        max_pending: int = 0,
    ) -> None:
        self.run = run
        self.max_batch = max_batch
        self.concurrency = concurrency
        self.pending: list[tuple[T, asyncio.Future[R]]] = []
        self.in_flight = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.interval = interval
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last_start = 0.0
        self.max_pending = max_pending  # items waiting for a batch: past it ``full`` (0: no bound)

    @property
    def full(self) -> bool:
        """As many items wait as ``max_pending``: the caller should refuse new ones for now."""
        return 0 < self.max_pending <= len(self.pending)

    async def submit(self, item: T) -> R:
        if self.loop is None:  # asyncio.get_running_loop() costs a getpid() system call on Python 3.11
            self.loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = self.loop.create_future()
        self.pending.append((item, future))
        if self.in_flight < self.concurrency:
            self.in_flight += 1
            task = asyncio.create_task(self._drain())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await future

    async def _drain(self) -> None:
        try:
            while self.pending:
                if self.interval:
                    loop = self.loop or asyncio.get_running_loop()
                    wait = self.last_start + self.interval - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    self.last_start = loop.time()
                batch = self.pending[: self.max_batch]
                del self.pending[: self.max_batch]
                try:
                    results = await self.run([item for item, _ in batch])
                except BaseException as err:  # every caller of the batch gets the error
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(err if isinstance(err, Exception) else RuntimeError(str(err)))
                    if not isinstance(err, Exception):
                        raise
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self.in_flight -= 1
