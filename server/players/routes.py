"""``POST /api/players``: register a display name; the answer's token is shown once."""

from __future__ import annotations

from typing import Any

from litestar import Request, post

from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of
from ..lib.http import printable, strict_body
from ..lib.tokens import new_token, token_hash
from ..operations.openapi import errors
from . import store
from .messages import PlayerCreate, PlayerCreated


@post("/api/players", status_code=201, guards=[limit_guard("register")], responses=errors(400, 415, 429))
async def post_player(request: Request[Any, Any, Any], data: PlayerCreate) -> PlayerCreated:
    """Register a display name. The token in the answer is shown once: keep it.
    Limited per client address (429 with Retry-After past the limit)."""
    data = await strict_body(request, PlayerCreate)
    name = printable(data.name)
    token = new_token()
    address = limiter_of(request).address_hash(request)
    pid = await store.create_player(core_of(request).db, name, token_hash(token), address)
    return PlayerCreated(id=pid, name=name, token=token)


ROUTES = [post_player]
