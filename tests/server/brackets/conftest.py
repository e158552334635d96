"""Servers of the brackets' tests: each module gets a database of its own and a server on it, so that
no other test's ratings or brackets meet its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.client import Api
from tests.conftest import _fresh_database
from tests.serverproc import ServerProcess

from .kit import start_server


@pytest.fixture(scope="module")
def bracket_db(pg_admin_url: str) -> Iterator[str]:
    yield from _fresh_database(pg_admin_url)


@pytest.fixture(scope="module")
def bracket_server(bracket_db: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    yield from start_server(bracket_db, redis_url, admin_token, redis_prefix + "b")


@pytest.fixture(scope="module")
def bapi(bracket_server: ServerProcess, admin_token: str) -> Api:
    return Api(bracket_server.url, admin_token)
