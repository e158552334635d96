"""Slowing sybils: registrations and joins limited per client address, across every server process.

Each (kind, address) pair has a token bucket kept in Redis and updated by one Lua script, so the
limit holds however many server processes share that Redis: ``burst`` requests at once, then
``per_minute`` a minute. The address is never put into Redis as it is: the key holds its keyed
hash (``addresses`` says which address a request comes from).

With Redis out of reach the limits let requests in (one warning each); with Redis busy (every
pooled connection in use for ``POOL_WAIT`` seconds: ``PoolBusy``) the request is answered 503 with
``Retry-After``: a crowd never gets past a limit by being a crowd.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any, cast

from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException
from litestar.handlers import BaseRouteHandler
from redis.asyncio import Redis

from ..config import Limit, Network
from ..core import core_of
from ..lib.tokens import address_hash
from ..operations.metrics import REDIS_ERRORS
from ..storage.redis_client import REDIS_FAILURES, PoolBusy
from .addresses import bucket, client_address

log = logging.getLogger("spidertour.limits")

# KEYS[1]: the bucket. ARGV: rate (tokens a second), burst. The clock is Redis's own, the same for
# every server process. Answers {1, "0"} when a token was taken, else {0, seconds until one is there}.
BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {allowed, tostring(wait)}
"""


class Limiter:
    def __init__(self, redis: Redis, prefix: str, proxies: tuple[Network, ...], key: bytes) -> None:
        self.redis = redis
        self.prefix = prefix
        self.proxies = proxies
        self.key = key
        self._bucket = redis.register_script(BUCKET_LUA)

    def address_hash(self, connection: ASGIConnection[Any, Any, Any, Any]) -> bytes:
        """The keyed hash of the client's address, as stored with a player or entry."""
        return address_hash(self.key, client_address(connection, self.proxies))

    def hash_of(self, address: str) -> bytes:
        """The keyed hash of a client address already decided (``addresses.address_of``)."""
        return address_hash(self.key, address)

    def bucket_hash(self, connection: ASGIConnection[Any, Any, Any, Any]) -> bytes:
        """The keyed hash of what the limits count for this client (an IPv6 address by its /64)."""
        return address_hash(self.key, bucket(client_address(connection, self.proxies)))

    async def take(self, limit: Limit, hashed: bytes) -> float:
        """Take a token for this address (or whatever ``hashed`` names): 0 when granted, else the
        seconds to wait. 503 while Redis is busy."""
        key = f"{self.prefix}:limit:{limit.kind}:{hashed.hex()}"
        try:
            allowed, wait = await self._bucket(keys=[key], args=[limit.per_minute / 60.0, limit.burst])
        except PoolBusy:  # not an outage: the request waits its turn, not let through
            REDIS_ERRORS.inc()
            log.warning("rate limit busy (every Redis connection in use): %s answered 503", limit.kind)
            raise HTTPException(
                status_code=503, detail="the server is busy: try again in a moment", headers={"Retry-After": "1"}
            ) from None
        except REDIS_FAILURES:  # Redis out of reach: let people in rather than shut everyone out
            REDIS_ERRORS.inc()
            log.warning("rate limit unavailable (Redis): %s allowed", limit.kind)
            return 0.0
        return 0.0 if int(allowed) else max(float(wait), 0.001)


def limiter_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Limiter:
    return cast(Limiter, connection.app.state.limiter)


Guard = Callable[[ASGIConnection[Any, Any, Any, Any], BaseRouteHandler], Awaitable[None]]


def too_many(wait: float, what: str, limit: Limit | None = None) -> HTTPException:
    """429 with ``Retry-After``: ``what`` was asked too often (a limit's figures with it when given)."""
    seconds = math.ceil(wait)
    extra: dict[str, Any] = {"retry_after": seconds}
    if limit is not None:
        extra |= {"limit": limit.kind, "per_minute": limit.per_minute, "burst": limit.burst}
    return HTTPException(
        status_code=429,
        detail=f"{what}: try again in {seconds} s",
        headers={"Retry-After": str(seconds)},
        extra=extra,
    )


def limit_guard(kind: str) -> Guard:
    """A route guard: 429 with Retry-After once this address has used its ``kind`` allowance."""

    async def guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        limit = core_of(connection).config.limits[kind]
        limiter = limiter_of(connection)
        wait = await limiter.take(limit, limiter.bucket_hash(connection))
        if wait:
            raise too_many(wait, f"too many {limit.what} from your address", limit)

    return guard
