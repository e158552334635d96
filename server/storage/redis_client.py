"""The server's Redis client, and what counts as Redis failing.

A pooled connection can die under the server (Redis restarted, a proxy or the network resetting
it). The next command on it then fails in whatever way the event loop reports a dead socket:
redis-py's ``ConnectionError``, an ``OSError``, or, on uvloop (which the server runs on when it is
installed), ``RuntimeError: unable to perform operation on <TCPTransport closed=True>``. The client
is built to try such a command once more, at once, on a new connection, so a reset costs nothing
seen; when Redis is really out of reach the error reaches the caller (within a millisecond when
the connection is refused: no pause between the tries, as a move may be waiting), which must take
any of ``REDIS_FAILURES`` as "Redis is unavailable" and go on without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError, RedisError

# Everything a Redis call may raise when its connection fails (TimeoutError is an OSError).
REDIS_FAILURES: tuple[type[Exception], ...] = (RedisError, OSError, RuntimeError)

RETRIES = 1  # tries again on a new connection: a dead pooled one costs one
CONNECT_SECONDS = 2.0  # a Redis that does not accept within this is out of reach
COMMAND_SECONDS = 5.0  # nor one that does not answer a command within this (pub/sub waits are not bounded)
RECANCEL_SECONDS = 0.1  # a task still running this long after its cancel is cancelled again


def connect(url: str) -> Redis:
    """A client whose commands survive a dead pooled connection (any failure of its socket)."""
    retry = Retry(
        NoBackoff(),
        RETRIES,
        supported_errors=(ConnectionError, OSError, RuntimeError),  # type: ignore[arg-type]
    )
    return Redis.from_url(
        url,
        retry=retry,
        socket_connect_timeout=CONNECT_SECONDS,
        socket_timeout=COMMAND_SECONDS,
        socket_keepalive=True,
        health_check_interval=30,
    )


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
