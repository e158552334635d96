"""Work done once across server processes, on a lease its worker renews: a claims table
(``key``, ``claimed_by``, ``expires_at``, ``starts``) beside the table of results, whose row for
the key ends the work for good (the par of a tournament, the analysis of a game)."""

from __future__ import annotations

from dataclasses import dataclass

from .pool import Db

Key = int | tuple[int, ...]  # one key column's value, or several columns' (``"entry_id, deal"``)


@dataclass(frozen=True)
class Claims:
    """One kind of work: its claims table, the key column (or columns, comma-separated), and the
    results table (names from code)."""

    table: str
    key: str
    done: str

    def _key(self, key: Key) -> tuple[tuple[int, ...], str, str]:
        """The key's values, the placeholders they take ($1...) and the condition naming them."""
        values = key if isinstance(key, tuple) else (key,)
        marks = ", ".join(f"${i}" for i in range(1, len(values) + 1))
        return values, marks, f"({self.key}) = ({marks})" if len(values) > 1 else f"{self.key} = $1"

    async def claim(self, db: Db, key: Key, claimant: str, lease: float) -> int | None:
        """Claim the work for ``lease`` seconds: how many times it was started, or None when it is
        done or another process holds an unexpired claim (an expired one is taken over)."""
        values, marks, same = self._key(key)
        n = len(values)
        return await db.fetchval(  # type: ignore[no-any-return]
            f"""INSERT INTO {self.table} ({self.key}, claimed_by, expires_at)
                SELECT {marks}, ${n + 1}, now() + make_interval(secs => ${n + 2})
                 WHERE NOT EXISTS (SELECT 1 FROM {self.done} WHERE {same})
                ON CONFLICT ({self.key}) DO UPDATE
                   SET claimed_by = excluded.claimed_by, expires_at = excluded.expires_at,
                       starts = {self.table}.starts + 1
                 WHERE {self.table}.expires_at <= now()
                RETURNING starts""",
            *values,
            claimant,
            lease,
        )

    async def renew(self, db: Db, key: Key, claimant: str, lease: float) -> bool:
        """Extend one's own claim by ``lease`` seconds from now; False when it is no longer one's own."""
        values, _, same = self._key(key)
        n = len(values)
        status = await db.execute(
            f"""UPDATE {self.table} SET expires_at = now() + make_interval(secs => ${n + 2})
                 WHERE {same} AND claimed_by = ${n + 1}""",
            *values,
            claimant,
            lease,
        )
        return status.endswith(" 1")

    async def release(self, db: Db, key: Key, claimant: str) -> None:
        """Give up one's own claim (the work cancelled or failed): any process may claim it at once."""
        values, _, same = self._key(key)
        await db.execute(
            f"UPDATE {self.table} SET expires_at = now() WHERE {same} AND claimed_by = ${len(values) + 1}",
            *values,
            claimant,
        )
