"""Signing in: a handle with its password or code, or a host site's assertion; failures limited.

Failed sign-ins are counted in Redis for the handle tried and for the client's address, in windows
of ``SIGNIN_WINDOW_SECONDS`` that begin at the first failure. Past ``SIGNIN_FAILURES_PER_HANDLE``
(or ``_PER_ADDRESS``) every sign-in of that handle (or from that address) is answered 429 with
``Retry-After`` until the window ends, even with the right password: guessing gains nothing.
An unknown handle is checked against a stand-in hash, so it answers like a wrong password, as
slowly. With Redis out of reach nothing is counted: sign-ins go on, one warning a time.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from litestar import Request
from litestar.exceptions import HTTPException, NotAuthorizedException, NotFoundException

from ..core import core_of
from ..fairplay.limits import limiter_of
from ..lib.passwords import secret_matches
from ..operations.metrics import REDIS_ERRORS
from ..storage.redis_client import REDIS_FAILURES
from . import external, store
from .messages import SessionCreate

log = logging.getLogger("spidertour.signin")

# KEYS: counters; ARGV: their limits. The longest wait (ms) of a counter at its limit, else 0.
LOCKED_LUA = """
local wait = 0
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[i]) then
    wait = math.max(wait, redis.call('PTTL', key))
  end
end
return wait
"""
# KEYS: counters; ARGV[1]: the window in seconds. One more failure on each.
FAILED_LUA = """
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then
    redis.call('EXPIRE', key, ARGV[1])
  end
end
return 0
"""


def _keys(request: Request[Any, Any, Any], handle: str | None) -> tuple[list[str], list[int]]:
    core = core_of(request)
    config, prefix = core.config, core.config.redis_prefix
    keys = [f"{prefix}:signin:address:{limiter_of(request).bucket_hash(request).hex()}"]
    limits = [config.signin_failures_per_address]
    if handle is not None:
        keys.append(f"{prefix}:signin:handle:{handle}")
        limits.append(config.signin_failures_per_handle)
    return keys, limits


async def _wait_locked(request: Request[Any, Any, Any], keys: list[str], limits: list[int]) -> None:
    redis = core_of(request).redis
    try:
        wait = int(await redis.eval(LOCKED_LUA, len(keys), *keys, *limits))
    except REDIS_FAILURES:
        REDIS_ERRORS.inc()
        log.warning("sign-in limits unavailable (Redis): not counted")
        return
    if wait != 0:  # -1: a counter without expiry (never set so): wait a whole window
        seconds = math.ceil(wait / 1000) if wait > 0 else core_of(request).config.signin_window_seconds
        raise HTTPException(
            status_code=429,
            detail=f"too many failed sign-ins: try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
            extra={"retry_after": seconds},
        )


async def _failed(request: Request[Any, Any, Any], keys: list[str]) -> None:
    core = core_of(request)
    try:
        await core.redis.eval(FAILED_LUA, len(keys), *keys, core.config.signin_window_seconds)
    except REDIS_FAILURES:
        REDIS_ERRORS.inc()
        log.warning("sign-in limits unavailable (Redis): a failure not counted")


async def _succeeded(request: Request[Any, Any, Any], handle: str) -> None:
    try:
        await core_of(request).redis.delete(f"{core_of(request).config.redis_prefix}:signin:handle:{handle}")
    except REDIS_FAILURES:
        REDIS_ERRORS.inc()


def _form(data: SessionCreate) -> str:
    given = tuple(f for f in ("handle", "password", "code", "assertion") if getattr(data, f) is not None)
    forms = {("handle", "password"): "password", ("handle", "code"): "code", ("assertion",): "assertion"}
    if given not in forms:
        raise HTTPException(
            status_code=400,
            detail='send {"handle", "password"}, {"handle", "code"} or {"assertion"}',
            extra=[{"message": f"got {', '.join(given) or 'nothing'}", "key": "data", "source": "body"}],
        )
    return forms[given]


async def sign_in(request: Request[Any, Any, Any], data: SessionCreate) -> int:
    """The player these credentials name: 401 when they name none, 429 while locked, 404 for an
    assertion when no host site is configured."""
    form = _form(data)
    core = core_of(request)
    if form == "assertion":
        if core.config.external_jwt is None:
            raise NotFoundException("sign-in from a host site is not configured on this server")
        keys, limits = _keys(request, None)
        await _wait_locked(request, keys, limits)
        assert data.assertion is not None
        try:
            issuer, subject, name = external.verify(core.config.external_jwt, data.assertion)
        except external.Refused as err:
            await _failed(request, keys)
            raise NotAuthorizedException(f"assertion refused: {err}") from None
        return await store.external_player(core.db, issuer, subject, name)
    assert data.handle is not None
    handle = data.handle.lower()
    keys, limits = _keys(request, handle)
    await _wait_locked(request, keys, limits)
    found = await store.by_handle(core.db, handle)
    stored = None if found is None else found[f"{form}_hash"]
    given = data.password if form == "password" else data.code
    assert given is not None
    matches = await asyncio.to_thread(secret_matches, stored, given)  # as long with no such handle
    if found is None or not matches:
        await _failed(request, keys)
        raise NotAuthorizedException(f"wrong handle or {form}")
    await _succeeded(request, handle)
    return int(found["id"])
