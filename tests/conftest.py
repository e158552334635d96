"""Fixtures: a database of this test run's own, Redis, and a real server process."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from tests.client import Api
from tests.serverproc import ServerProcess, end_of_run, log_sizes, logs_since, marked_processes
from tests.services import create_database, drop_database, postgres_server, redis_server, unique_name, with_database


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[LOGS_KEPT] = end_of_run(passed=exitstatus == 0)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if (kept := config.stash.get(LOGS_KEPT, None)) is not None:
        terminalreporter.write_line(f"the test servers' logs are kept in {kept}")


LOGS_KEPT = pytest.StashKey[Path | None]()
LOG_SIZES = pytest.StashKey[dict[Path, int]]()


def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[LOG_SIZES] = log_sizes()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A test that failed carries in its report what the servers logged meanwhile (the servers log
    at WARNING: only what went wrong), since their log files may not outlive the run's machine."""
    report = yield
    if report.failed and LOG_SIZES in item.stash and (logged := logs_since(item.stash[LOG_SIZES])):
        report.sections.append((f"servers' logs during the test ({call.when})", logged))
    return report


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """After the run, no process a test server started (its solver workers included) still runs.
    Those found are ended, and the run fails."""
    yield
    if not Path("/proc/self/environ").exists():
        return
    deadline = time.monotonic() + 15  # a stopped server's workers end within moments
    while (left := marked_processes()) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left running by the test servers: {left}"


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _fresh_database(admin_url: str) -> Iterator[str]:
    name = unique_name()
    asyncio.run(create_database(admin_url, name))
    try:
        yield with_database(admin_url, name)
    finally:
        asyncio.run(drop_database(admin_url, name))


@pytest.fixture(scope="session")
def database_url(pg_admin_url: str) -> Iterator[str]:
    """The test run's own database (dropped at the end)."""
    yield from _fresh_database(pg_admin_url)


@pytest.fixture
def fresh_database_url(pg_admin_url: str) -> Iterator[str]:
    """A database for one test alone."""
    yield from _fresh_database(pg_admin_url)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def admin_token() -> str:
    return "admin-" + secrets.token_hex(8)


@pytest.fixture(scope="session")
def redis_prefix() -> str:
    return unique_name("st")


# Every test registers and joins from 127.0.0.1: the per-address limits have their own test.
UNLIMITED = {
    "REGISTER_PER_MINUTE": "1000000",
    "REGISTER_BURST": "1000000",
    "JOIN_PER_MINUTE": "1000000",
    "JOIN_BURST": "1000000",
    "ANALYSIS_ADDRESS_PER_MINUTE": "1000000",
    "ANALYSIS_ADDRESS_BURST": "1000000",
}


def server_env(redis_prefix: str) -> dict[str, str]:
    """Test servers answer fast test clients without slowing them (the rate limits have their own tests)."""
    # The solver's par of each finished tournament, and certified deals, on a small budget: a second
    # of CPU. Its search is shared out by the budget, so the deals the tests use are won within it
    # as within 3 s, where a 2-suit par took about 2.5 s each and the solver a seventh of the suite's CPU.
    return {
        "REDIS_PREFIX": redis_prefix,
        "RATE_PER_SECOND": "500",
        "RATE_BURST": "500",
        "SOLVER_SECONDS": "1",
        "CERTIFY_TRIES": "3",
        **UNLIMITED,
    }


@pytest.fixture(scope="session")
def server(database_url: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, redis_url, admin_token, env=server_env(redis_prefix)).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def other_process(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str, server: ServerProcess
) -> Iterator[ServerProcess]:
    """A second server process on the same database and Redis (``server``: the database is migrated)."""
    proc = ServerProcess(database_url, redis_url, admin_token, env=server_env(redis_prefix)).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def api(server: ServerProcess, admin_token: str) -> Api:
    return Api(server.url, admin_token)
