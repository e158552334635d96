"""The server's Redis client, and what counts as Redis failing.

A pooled connection can die under the server (Redis restarted, a proxy or the network resetting
it). The next command on it then fails in whatever way the event loop reports a dead socket:
redis-py's ``ConnectionError``, an ``OSError``, or, on uvloop (which the server runs on when it is
installed), ``RuntimeError: unable to perform operation on <TCPTransport closed=True>``. The client
is built to try such a command once more, at once, on a new connection, so a reset costs nothing
seen; when Redis is really out of reach the error reaches the caller (within a millisecond when
the connection is refused: no pause between the tries, as a move may be waiting), which must take
any of ``REDIS_FAILURES`` as "Redis is unavailable" and go on without it.

The pool holds ``REDIS_POOL_SIZE`` connections (two of them stay with the subscriptions of the hub
and of sign-outs). With every one in use, a command waits for one to come back, ``POOL_WAIT``
seconds at most (redis-py's ``BlockingConnectionPool``), and then raises ``PoolBusy``: a crowd of
requests is not an outage. A caller that guards something (a rate limit) must not take it as one:
it answers "busy, try again" instead of letting the request through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError, MaxConnectionsError, RedisError

# Everything a Redis call may raise when its connection fails (TimeoutError is an OSError).
REDIS_FAILURES: tuple[type[Exception], ...] = (RedisError, OSError, RuntimeError)

RETRIES = 1  # tries again on a new connection: a dead pooled one costs one
CONNECT_SECONDS = 2.0  # a Redis that does not accept within this is out of reach
COMMAND_SECONDS = 5.0  # nor one that does not answer a command within this (pub/sub waits are not bounded)
RECANCEL_SECONDS = 0.1  # a task still running this long after its cancel is cancelled again
POOL_WAIT = 2.0  # seconds a command waits for a connection while every one of the pool is in use


class PoolBusy(ConnectionError):
    """Every connection of the pool stayed in use for ``POOL_WAIT`` seconds: Redis is busy, not down."""


class _Pool(BlockingConnectionPool):
    """redis-py's blocking pool, its timeout told apart from a connection that fails. While a
    connection is at hand it is taken (and given back) by the plain pool's own path, which costs
    less than the blocking pool's lock and timer: a move's Redis writes cost what they did."""

    waiting = 0  # commands waiting for a connection (release tells them only when there are some)

    async def get_connection(self, *args: Any, **kwargs: Any) -> AbstractConnection:
        if self.can_get_connection():
            try:
                return await ConnectionPool.get_connection(self, *args, **kwargs)  # type: ignore[no-untyped-call,no-any-return]
            except MaxConnectionsError:
                pass  # the last one was taken meanwhile: wait like the others
        self.waiting += 1
        try:
            return await super().get_connection(*args, **kwargs)  # type: ignore[no-untyped-call,no-any-return]
        except ConnectionError as err:
            # The pool's own wait ran out (a connection that fails is an OSError or Redis's TimeoutError).
            if type(err) is ConnectionError and isinstance(err.__cause__, asyncio.TimeoutError):
                raise PoolBusy(f"every one of the {self.max_connections} Redis connections busy") from err
            raise
        finally:
            self.waiting -= 1

    async def release(self, connection: AbstractConnection) -> None:
        if self.waiting:
            await super().release(connection)  # and wake a waiting command
        else:
            await ConnectionPool.release(self, connection)


def connect(url: str, pool_size: int = 100) -> Redis:
    """A client whose commands survive a dead pooled connection (any failure of its socket), with
    ``pool_size`` connections at most, for which a command waits ``POOL_WAIT`` seconds at most."""
    retry = Retry(
        NoBackoff(),
        RETRIES,
        supported_errors=(ConnectionError, OSError, RuntimeError),
    )
    pool = _Pool.from_url(
        url,
        max_connections=pool_size,
        timeout=POOL_WAIT,
        retry=retry,
        socket_connect_timeout=CONNECT_SECONDS,
        socket_timeout=COMMAND_SECONDS,
        socket_keepalive=True,
        health_check_interval=30,
    )
    return Redis.from_pool(pool)


async def stop_tasks(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel the tasks and wait until every one has ended.

    redis-py may swallow a cancel that lands while a pub/sub connection subscribes, and the task
    then goes on listening: a server stopped right after it started would wait for it forever. A
    task still running after its cancel is cancelled again, until it ends."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=RECANCEL_SECONDS)
