"""Fixtures of the fuzz tests: a server of their own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.faults.helpers import start_server
from tests.fuzz.fuzzing import Guard
from tests.serverproc import ServerProcess
from tests.services import create_database, drop_database, unique_name, with_database


@pytest.fixture(scope="module")
def fuzz_server(
    pg_admin_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> Iterator[tuple[ServerProcess, str]]:
    name = unique_name()
    asyncio.run(create_database(pg_admin_url, name))
    db = with_database(pg_admin_url, name)
    proc = start_server(db, redis_url, admin_token, redis_prefix + "_fuzz")
    try:
        yield proc, db
    finally:
        proc.stop()
        asyncio.run(drop_database(pg_admin_url, name))


@pytest.fixture
def guard(fuzz_server: tuple[ServerProcess, str], admin_token: str) -> Guard:
    return Guard(*fuzz_server, admin_token)
