"""The migrations of ``schema/`` (the package ``spidertour.schema``), applied in order, each once."""

from __future__ import annotations

import logging
import re
from importlib.resources import files
from importlib.resources.abc import Traversable

from .pool import Connection

log = logging.getLogger("spidertour.db")

SCHEMA = files("spidertour.schema")  # the SQL files, wherever the package is installed
_MIGRATION = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
_LOCK_KEY = 0x5B1DE7  # advisory lock: one process migrates at a time


def migrations(directory: Traversable = SCHEMA) -> list[tuple[int, str, str]]:
    """(version, name, sql) for every numbered migration file, in order."""
    found = []
    for path in sorted(directory.iterdir(), key=lambda p: p.name):
        m = _MIGRATION.match(path.name)
        if m:
            found.append((int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError("two migrations share a number")
    if not found:
        raise RuntimeError(f"no migrations found in {directory}")
    return found


async def migrate(conn: Connection, directory: Traversable = SCHEMA) -> list[int]:
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
            log.debug("applied migration %03d_%s", version, name)
            applied.append(version)
        if applied:  # one line, however many: a new database applies them all
            log.info("applied migrations: %s", ", ".join(f"{v:03d}" for v in applied))
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


async def warn_without_autovacuum(conn: Connection) -> bool:
    """Log a warning when the database runs with autovacuum off: PostgreSQL then never gathers the
    statistics it plans the server's queries on (or takes back dead rows), and plans made on none
    can read whole tables where an index would do. True when it is on."""
    on = await conn.fetchval("SELECT current_setting('autovacuum')::bool")
    if not on:
        log.warning(
            "PostgreSQL runs with autovacuum off: turn it on (the default) or run ANALYZE regularly, "
            "or queries are planned without statistics"
        )
    return bool(on)
