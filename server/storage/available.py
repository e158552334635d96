"""Waiting at start for a PostgreSQL that is not up yet (compose, a reboot: the server may start first)."""

from __future__ import annotations

import asyncio
import logging
import time

import asyncpg

log = logging.getLogger("spidertour.db")

START_WAIT = 60.0  # seconds the server waits at start for a PostgreSQL that does not answer


async def wait_for_database(url: str, wait: float = START_WAIT) -> None:
    """Return once PostgreSQL at ``url`` accepts a connection, trying again with a growing pause (each
    said in the log) for ``wait`` seconds at most; then the last error. A refused password or an
    unknown database is not waited for: it is raised at once."""
    deadline = time.monotonic() + wait
    pause = 0.5
    while True:
        try:
            conn = await asyncpg.connect(url, timeout=10)
        except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as err:
            if time.monotonic() + pause > deadline:
                raise
            log.warning("PostgreSQL does not answer yet (%s); trying again in %g s", err, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)
        else:
            await conn.close()
            return
