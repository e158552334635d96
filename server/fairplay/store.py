"""The SQL of fair play: the address key, and what the integrity report reads."""

from __future__ import annotations

import secrets

import asyncpg

from ..storage.sql import HIDDEN_SQL, STATUS_SQL


async def address_key(db: asyncpg.Pool) -> bytes:
    """The key of the client-address hashes: drawn by the first process, shared by all."""
    await db.execute(
        """INSERT INTO server_secrets (name, value) VALUES ('address_key', $1) ON CONFLICT (name) DO NOTHING""",
        secrets.token_bytes(32),
    )
    key: bytes = await db.fetchval("SELECT value FROM server_secrets WHERE name = 'address_key'")
    return key


async def tournament(db: asyncpg.Pool, tournament_id: int) -> asyncpg.Record | None:
    """What the report says of the tournament itself."""
    return await db.fetchrow(
        f"SELECT t.id, t.name, t.settings, t.seed, {STATUS_SQL} AS status FROM tournaments t "
        f"WHERE t.id = $1 AND NOT {HIDDEN_SQL}",
        tournament_id,
    )


async def integrity_rows(db: asyncpg.Pool, tournament_id: int) -> list[asyncpg.Record]:
    """Every entry of a tournament with its moves and the keyed hashes of its client addresses."""
    return await db.fetch(
        """SELECT e.id AS entry_id, e.ordinal, e.player_id, p.name AS player, e.status, e.score, e.final_score,
                  e.started_at, e.ended_at, p.address_hash, e.address_hash AS join_hash,
                  e.play_address_hash AS play_hash,
                  coalesce((SELECT jsonb_agg(m.move || jsonb_build_object('t', m.t) ORDER BY m.n)
                              FROM moves m WHERE m.entry_id = e.id), '[]'::jsonb) AS moves
             FROM entries e JOIN players p ON p.id = e.player_id
            WHERE e.tournament_id = $1 AND NOT e.practice ORDER BY e.ordinal""",
        tournament_id,
    )
