"""Knowing the player behind a request by its bearer token."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request
from litestar.exceptions import NotAuthorizedException

from ..core import core_of
from ..lib.http import bearer
from ..lib.tokens import token_hash
from .store import player_by_token


async def require_player(request: Request[Any, Any, Any]) -> asyncpg.Record:
    player = await player_by_token(core_of(request).db, token_hash(bearer(request)))
    if player is None:
        raise NotAuthorizedException("unknown player token")
    return player
