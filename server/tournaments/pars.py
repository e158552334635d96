"""The solver at the server's service: certified deals at creation, and every tournament's par.

The solver is CPU-bound, so it runs in a worker process (never on the event loop, never in a
thread that would hold the interpreter's lock). It reads the whole deal, so nothing it finds is
shown before the finish: a certified tournament shows only that it is certified, and the par
(its line and score) is published with the seed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, cast

import asyncpg
from litestar.connection import ASGIConnection

from spidertour.engine import Settings
from spidertour.engine.solver import DEFAULT_PACE, solve

from ..fairplay.commitment import new_seed
from . import store

log = logging.getLogger("spidertour.solver")

PAR_PACE = DEFAULT_PACE  # seconds a move: the par's score is the line played at this pace


def solve_job(settings: dict[str, Any], seed: str, seconds: float, pace: float = PAR_PACE) -> dict[str, Any]:
    """Run in the worker process: solve one deal, return what the ``pars`` table stores.

    With deal_variation the deal solved is entry 1's (every entry's is the same game renamed).
    """
    engine_settings = Settings.from_json(settings)
    entry = 1 if engine_settings.deal_variation else None
    s = solve(engine_settings, seed, entry, seconds=seconds, clock=time.monotonic, pace=pace)
    return {
        "outcome": s.outcome,
        "moves": s.moves_json(),
        "final_score": s.final_score,
        "pace": s.pace,
        "entry": entry,
        "nodes": s.nodes,
        "seconds": s.seconds,
    }


class NoWinnableDeal(Exception):
    """Certification found no deal the solver wins within its budget."""


class SolverPool:
    """One worker process, started on first use; jobs queue for it one at a time."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # forkserver: the worker does not inherit the server's threads, sockets and event loop
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def solve(self, settings: dict[str, Any], seed: str, seconds: float) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), solve_job, settings, seed, seconds)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


async def certify(
    pool: SolverPool, settings: dict[str, Any], seed: str | None, seconds: float, tries: int
) -> tuple[str, dict[str, Any]]:
    """A seed whose deal the solver wins within ``seconds``, and that win (the par, kept secret).

    With ``seed`` given, only that seed is tried; else fresh seeds from the cryptographic source,
    at most ``tries`` of them. Raises NoWinnableDeal when none is won.
    """
    candidates = [seed] if seed is not None else None
    for i in range(1 if candidates else tries):
        candidate = candidates[0] if candidates else new_seed()
        par = await pool.solve(settings, candidate, seconds)
        if par["outcome"] == "won":
            log.info("certified a deal after %d tries", i + 1)
            return candidate, par
    if seed is not None:
        raise NoWinnableDeal(f"the solver did not win the given seed's deal within {seconds:g} s")
    raise NoWinnableDeal(
        f"the solver won none of {tries} deals within {seconds:g} s each: "
        "give it more time (certify_seconds), or choose fewer suits or the free column"
    )


async def work_out_pars(db: asyncpg.Pool, pool: SolverPool, seconds: float) -> int:
    """The par of every finished tournament that has none yet (a few at a time). Returns how many."""
    done = 0
    for row in await store.finished_without_par(db):
        par = await pool.solve(row["settings"], row["seed"], seconds)
        if await store.save_par(db, row["id"], par):
            done += 1
            log.info("par of tournament %s: %s, %s", row["id"], par["outcome"], par["final_score"])
    return done


class Pars:
    """The tournaments side of the solver: its worker process, and the job that works out the par
    of finished tournaments (one job at a time, off the event loop)."""

    def __init__(self, db: asyncpg.Pool, seconds: float) -> None:
        self.db = db
        self.seconds = seconds
        self.solver = SolverPool()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Work out the par of finished tournaments that have none (unless that is under way)."""
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.create_task(self._pars())

    async def _pars(self) -> None:
        try:
            await work_out_pars(self.db, self.solver, self.seconds)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("working out a par failed; it is tried again later", exc_info=True)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        self.solver.close()


def pars_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Pars:
    return cast(Pars, connection.app.state.pars)
