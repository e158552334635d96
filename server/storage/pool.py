"""The PostgreSQL connection pool: ``jsonb`` read and written as Python objects."""

from __future__ import annotations

import json
from typing import TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

# A connection of one's own, or one lent by the pool; and anything that runs a statement.
Connection: TypeAlias = "asyncpg.Connection | PoolConnectionProxy"
Db: TypeAlias = "asyncpg.Pool | asyncpg.Connection | PoolConnectionProxy"


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


async def create_pool(url: str, size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(url, min_size=1, max_size=size, init=_init_connection)
    assert pool is not None
    return pool
