"""Work done once across server processes, on a lease its worker renews: a claims table
(``key``, ``claimed_by``, ``expires_at``, ``starts``) beside the table of results, whose row for
the key ends the work for good (the par of a tournament, the analysis of a game)."""

from __future__ import annotations

from dataclasses import dataclass

from .pool import Db


@dataclass(frozen=True)
class Claims:
    """One kind of work: its claims table, the key column, and the results table (names from code)."""

    table: str
    key: str
    done: str

    async def claim(self, db: Db, key: int, claimant: str, lease: float) -> int | None:
        """Claim the work for ``lease`` seconds: how many times it was started, or None when it is
        done or another process holds an unexpired claim (an expired one is taken over)."""
        return await db.fetchval(  # type: ignore[no-any-return]
            f"""INSERT INTO {self.table} ({self.key}, claimed_by, expires_at)
                SELECT $1, $2, now() + make_interval(secs => $3)
                 WHERE NOT EXISTS (SELECT 1 FROM {self.done} WHERE {self.key} = $1)
                ON CONFLICT ({self.key}) DO UPDATE
                   SET claimed_by = excluded.claimed_by, expires_at = excluded.expires_at,
                       starts = {self.table}.starts + 1
                 WHERE {self.table}.expires_at <= now()
                RETURNING starts""",
            key,
            claimant,
            lease,
        )

    async def renew(self, db: Db, key: int, claimant: str, lease: float) -> bool:
        """Extend one's own claim by ``lease`` seconds from now; False when it is no longer one's own."""
        status = await db.execute(
            f"""UPDATE {self.table} SET expires_at = now() + make_interval(secs => $3)
                 WHERE {self.key} = $1 AND claimed_by = $2""",
            key,
            claimant,
            lease,
        )
        return status.endswith(" 1")

    async def release(self, db: Db, key: int, claimant: str) -> None:
        """Give up one's own claim (the work cancelled or failed): any process may claim it at once."""
        await db.execute(
            f"UPDATE {self.table} SET expires_at = now() WHERE {self.key} = $1 AND claimed_by = $2", key, claimant
        )
