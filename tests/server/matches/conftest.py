"""Servers of the matches' tests: each module gets a database of its own and a server on it with the
test formats (tests/server/matches/kit.py), so no other test's waiting match seats its players."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.client import Api
from tests.conftest import _fresh_database
from tests.serverproc import ServerProcess

from .kit import start_server


@pytest.fixture(scope="module")
def match_db(pg_admin_url: str) -> Iterator[str]:
    yield from _fresh_database(pg_admin_url)


@pytest.fixture(scope="module")
def match_server(match_db: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    yield from start_server(match_db, redis_url, admin_token, redis_prefix + "m")


@pytest.fixture(scope="module")
def mapi(match_server: ServerProcess, admin_token: str) -> Api:
    return Api(match_server.url, admin_token)
