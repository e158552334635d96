"""The solver at the server's service: certified deals at creation, and every tournament's par.

The solver is CPU-bound, so it runs in a worker process (never on the event loop, never in a
thread that would hold the interpreter's lock). It reads the whole deal, so nothing it finds is
shown before the finish: a certified tournament shows only that it is certified, and the par
(its line and score) is published with the seed.

The worker also works out the analyses of finished games (``competitions.analysis``). Its jobs wait
in two lines: certifications and pars first, analyses (``later=True``) only when no certification
or par is waiting, each line in the order it was asked; a job is handed to the worker only when it
is free, so a certification waits at most for the one job running, never for the analyses queued.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import secrets
import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar, cast

import asyncpg
from litestar.connection import ASGIConnection

from spidertour.engine import Settings
from spidertour.engine.solver import HUMAN_PACE, solve

from ..fairplay.commitment import new_seed
from ..play.deals import deal_count, deal_seed
from . import store

log = logging.getLogger("spidertour.solver")
T = TypeVar("T")

PAR_PACE = HUMAN_PACE  # seconds a move: the par's score is the line played at this (human) pace
PAR_LEASE = 60.0  # seconds a claim on a par's work lasts unless renewed (renewed every third of it)
STOP_WAIT = 10.0  # seconds the server waits at shutdown for its worker processes to be gone
IDLE_WAIT = 1.0  # seconds an idle worker has to end by itself at shutdown before it is ended


def solve_job(settings: dict[str, Any], seed: str, seconds: float, pace: float = PAR_PACE) -> dict[str, Any]:
    """Run in the worker process: solve one deal, return what the ``pars`` table stores.

    With deal_variation the deal solved is entry 1's (every entry's is the same game renamed).
    """
    engine_settings = Settings.from_json(settings)
    entry = 1 if engine_settings.deal_variation else None
    s = solve(engine_settings, seed, entry, seconds=seconds, clock=time.process_time, pace=pace)
    return {
        "outcome": s.outcome,
        "moves": s.moves_json(),
        "final_score": s.final_score,
        "pace": s.pace,
        "in_time": s.in_time,
        "entry": entry,
        "nodes": s.nodes,
        "seconds": s.seconds,
    }


class NoWinnableDeal(Exception):
    """Certification found no deal the solver wins within its budget."""


def watch_lifeline(lifeline: Connection) -> None:
    """Run in the worker process at its start: end it as soon as the server's end of the lifeline
    closes, which is when the server stops its pool or exits in any way (SIGKILL included), even in
    the middle of a solve. A Ctrl-C at the terminal, which reaches every process of its group, is
    left to the server: its worker ends when the server lets go of it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        try:
            while True:
                lifeline.recv_bytes()
        except (EOFError, OSError):
            pass
        os._exit(0)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


class SolverPool:
    """One worker process, started on first use; jobs queue for it one at a time, the urgent ones
    (certifications, pars) before the others (analyses). The worker lives no longer than the pool
    (see ``watch_lifeline``); a pool whose worker died is started afresh."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._lifeline: Connection | None = None  # the server's end; the workers watch the other
        self._busy = 0  # jobs handed to the executor and not yet ended (at most ``workers``)
        self._waiting: list[tuple[bool, int, asyncio.Future[None]]] = []  # (later, order, turn): a heap
        self._order = itertools.count()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # forkserver: the worker does not inherit the server's threads, sockets and event loop
            context = multiprocessing.get_context("forkserver")
            theirs, ours = context.Pipe(duplex=False)
            self._lifeline = ours
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=watch_lifeline, initargs=(theirs,)
            )
        return self._executor

    async def solve(self, settings: dict[str, Any], seed: str, seconds: float) -> dict[str, Any]:
        return await self.run(solve_job, settings, seed, seconds)

    async def run(self, job: Callable[..., T], *args: Any, later: bool = False) -> T:
        """Run ``job(*args)`` in the worker process (a module-level function, its arguments picklable)
        once the worker is free and no job asked earlier waits, nor an urgent one when ``later``."""
        loop = asyncio.get_running_loop()
        await self._turn(loop, later)
        executor: ProcessPoolExecutor | None = None
        try:
            try:
                executor = self._pool()
                done: Future[T] = executor.submit(job, *args)
            except BaseException:
                self._next()
                raise
            # The turn passes on when the worker has ended the job, even when its caller stopped waiting.
            done.add_done_callback(lambda _: _call_soon(loop, self._next))
            return await asyncio.wrap_future(done)
        except BrokenProcessPool:
            if executor is not None and self._executor is executor:
                log.warning("the solver's worker process died; a new one starts with the next job")
                self.close()
            raise

    async def _turn(self, loop: asyncio.AbstractEventLoop, later: bool) -> None:
        """Wait until this job may be handed to the worker."""
        if self._busy < self.workers and not self._waiting:
            self._busy += 1
            return
        turn: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (later, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given the turn, then cancelled: pass it on
                self._next()
            raise

    def _next(self) -> None:
        """A job ended: the first one waiting (an urgent one first) takes its turn."""
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():  # its caller may have stopped waiting
                turn.set_result(None)
                return
        self._busy = max(0, self._busy - 1)

    def close(self) -> ProcessPoolExecutor | None:
        """Stop the pool: queued jobs are cancelled and the workers end at once, a job running or
        not. Returns the stopped executor (``stop`` waits for its processes), or None."""
        executor, lifeline = self._executor, self._lifeline
        self._executor = self._lifeline = None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if lifeline is not None:
            lifeline.close()
        return executor

    async def stop(self, timeout: float = STOP_WAIT) -> None:
        """Stop the pool and wait (at most ``timeout`` seconds) until its worker processes are gone.

        An idle worker is asked to end first (its queues are then closed in order, and nothing is
        left for the multiprocessing resource tracker to report at exit); one still solving after
        ``IDLE_WAIT`` seconds is ended at once through its lifeline (``close``)."""
        executor = self._executor
        if executor is None:
            self.close()
            return
        finished = asyncio.ensure_future(asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True))
        with contextlib.suppress(TimeoutError):  # a solve still running: the lifeline ends it
            await asyncio.wait_for(asyncio.shield(finished), IDLE_WAIT)
        self.close()
        try:
            await asyncio.wait_for(finished, timeout)
        except TimeoutError:
            log.warning("the solver's worker processes did not end within %g s", timeout)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Run ``callback`` on the event loop from the executor's thread (not once the loop is closed)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback)


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


def claimant() -> str:
    """A server, as its claims on pars name it: host and process, and a random part so that a server
    restarted with the same process id (in a container, say) is not taken for its crashed self."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


async def work_out_pars(
    db: asyncpg.Pool, pool: SolverPool, seconds: float, me: str | None = None, lease: float = PAR_LEASE
) -> int:
    """The par of every finished tournament that has none yet (a few at a time). Returns how many.

    Each is claimed first (``store.PAR_CLAIMS``), so that of all the processes serving one database
    only one solves it; the claim is renewed while the solve runs, given up if it fails or is
    cancelled, and taken over by another process when it runs out (its process crashed)."""
    me = me or claimant()
    done = 0
    for row in await store.finished_without_par(db):
        tid = row["id"]
        starts = await store.PAR_CLAIMS.claim(db, tid, me, lease)
        if starts is None:
            continue  # worked out already, or under way elsewhere
        log.info("solving the par of tournament %s (solve %d of it)", tid, starts)
        try:
            par = await solve_claimed(db, pool, row, seconds, me, lease)
        except BaseException:
            await _release(db, tid, me)
            raise
        if await store.save_par(db, tid, par):
            done += 1
            log.info("par of tournament %s: %s, %s", tid, par["outcome"], par["final_score"])
    return done


async def solve_claimed(
    db: asyncpg.Pool, pool: SolverPool, row: asyncpg.Record, seconds: float, me: str, lease: float
) -> dict[str, Any]:
    """Solve a claimed par, renewing the claim every third of its lease until the solve ends."""
    # With several deals the par is deal 1's (published with "deal": 1).
    seed = deal_seed(row["seed"], 1, deal_count(row["settings"]))
    job = asyncio.ensure_future(pool.solve(row["settings"], seed, seconds))
    try:
        while True:
            done, _ = await asyncio.wait({job}, timeout=lease / 3)
            if done:
                return job.result()
            try:
                if not await store.PAR_CLAIMS.renew(db, row["id"], me, lease):
                    log.warning("the claim on the par of tournament %s was taken over", row["id"])
            except (OSError, asyncpg.PostgresError):
                log.warning("renewing the claim on the par of tournament %s failed", row["id"])
    finally:
        job.cancel()


async def _release(db: asyncpg.Pool, tournament_id: int, me: str) -> None:
    """Give up a claim (best effort, briefly: a claim not given up runs out by itself)."""
    try:
        await asyncio.wait_for(store.PAR_CLAIMS.release(db, tournament_id, me), 2)
    except (OSError, TimeoutError, asyncpg.PostgresError):
        log.warning("could not give up the claim on the par of tournament %s; it runs out", tournament_id)


class Pars:
    """The tournaments side of the solver: its worker process, and the job that works out the par
    of finished tournaments (one job at a time, off the event loop)."""

    def __init__(self, db: asyncpg.Pool, seconds: float) -> None:
        self.db = db
        self.seconds = seconds
        self.solver = SolverPool()
        self.me = claimant()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Work out the par of finished tournaments that have none (unless that is under way)."""
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.create_task(self._pars())

    async def _pars(self) -> None:
        try:
            await work_out_pars(self.db, self.solver, self.seconds, self.me)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("working out a par failed; it is tried again later", exc_info=True)

    async def close(self) -> None:
        """Cancel the job (giving up its claim) and stop the worker processes, a solve running or not."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.solver.stop()


def pars_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Pars:
    return cast(Pars, connection.app.state.pars)
