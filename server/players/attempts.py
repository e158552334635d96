"""The SQL of what guards sign-in: failed sign-ins counted per handle and per client address
(``signin_failures``), and the host-site assertions already taken (``external_assertions``).

Both live in PostgreSQL, which every sign-in needs anyway: the lockout holds with Redis down or
busy, and counts are exact across every server process.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg

# One more attempt on each key ($1, sorted, so that two sign-ins lock the rows in the same order), a
# new window of $2 seconds for a key whose window has ended. The counts and windows' ends after it.
_COUNT = """
INSERT INTO signin_failures AS f (key, failures, ends_at)
SELECT k, 1, now() + make_interval(secs => $2) FROM unnest($1::text[]) AS k ORDER BY k
ON CONFLICT (key) DO UPDATE SET
    failures = CASE WHEN f.ends_at <= now() THEN 1 ELSE f.failures + 1 END,
    ends_at = CASE WHEN f.ends_at <= now() THEN EXCLUDED.ends_at ELSE f.ends_at END
RETURNING key, failures, GREATEST(ends_at - now(), interval '0') AS left_
"""
_GIVE_BACK = "UPDATE signin_failures SET failures = failures - 1 WHERE key = ANY($1::text[]) AND failures > 0"
_CLEAR = "DELETE FROM signin_failures WHERE key = $1"
FORGET_AFTER = "1 hour"  # rows whose window ended longer ago than this are deleted


async def count(db: asyncpg.Pool, limits: dict[str, int], window: int) -> float:
    """Count one attempt on every key before it is checked. 0 when each key is within its limit
    (the attempt may be checked), else the seconds until the longest locked window ends (the
    attempt is given back: refusing it counts nothing)."""
    async with db.acquire() as conn, conn.transaction():
        rows = await conn.fetch(_COUNT, sorted(limits), float(window))
        over = [r["left_"].total_seconds() for r in rows if r["failures"] > limits[r["key"]]]
        if over:
            await conn.execute(_GIVE_BACK, sorted(limits))
    return max(max(over), 0.001) if over else 0.0


async def succeeded(db: asyncpg.Pool, clear: str | None, give_back: list[str]) -> None:
    """A sign-in succeeded: the handle's count is cleared, the other keys get their attempt back."""
    async with db.acquire() as conn, conn.transaction():
        if clear is not None:
            await conn.execute(_CLEAR, clear)
        if give_back:
            await conn.execute(_GIVE_BACK, sorted(give_back))


async def taken_once(db: asyncpg.Pool, issuer: str, assertion_id: str, expires_at: datetime) -> bool:
    """Remember a host site's assertion until it expires: False when it was taken already."""
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("DELETE FROM external_assertions WHERE expires_at < now()")
        first = await conn.fetchval(
            """INSERT INTO external_assertions (issuer, id, expires_at) VALUES ($1, $2, $3)
               ON CONFLICT (issuer, id) DO NOTHING RETURNING true""",
            issuer,
            assertion_id,
            expires_at,
        )
    return first is not None


async def forget_expired(db: asyncpg.Pool) -> None:
    """Delete failure counts whose window ended long ago (the clock does it every few minutes)."""
    await db.execute(f"DELETE FROM signin_failures WHERE ends_at < now() - interval '{FORGET_AFTER}'")
