"""Slowing sybils: registrations and joins limited per client address, across every server process.

Each (kind, address) pair has a token bucket kept in Redis and updated by one Lua script, so the
limit holds however many server processes share that Redis: ``burst`` requests at once, then
``rate`` a second. The address is never put into Redis as it is: the key holds its keyed hash.

The client's address is the connection's peer, except when the peer is one of the operator's
trusted proxies (``TRUSTED_PROXIES``): then it is the right-most ``X-Forwarded-For`` address that
is not itself a trusted proxy. Without that setting the header is ignored, so nobody can pick an
address to dodge the limit by sending the header.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from dataclasses import dataclass
from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException
from litestar.handlers import BaseRouteHandler
from redis.asyncio import Redis
from redis.exceptions import RedisError

from .fairness import address_hash

log = logging.getLogger("spidertour.limits")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

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


@dataclass(frozen=True, slots=True)
class Limit:
    """``burst`` requests at once, then ``per_minute`` a minute; what ``what`` names in the refusal."""

    kind: str
    per_minute: float
    burst: int
    what: str


def parse_networks(text: str) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``: addresses or networks, comma-separated ("10.0.0.0/8, 127.0.0.1")."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"TRUSTED_PROXIES: {part!r} is not an address or a network") from None
    return tuple(out)


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def client_address(connection: ASGIConnection[Any, Any, Any, Any], proxies: tuple[Network, ...]) -> str:
    """The client's address: the peer, or what a trusted proxy says it forwarded for."""
    peer = connection.client.host if connection.client else "unknown"
    if not proxies or not _trusted(peer, proxies):
        return peer
    forwarded = [a.strip() for h in connection.headers.getall("x-forwarded-for", []) for a in h.split(",")]
    for address in reversed([a for a in forwarded if a]):
        if not _trusted(address, proxies):
            return address
    return forwarded[0] if forwarded and forwarded[0] else peer


class Limiter:
    def __init__(self, redis: Redis, prefix: str, proxies: tuple[Network, ...], key: bytes) -> None:
        self.redis = redis
        self.prefix = prefix
        self.proxies = proxies
        self.key = key
        self._bucket = redis.register_script(BUCKET_LUA)

    def address_hash(self, connection: ASGIConnection[Any, Any, Any, Any]) -> bytes:
        return address_hash(self.key, client_address(connection, self.proxies))

    async def take(self, limit: Limit, hashed: bytes) -> float:
        """Take a token for this address: 0 when granted, else the seconds to wait."""
        key = f"{self.prefix}:limit:{limit.kind}:{hashed.hex()}"
        try:
            allowed, wait = await self._bucket(keys=[key], args=[limit.per_minute / 60.0, limit.burst])
        except RedisError:  # Redis out of reach: let people in rather than shut everyone out
            log.warning("rate limit unavailable (Redis): %s allowed", limit.kind)
            return 0.0
        return 0.0 if int(allowed) else max(float(wait), 0.001)


def limit_guard(kind: str):  # type: ignore[no-untyped-def]
    """A route guard: 429 with Retry-After once this address has used its ``kind`` allowance."""

    async def guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        services = connection.app.state.services
        limit: Limit = services.config.limits[kind]
        wait = await services.limiter.take(limit, services.limiter.address_hash(connection))
        if wait:
            seconds = math.ceil(wait)
            raise HTTPException(
                status_code=429,
                detail=f"too many {limit.what} from your address: try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
                extra={"limit": kind, "per_minute": limit.per_minute, "burst": limit.burst, "retry_after": seconds},
            )

    return guard
