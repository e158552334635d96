"""Players: registering (a guest, or an account with a handle and a password), the caller itself,
and sessions: signing in on a device, signing out of one or of all (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from litestar import Request, delete, get, patch, post
from litestar.exceptions import HTTPException

from ..config import Limit
from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of, too_many
from ..lib.http import printable, strict_body
from ..lib.tokens import new_token, token_hash
from ..operations.openapi import PLAYER, errors
from . import store
from .auth import player_guard, require_player
from .hashing import hashed
from .messages import Club, Me, MeUpgrade, OrganiserRef, PlayerCreate, PlayerCreated, SessionCreate, SessionCreated
from .signin import sign_in
from .signouts import signouts_of

# A guest becoming an account hashes a password: a few tries a minute per player (one succeeds;
# the others race it), and each takes one of its address's registrations.
UPGRADES = Limit("upgrade", per_minute=6.0, burst=3, what="tries at choosing a password")


def _taken(handle: str) -> HTTPException:
    return HTTPException(status_code=409, detail=f"the handle {handle!r} is taken", extra={"handle": handle})


async def _me(request: Request[Any, Any, Any], player_id: int) -> Me:
    db = core_of(request).db
    found = await store.player(db, player_id)
    assert found is not None
    clubs = [Club(id=c["id"], name=c["name"]) for c in await store.clubs_of(db, player_id)]
    organiser = None if found["organiser_id"] is None else OrganiserRef(found["organiser_id"], found["organiser_name"])
    may_organise = (
        core_of(request).config.organisers_open
        and found["handle"] is not None
        and organiser is None
        and not found["organiser_revoked"]
    )
    return Me(
        id=found["id"],
        name=found["name"],
        handle=found["handle"],
        clubs=clubs,
        has_password=found["has_password"],
        organiser=organiser,
        may_organise=may_organise,
    )


@post("/api/players", status_code=201, guards=[limit_guard("register")], responses=errors(400, 409, 415, 429))
async def post_player(request: Request[Any, Any, Any], data: PlayerCreate) -> PlayerCreated:
    """Register: a guest with `{"name"}`, or an account with `{"name", "handle", "password"}` (the
    handle folded to small letters; 409 when taken). The token in the answer is shown once: keep it.
    Limited per client address (429 with Retry-After past the limit)."""
    data = await strict_body(request, PlayerCreate)
    name = printable(data.name)
    if (data.handle is None) != (data.password is None):
        raise HTTPException(status_code=400, detail="an account needs both a handle and a password")
    handle = None if data.handle is None else data.handle.lower()
    password_hash = None if data.password is None else await hashed(data.password)
    token = new_token()
    address = limiter_of(request).address_hash(request)
    try:
        pid = await store.create_player(core_of(request).db, name, token_hash(token), address, handle, password_hash)
    except store.HandleTaken:
        raise _taken(handle or "") from None
    return PlayerCreated(id=pid, name=name, token=token, handle=handle)


@get("/api/me", security=PLAYER, responses=errors(401))
async def get_me(request: Request[Any, Any, Any]) -> Me:
    """Player: the caller, its handle (null for a guest) and its clubs."""
    player = await require_player(request)
    return await _me(request, player["id"])


def _account_already(handle: str | None) -> HTTPException:
    return HTTPException(
        status_code=409, detail=f"this player is an account already (@{handle}): its handle and password stay"
    )


async def _upgrade_allowed(request: Request[Any, Any, Any], player_id: int) -> None:
    """429 past the player's own tries, or its address's registrations (the cheap checks passed)."""
    limiter = limiter_of(request)
    for limit, key in (
        (UPGRADES, f"player:{player_id}".encode()),
        (core_of(request).config.limits["register"], limiter.bucket_hash(request)),
    ):
        wait = await limiter.take(limit, key)
        if wait:
            raise too_many(wait, f"too many {limit.what}", limit)


@patch("/api/me", security=PLAYER, guards=[player_guard], responses=errors(400, 401, 409, 415, 429))
async def upgrade_me(request: Request[Any, Any, Any], data: MeUpgrade) -> Me:
    """Player: a guest becomes an account with `{"handle", "password"}`, keeping its entries and
    this token; a club member who signs in with a code chooses a password with its own handle (the
    code then stops working). 409 when the handle is taken, or when the caller has a password
    already (both answered before any hashing); limited per player and per client address (429)."""
    player = request.state.player
    data = await strict_body(request, MeUpgrade)
    db = core_of(request).db
    handle = data.handle.lower()
    me = await store.player(db, player["id"])
    if me is None or me["has_password"] or (me["handle"] is not None and me["handle"] != handle):
        raise _account_already(player["handle"])
    other = await store.by_handle(db, handle)
    if other is not None and other["id"] != player["id"]:
        raise _taken(handle)
    await _upgrade_allowed(request, player["id"])
    password_hash = await hashed(data.password)
    try:
        done = await store.upgrade(db, player["id"], handle, password_hash)
    except store.HandleTaken:
        raise _taken(handle) from None
    if not done:  # another request of the same player won the race
        now = await store.player(db, player["id"])
        raise _account_already(None if now is None else now["handle"])
    return await _me(request, player["id"])


@post("/api/sessions", status_code=201, responses=errors(400, 401, 404, 415, 429))
async def post_session(request: Request[Any, Any, Any], data: SessionCreate) -> SessionCreated:
    """Sign in on this device: `{"handle", "password"}`, `{"handle", "code"}` (a club member's
    sign-in code) or `{"assertion"}` (a host site's JWT; 404 when none is configured). A wrong
    handle and a wrong password get the same 401; failed sign-ins are limited per handle and per
    address (429 with Retry-After). The token in the answer is shown once. A player keeps its
    `SESSIONS_PER_PLAYER` newest sessions: signing in past them ends the oldest."""
    data = await strict_body(request, SessionCreate)
    player_id = await sign_in(request, data)
    token = new_token()
    core = core_of(request)
    _, ended = await store.open_session(core.db, player_id, token_hash(token), core.config.sessions_per_player)
    await signouts_of(request).ended(ended)  # past the quota: the oldest sessions end
    return SessionCreated(token=token, player=await _me(request, player_id))


@delete("/api/sessions/current", status_code=204, security=PLAYER, responses=errors(401))
async def end_this_session(request: Request[Any, Any, Any]) -> None:
    """Player: sign out of this device. Its token is refused from now on, its play sockets closed."""
    player = await require_player(request)
    ended = await store.end_session(core_of(request).db, player["session_id"])
    await signouts_of(request).ended(ended)


@delete("/api/sessions", status_code=204, security=PLAYER, responses=errors(401))
async def end_all_sessions(request: Request[Any, Any, Any]) -> None:
    """Player: sign out everywhere. Every token of the caller (this one too) is refused from now
    on, and every play socket opened with them closed, on every server process."""
    player = await require_player(request)
    ended = await store.end_sessions_of(core_of(request).db, player["id"])
    await signouts_of(request).ended(ended)


ROUTES = [post_player, get_me, upgrade_me, post_session, end_this_session, end_all_sessions]
