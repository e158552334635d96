"""The PostgreSQL connection pool: ``jsonb`` read and written as Python objects, and no call that
waits for ever.

A PostgreSQL that stops answering without closing its connections (frozen, its disk hung, a
network path dropping packets) would hold every caller until it answered again. Here every call
gives up after ``timeout`` seconds (``DB_TIMEOUT``) with asyncpg's own timeouts: a statement
(``command_timeout``, which also bounds the cancel request asyncpg sends for it), the opening of a
connection (``timeout``), and the wait for one of the pool's connections (``Pool.acquire``, which
asyncpg leaves unbounded unless told; ``Pool.fetch`` and the like acquire through it too). The
cancel request of a statement that timed out is waited for in the background (``Pool.release``),
so a call into a stalled database fails within about one timeout (the statement's, or the
connection's opening), with ``asyncio.TimeoutError``.

A statement that timed out may still run on the server when it hears of it late: a write that
was answered with an error may be committed after all. Callers that tell a client "not saved"
tell it to resend the same message, which the sequence numbers make safe.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolAcquireContext, PoolConnectionProxy

# A connection of one's own, or one lent by the pool; and anything that runs a statement.
Connection: TypeAlias = "asyncpg.Connection | PoolConnectionProxy"
Db: TypeAlias = "asyncpg.Pool | asyncpg.Connection | PoolConnectionProxy"

# What a call raises when PostgreSQL is out of reach or does not answer in time, rather than
# because of the statement: the connection refused, reset or lost, a timeout, the server shutting
# down, cancelling or refusing connections. (TimeoutError and ConnectionError are OSErrors.) Not
# asyncpg's InterfaceError: that is mostly a misuse of the library (DataError among them), a fault.
UNAVAILABLE: tuple[type[Exception], ...] = (
    TimeoutError,
    ConnectionError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.TooManyConnectionsError,
)
# Anything a database call may fail with, for callers that answer every failure with "try again".
DB_FAILURES: tuple[type[Exception], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


class Pool(asyncpg.Pool):
    """asyncpg's pool, whose every ``acquire`` waits at most ``acquire_timeout`` unless given its own,
    and whose connections are given back at once: one whose statement timed out is still sending
    its cancel request, which the pool would otherwise wait for (up to a timeout more) before the
    caller hears of the timeout. That wait goes on in the background instead."""

    __slots__ = ("acquire_timeout", "releasing")

    def __init__(self, *args: Any, acquire_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.acquire_timeout = acquire_timeout
        self.releasing: set[asyncio.Future[None]] = set()

    def acquire(self, *, timeout: float | None = None) -> PoolAcquireContext:
        return super().acquire(timeout=self.acquire_timeout if timeout is None else timeout)

    async def release(self, connection: Any, *, timeout: float | None = None) -> None:
        protocol = getattr(getattr(connection, "_con", None), "_protocol", None)
        if protocol is None or not protocol._is_cancelling():
            return await super().release(connection, timeout=timeout)
        # Given back once its cancel request is answered, or the connection closed when that takes
        # longer than the timeout (asyncpg's own bound): the caller does not wait for either.
        release = asyncio.ensure_future(super().release(connection, timeout=timeout))
        self.releasing.add(release)
        release.add_done_callback(self._released)
        return None

    def _released(self, release: asyncio.Future[None]) -> None:
        self.releasing.discard(release)
        if not release.cancelled():
            release.exception()  # retrieved: a connection closed rather than given back is no one's error


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection given back to the pool is reset with, after asyncpg's own rollback of any
    transaction left open: nothing. The server never changes a pooled connection's session (no
    ``SET``, ``LISTEN``, cursor or session advisory lock: the ratings' lock is a transaction's), so
    asyncpg's default reset (``RESET ALL``, ``UNLISTEN *``, ``CLOSE ALL``, unlocking every advisory
    lock) would be a round trip to PostgreSQL on every release for nothing."""


# A statement over every entry of a tournament at its finish (the absent marked, the standings and
# ratings stored): 100,000 entrants take seconds, more than DB_TIMEOUT allows a move's statements.
WHOLE_TOURNAMENT_TIMEOUT = 120.0


async def create_pool(url: str, size: int = 10, timeout: float = 3.0) -> asyncpg.Pool:
    """A pool of at most ``size`` connections whose every call gives up after ``timeout`` seconds."""
    pool = Pool(
        url,
        min_size=1,
        max_size=size,
        max_queries=50_000,  # asyncpg.create_pool's defaults, which Pool() itself wants told
        max_inactive_connection_lifetime=300.0,
        loop=None,
        connection_class=asyncpg.Connection,
        record_class=asyncpg.Record,
        setup=None,
        init=_init_connection,
        reset=_keep_session,
        acquire_timeout=timeout,
        command_timeout=timeout,
        timeout=timeout,  # opening a connection
        # No JIT compilation: the server's statements are short, and PostgreSQL compiles any whose
        # estimate passes jit_above_cost, on every call. The clock's start of together tournaments,
        # estimated over every waiting entry though it reads none when none is due, took 30-40 ms
        # of compiling per call at 100,000 entrants (and 0.1-0.7 s on a busy machine), six times a
        # second with three processes.
        server_settings={"jit": "off"},
    )
    await pool
    return pool


@asynccontextmanager
async def connection(url: str, timeout: float = 3.0) -> AsyncIterator[asyncpg.Connection]:
    """A connection of its own for long work (the migrations): its opening gives up after ``timeout``
    seconds, its statements take as long as they take."""
    conn = await asyncpg.connect(url, timeout=timeout)
    try:
        await _init_connection(conn)
        yield conn
    finally:
        await conn.close(timeout=timeout)
