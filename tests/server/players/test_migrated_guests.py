"""A guest registered before accounts existed (its token then in ``players.token_hash``) still
signs in with that token after the migration to sessions, and can sign out like anyone."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import asyncpg
import httpx

from spidertour.server.storage.migrations import SCHEMA, migrate
from tests.client import bearer
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name


async def migrate_up_to(database_url: str, last: int, scratch: Path) -> None:
    """Apply the migrations numbered up to ``last`` only (as a server of that time would have)."""
    scratch.mkdir()
    for path in SCHEMA.iterdir():
        if path.name.endswith(".sql") and int(path.name[:3]) <= last:
            (scratch / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    conn = await asyncpg.connect(database_url)
    try:
        assert await migrate(conn, scratch) == list(range(1, last + 1))
    finally:
        await conn.close()
    shutil.rmtree(scratch)


async def test_an_old_guest_token_still_authenticates(
    fresh_database_url: str, redis_url: str, admin_token: str, tmp_path: Path
) -> None:
    await migrate_up_to(fresh_database_url, 7, tmp_path / "schema")
    token = "an-old-token-from-before-sessions-0123456789"
    conn = await asyncpg.connect(fresh_database_url)
    try:
        pid = await conn.fetchval(
            "INSERT INTO players (name, token_hash) VALUES ('Old Guest', $1) RETURNING id",
            hashlib.sha256(token.encode()).digest(),
        )
    finally:
        await conn.close()
    proc = ServerProcess(fresh_database_url, redis_url, admin_token, env=server_env(unique_name("old"))).start()
    try:  # the server applies the rest of the migrations as it starts
        me = httpx.get(f"{proc.url}/api/me", headers=bearer(token), timeout=10)
        assert me.status_code == 200, me.text
        assert me.json() == {
            "id": pid,
            "name": "Old Guest",
            "handle": None,
            "clubs": [],
            "has_password": False,
            "organiser": None,
            "may_organise": False,
        }
        ended = httpx.delete(f"{proc.url}/api/sessions/current", headers=bearer(token), timeout=10)
        assert ended.status_code == 204
        assert httpx.get(f"{proc.url}/api/me", headers=bearer(token), timeout=10).status_code == 401
    finally:
        proc.stop()
