"""The SQL of players."""

from __future__ import annotations

import asyncpg


async def create_player(db: asyncpg.Pool, name: str, token_hash: bytes, address_hash: bytes | None = None) -> int:
    player_id: int = await db.fetchval(
        "INSERT INTO players (name, token_hash, address_hash) VALUES ($1, $2, $3) RETURNING id",
        name,
        token_hash,
        address_hash,
    )
    return player_id


async def player_by_token(db: asyncpg.Pool, token_hash: bytes) -> asyncpg.Record | None:
    return await db.fetchrow("SELECT id, name FROM players WHERE token_hash = $1", token_hash)
