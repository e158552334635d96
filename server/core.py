"""What every part of the running server shares: its configuration, the PostgreSQL pool, the
Redis client and the admin token. Each domain package keeps its own running parts beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import asyncpg
from litestar.connection import ASGIConnection
from redis.asyncio import Redis

from .config import Config


@dataclass(frozen=True, slots=True)
class Core:
    config: Config
    db: asyncpg.Pool
    redis: Redis
    admin_token: str


def core_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Core:
    """The server's shared parts, from a request or a websocket."""
    return cast(Core, connection.app.state.core)
