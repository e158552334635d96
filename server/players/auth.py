"""Knowing the player behind a request by its bearer token: an open session's, looked up in
PostgreSQL on every request, so an ended one is refused at once on every process."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers import BaseRouteHandler

from ..core import core_of
from ..lib.http import bearer
from ..lib.tokens import token_hash
from .store import player_by_token


async def require_player(connection: ASGIConnection[Any, Any, Any, Any]) -> asyncpg.Record:
    """The caller (id, name, handle, session_id); 401 for a token of no open session."""
    player = await player_by_token(core_of(connection).db, token_hash(bearer(connection)))
    if player is None:
        raise NotAuthorizedException("unknown player token")
    return player


async def player_guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """A route guard, so that a request without a player's token gets 401 before its body is read:
    the caller is then ``connection.state.player``."""
    connection.state.player = await require_player(connection)
