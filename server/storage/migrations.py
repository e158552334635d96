"""PostgreSQL: the connection pool and the migrations of ``schema/``, applied in order, each once."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

import asyncpg

log = logging.getLogger("spidertour.db")


def _schema_dir() -> Path:
    """``schema/`` beside the package in a source tree; ``<prefix>/share/spidertour/schema`` once
    installed (pyproject.toml's data-files)."""
    here = Path(__file__).resolve().parent
    candidates = (here.parent / "schema", Path(sys.prefix) / "share" / "spidertour" / "schema")
    for candidate in candidates:
        if any(candidate.glob("[0-9][0-9][0-9]_*.sql")):
            return candidate
    raise RuntimeError(f"no migrations found in {' or '.join(map(str, candidates))}")


SCHEMA_DIR = _schema_dir()
_MIGRATION = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
_LOCK_KEY = 0x5B1DE7  # advisory lock: one process migrates at a time


def migrations(directory: Path = SCHEMA_DIR) -> list[tuple[int, str, str]]:
    """(version, name, sql) for every numbered migration file, in order."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        m = _MIGRATION.match(path.name)
        if m:
            found.append((int(m.group(1)), m.group(2), path.read_text()))
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError("two migrations share a number")
    return found


async def migrate(conn: asyncpg.Connection, directory: Path = SCHEMA_DIR) -> list[int]:
    """Apply the migrations not yet recorded in ``schema_migrations``. Returns those applied."""
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            """CREATE TABLE IF NOT EXISTS schema_migrations (
                   version integer PRIMARY KEY,
                   name text NOT NULL,
                   applied_at timestamptz NOT NULL DEFAULT now())"""
        )
        done = {r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        applied = []
        for version, name, sql in migrations(directory):
            if version in done:
                continue
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version, name)
            log.info("applied migration %03d_%s", version, name)
            applied.append(version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


async def _init_connection(conn: asyncpg.Connection) -> None:
    import json

    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


async def create_pool(url: str, size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(url, min_size=1, max_size=size, init=_init_connection)
    assert pool is not None
    return pool
