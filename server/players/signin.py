"""Signing in: a handle with its password or code, or a host site's assertion; failures limited.

Sign-in attempts are counted in PostgreSQL (``attempts``) for the handle tried and for the
client's address, in windows of ``SIGNIN_WINDOW_SECONDS`` that begin at the first failure, BEFORE
the password (or code, or assertion) is checked: the attempt that would pass
``SIGNIN_FAILURES_PER_HANDLE`` (or ``_PER_ADDRESS``) is answered 429 with ``Retry-After`` until the
window ends, unchecked, even with the right password; so parallel guesses get no more checks than
the limit. A successful sign-in gives its attempt back (and clears the handle's count). An unknown
handle is checked against a stand-in hash, so it answers like a wrong password, as slowly. Redis
plays no part: the lockout holds with Redis down or busy.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import HTTPException, NotAuthorizedException, NotFoundException

from ..core import core_of
from ..fairplay.limits import limiter_of, too_many
from . import attempts, external, store
from .hashing import matches
from .messages import SessionCreate


def _keys(request: Request[Any, Any, Any], handle: str | None) -> dict[str, int]:
    """The counters of this attempt and their limits."""
    config = core_of(request).config
    keys = {f"address:{limiter_of(request).bucket_hash(request).hex()}": config.signin_failures_per_address}
    if handle is not None:
        keys[f"handle:{handle}"] = config.signin_failures_per_handle
    return keys


async def _count(request: Request[Any, Any, Any], keys: dict[str, int]) -> None:
    """Count this attempt, or refuse it (429) while one of its counters is at its limit."""
    core = core_of(request)
    wait = await attempts.count(core.db, keys, core.config.signin_window_seconds)
    if wait:
        raise too_many(wait, "too many failed sign-ins")


async def _succeeded(request: Request[Any, Any, Any], keys: dict[str, int], handle: str | None) -> None:
    clear = None if handle is None else f"handle:{handle}"
    await attempts.succeeded(core_of(request).db, clear, [k for k in keys if k != clear])


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
    assertion when no host site is configured, 400 for an assertion whose subject cannot be kept."""
    form = _form(data)
    core = core_of(request)
    if form == "assertion":
        if core.config.external_jwt is None:
            raise NotFoundException("sign-in from a host site is not configured on this server")
        assert data.assertion is not None
        keys = _keys(request, None)
        await _count(request, keys)
        try:
            taken = external.verify(core.config.external_jwt, data.assertion)
        except external.Unusable as err:  # signed by the host site, but not a subject we can keep
            raise HTTPException(status_code=400, detail=f"assertion not usable: {err}") from None
        except external.Refused as err:
            raise NotAuthorizedException(f"assertion refused: {err}") from None
        if not await attempts.taken_once(core.db, taken.issuer, taken.once, taken.expires_at):
            raise NotAuthorizedException("assertion refused: it was used already (each assertion signs in once)")
        await _succeeded(request, keys, None)
        return await store.external_player(core.db, taken.issuer, taken.subject, taken.name)
    assert data.handle is not None
    handle = data.handle.lower()
    keys = _keys(request, handle)
    await _count(request, keys)
    found = await store.by_handle(core.db, handle)
    stored = None if found is None else found[f"{form}_hash"]
    given = data.password if form == "password" else data.code
    assert given is not None
    right = await matches(stored, given)  # as long with no such handle
    if found is None or not right:
        raise NotAuthorizedException(f"wrong handle or {form}")
    await _succeeded(request, keys, handle)
    return int(found["id"])
