"""The SQL of players and their sessions (one row a signed-in device: the token's SHA-256 only)."""

from __future__ import annotations

import asyncpg

# The caller as a request knows it: the player, and which of its sessions this is.
_BY_TOKEN = """SELECT p.id, p.name, p.handle, s.id AS session_id
                 FROM sessions s JOIN players p ON p.id = s.player_id
                WHERE s.token_hash = $1 AND s.ended_at IS NULL"""


class HandleTaken(Exception):
    """Another player has this handle."""


async def create_player(
    db: asyncpg.Pool,
    name: str,
    token_hash: bytes,
    address_hash: bytes | None = None,
    handle: str | None = None,
    password_hash: str | None = None,
) -> int:
    """A guest (no handle) or an account, with its first session."""
    async with db.acquire() as conn, conn.transaction():
        try:
            player_id: int = await conn.fetchval(
                """INSERT INTO players (name, address_hash, handle, password_hash)
                   VALUES ($1, $2, $3, $4) RETURNING id""",
                name,
                address_hash,
                handle,
                password_hash,
            )
        except asyncpg.UniqueViolationError:
            raise HandleTaken(handle) from None
        await conn.execute("INSERT INTO sessions (player_id, token_hash) VALUES ($1, $2)", player_id, token_hash)
    return player_id


async def player_by_token(db: asyncpg.Pool, token_hash: bytes) -> asyncpg.Record | None:
    """The player of an open session (id, name, handle, session_id), or None."""
    return await db.fetchrow(_BY_TOKEN, token_hash)


async def clubs_of(db: asyncpg.Pool, player_id: int) -> list[asyncpg.Record]:
    return await db.fetch(
        """SELECT c.id, c.name FROM club_members m JOIN clubs c ON c.id = m.club_id
            WHERE m.player_id = $1 ORDER BY c.name, c.id""",
        player_id,
    )


async def player(db: asyncpg.Pool, player_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(
        """SELECT p.id, p.name, p.handle, p.password_hash IS NOT NULL AS has_password, o.id AS organiser_id,
                  o.name AS organiser_name,
                  EXISTS (SELECT 1 FROM organisers r WHERE r.player_id = p.id AND r.revoked_at IS NOT NULL)
                      AS organiser_revoked
             FROM players p LEFT JOIN organisers o ON o.player_id = p.id AND o.revoked_at IS NULL
            WHERE p.id = $1""",
        player_id,
    )


async def by_handle(db: asyncpg.Pool, handle: str) -> asyncpg.Record | None:
    """A player's secrets' hashes by handle, to check a sign-in against."""
    return await db.fetchrow("SELECT id, password_hash, code_hash FROM players WHERE handle = $1", handle)


async def upgrade(db: asyncpg.Pool, player_id: int, handle: str, password_hash: str) -> bool:
    """A guest becomes an account, or a club member made with a sign-in code chooses a password
    under its own handle (its code then stops working); False when it has a handle and a password
    already, or another handle. HandleTaken if another player has the handle."""
    try:
        done = await db.fetchval(
            """UPDATE players SET handle = $2, password_hash = $3, code_hash = NULL
                WHERE id = $1 AND (handle IS NULL OR (handle = $2 AND password_hash IS NULL)) RETURNING id""",
            player_id,
            handle,
            password_hash,
        )
    except asyncpg.UniqueViolationError:
        raise HandleTaken(handle) from None
    return done is not None


async def external_player(db: asyncpg.Pool, issuer: str, subject: str, name: str) -> int:
    """The player of a host site's user (the same (issuer, subject) every time), its name kept current."""
    player_id: int = await db.fetchval(
        """INSERT INTO players (name, external_issuer, external_subject) VALUES ($3, $1, $2)
           ON CONFLICT (external_issuer, external_subject) DO UPDATE SET name = EXCLUDED.name
           RETURNING id""",
        issuer,
        subject,
        name,
    )
    return player_id


async def open_session(db: asyncpg.Pool, player_id: int, token_hash: bytes, keep: int) -> tuple[int, list[int]]:
    """A new session, the player's ``keep`` newest staying open: (its id, the ids of those it ended).
    The player's row is locked meanwhile, so that sign-ins at once cannot leave more open."""
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id)
        session_id: int = await conn.fetchval(
            "INSERT INTO sessions (player_id, token_hash) VALUES ($1, $2) RETURNING id", player_id, token_hash
        )
        ended = await conn.fetch(
            """UPDATE sessions SET ended_at = now() WHERE id IN (
                   SELECT id FROM sessions WHERE player_id = $1 AND ended_at IS NULL ORDER BY id DESC OFFSET $2)
               RETURNING id""",
            player_id,
            keep,
        )
    return session_id, [r["id"] for r in ended]


async def end_session(db: asyncpg.Pool, session_id: int) -> list[int]:
    rows = await db.fetch(
        "UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL RETURNING id", session_id
    )
    return [r["id"] for r in rows]


async def end_sessions_of(db: asyncpg.Pool, player_id: int) -> list[int]:
    """End every open session of the player: the ids ended."""
    rows = await db.fetch(
        "UPDATE sessions SET ended_at = now() WHERE player_id = $1 AND ended_at IS NULL RETURNING id", player_id
    )
    return [r["id"] for r in rows]


async def ended_among(db: asyncpg.Pool, session_ids: list[int]) -> list[int]:
    """Which of these sessions have ended (or are gone)."""
    rows = await db.fetch(
        """SELECT i FROM unnest($1::bigint[]) AS i
            WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = i AND s.ended_at IS NULL)""",
        session_ids,
    )
    return [r["i"] for r in rows]
