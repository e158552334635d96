"""The server warns an operator whose PostgreSQL runs with autovacuum off (its queries would be
planned on statistics never gathered), and says nothing when it is on."""

from __future__ import annotations

import logging

import asyncpg
import pytest

from spidertour.server.storage.migrations import warn_without_autovacuum


async def test_the_warning_follows_the_setting(pg_admin_url: str, caplog: pytest.LogCaptureFixture) -> None:
    conn = await asyncpg.connect(pg_admin_url)
    try:
        on = await conn.fetchval("SHOW autovacuum") == "on"
        with caplog.at_level(logging.WARNING, logger="spidertour.db"):
            assert await warn_without_autovacuum(conn) is on
    finally:
        await conn.close()
    warned = [r for r in caplog.records if "autovacuum off" in r.getMessage()]
    assert len(warned) == (0 if on else 1)
