"""The par's work across processes: solved once by all the servers on one database, and the solver's
worker processes never outlive their server, however it stops."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from spidertour.server.storage.pool import create_pool
from spidertour.server.tournaments import store
from spidertour.server.tournaments.pars import SolverPool, solve_claimed
from tests.client import Api
from tests.conftest import server_env
from tests.server.helpers import fetch
from tests.serverproc import ServerProcess, descendants, running

# A four-suit deal: the solver does not win it within its budget, so a solve takes all of it.
HARD = {"variant": "spider", "suits": 4}
UNWON = "hard-6"  # a 4-suit deal the solver does not win in 700,000 positions (over 20 s of CPU)


def start_server(database_url: str, redis_url: str, admin_token: str, prefix: str, **env: str) -> ServerProcess:
    proc = ServerProcess(database_url, redis_url, admin_token, env={**server_env(prefix), **env}, log_level="info")
    proc.log_path.unlink(missing_ok=True)  # its log counts solve starts: this run's alone
    return proc.start()


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for proc in started:
        proc.stop()


def finishing_soon(api: Api, closes_in: float = 2, seed: str | None = None) -> int:
    now = datetime.now(UTC)
    body: dict[str, Any] = {
        "name": "par work",
        "settings": HARD,
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(seconds=closes_in)).isoformat(),
    }
    if seed is not None:
        body["seed"] = seed
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def solve_starts(procs: list[ServerProcess], tid: int) -> int:
    line = f"solving the par of tournament {tid} "
    return sum(proc.log_path.read_text().count(line) for proc in procs)


async def until(check: Any, what: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.2)
    return found


async def test_two_servers_on_one_database_solve_a_par_once(
    servers: list[ServerProcess], fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    for _ in range(2):
        servers.append(start_server(fresh_database_url, redis_url, admin_token, redis_prefix))
    api = Api(servers[0].url, admin_token)
    tid = finishing_soon(api)
    # Both servers' clocks see it finish; each polls for pars with no owner every half second,
    # while the solve takes its whole budget (3 s).
    done = await until(lambda: (t := api.tournament(tid))["par"] is not None and t, "no par")
    assert done["status"] == "finished"
    await asyncio.sleep(2)  # both clocks keep sweeping: a second solve would start now
    assert solve_starts(servers, tid) == 1
    (claim,) = await fetch(fresh_database_url, "SELECT starts FROM par_claims WHERE tournament_id = $1", tid)
    assert claim["starts"] == 1


async def solving(proc: ServerProcess, tid: int) -> set[int]:
    """Wait until ``proc`` solves the par of ``tid``; its worker processes then."""
    assert proc.proc is not None
    pid = proc.proc.pid
    await until(lambda: solve_starts([proc], tid) == 1, "the solve never started")
    # The multiprocessing helpers (resource tracker, fork server) and the worker below the fork server.
    deadline = time.monotonic() + 30
    while len(found := descendants(pid)) < 3:
        assert time.monotonic() < deadline, f"no worker process: {found}"
        await asyncio.sleep(0.1)
    return found


@pytest.mark.parametrize("stop", ["terminate", "kill"])
async def test_a_server_stopped_while_solving_leaves_no_process_running(
    stop: str,
    servers: list[ServerProcess],
    fresh_database_url: str,
    redis_url: str,
    admin_token: str,
    redis_prefix: str,
) -> None:
    # A budget far longer than the test: a worker still solving after the stop is one left behind.
    proc = start_server(fresh_database_url, redis_url, admin_token, redis_prefix, SOLVER_SECONDS="600")
    servers.append(proc)
    tid = finishing_soon(Api(proc.url, admin_token), seed=UNWON)  # most 4-suit deals are won in seconds
    workers = await solving(proc, tid)
    assert proc.proc is not None
    getattr(proc.proc, stop)()  # SIGTERM: the server shuts down; SIGKILL: it just dies
    proc.proc.wait(30)
    await until(lambda: not any(running(pid) for pid in workers), f"left running: {workers}", timeout=30)
    (claim,) = await fetch(
        fresh_database_url, "SELECT expires_at <= now() AS free FROM par_claims WHERE tournament_id = $1", tid
    )
    # Shut down, it gave the work up for another server to take at once; killed, its lease runs out.
    assert claim["free"] is (stop == "terminate")


async def test_a_claim_is_one_processes_until_given_up_or_run_out(api: Api, database_url: str) -> None:
    now = datetime.now(UTC)
    body = {"name": "claims", "settings": HARD, "closes_at": (now + timedelta(hours=1)).isoformat()}
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    db = await create_pool(database_url, 2)
    try:
        assert await store.PAR_CLAIMS.claim(db, tid, "a", 60) == 1
        assert await store.PAR_CLAIMS.claim(db, tid, "b", 60) is None  # a's until a gives it up
        await store.PAR_CLAIMS.release(db, tid, "b")  # not b's to give up
        assert await store.PAR_CLAIMS.claim(db, tid, "b", 60) is None
        assert await store.PAR_CLAIMS.renew(db, tid, "a", 60) and not await store.PAR_CLAIMS.renew(db, tid, "b", 60)
        await store.PAR_CLAIMS.release(db, tid, "a")
        assert await store.PAR_CLAIMS.claim(db, tid, "b", 0.5) == 2  # the second start of this par's solve
        # b's short lease runs out (b crashed): c takes the work over.
        deadline = time.monotonic() + 30
        while (starts := await store.PAR_CLAIMS.claim(db, tid, "c", 60)) is None:
            assert time.monotonic() < deadline, "an expired claim was never taken over"
            await asyncio.sleep(0.1)
        assert starts == 3 and not await store.PAR_CLAIMS.renew(db, tid, "b", 60)
        par: dict[str, Any] = {"outcome": "proven lost", "moves": [], "final_score": None, "pace": 2, "in_time": False}
        assert await store.save_par(db, tid, {**par, "entry": None, "nodes": 1, "seconds": 0.1})
        await store.PAR_CLAIMS.release(db, tid, "c")
        assert await store.PAR_CLAIMS.claim(db, tid, "d", 60) is None  # worked out: nothing to claim
    finally:
        await db.close()
    assert api.tournament(tid)["status"] == "open"  # the server itself had nothing of it to solve


async def test_a_claim_is_renewed_while_its_solve_runs(api: Api, database_url: str) -> None:
    now = datetime.now(UTC)
    body = {"name": "renewed", "settings": HARD, "closes_at": (now + timedelta(hours=1)).isoformat()}
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    db = await create_pool(database_url, 2)
    solver = SolverPool()
    try:
        lease = 1.0  # the solve takes three leases: unrenewed, the claim would run out twice
        assert await store.PAR_CLAIMS.claim(db, tid, "me", lease) == 1
        row = {"id": tid, "settings": HARD, "seed": UNWON}
        job = asyncio.ensure_future(solve_claimed(db, solver, row, 3.0, "me", lease))  # type: ignore[arg-type]
        taken = []
        while not job.done():
            taken.append(await store.PAR_CLAIMS.claim(db, tid, "other", lease))
            await asyncio.sleep(0.1)
        await job
        assert len(taken) > 20  # it ran two leases at least
        assert set(taken) == {None}  # never free for another while it ran
    finally:
        await solver.stop()
        await db.close()


async def test_the_worker_serves_urgent_jobs_first_and_a_job_given_up_passes_its_turn_on() -> None:
    """One worker process: a job running, three analyses waiting, then a par; the par is served
    next. A waiting job given up, and the running one, leave the turn to the others."""
    pool = SolverPool()
    ended: list[str] = []

    async def job(name: str, seconds: float, later: bool) -> None:
        await pool.run(time.sleep, seconds, later=later)
        ended.append(name)

    try:
        running = asyncio.create_task(job("running", 0.5, True))
        await asyncio.sleep(0.05)
        waiting = [asyncio.create_task(job(f"analysis {k}", 0.05, True)) for k in range(3)]
        await asyncio.sleep(0.05)
        given_up = asyncio.create_task(job("given up", 0.05, False))
        await asyncio.sleep(0.05)
        par = asyncio.create_task(job("par", 0.05, False))
        await asyncio.sleep(0.05)
        given_up.cancel()
        await asyncio.gather(running, par, *waiting, given_up, return_exceptions=True)
        assert ended == ["running", "par", "analysis 0", "analysis 1", "analysis 2"]

        stopped = asyncio.create_task(job("stopped", 0.3, False))  # its caller stops waiting while it runs
        await asyncio.sleep(0.1)
        stopped.cancel()
        await asyncio.wait_for(job("after", 0.01, True), 30)
        assert ended[-1] == "after"
    finally:
        await pool.stop()
