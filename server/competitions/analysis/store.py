"""The SQL of analyses: a finished game and its moves, the analysis stored once, and the claims on
its work (one process at a time, on a lease it renews, as ``par_claims``)."""

from __future__ import annotations

from typing import Any

import asyncpg

from ...storage.pool import Db


async def game(db: Db, tournament_id: int, entry_id: int) -> asyncpg.Record | None:
    """An entry of the tournament with what its analysis needs: its deal, moves and the par's verdict."""
    return await db.fetchrow(
        """SELECT e.id, e.status, e.ordinal, e.practice, t.settings, t.seed,
                  (SELECT pr.outcome FROM pars pr WHERE pr.tournament_id = t.id) AS par_outcome,
                  coalesce((SELECT jsonb_agg(m.move ORDER BY m.n) FROM moves m WHERE m.entry_id = e.id),
                           '[]'::jsonb) AS moves
             FROM entries e JOIN tournaments t ON t.id = e.tournament_id
            WHERE e.id = $1 AND e.tournament_id = $2""",
        entry_id,
        tournament_id,
    )


async def stored(db: Db, entry_id: int) -> asyncpg.Record | None:
    """The stored analysis with the tournament's par (a summary, null when none)."""
    return await db.fetchrow(
        """SELECT a.positions, a.turning_point,
                  (SELECT jsonb_build_object('outcome', pr.outcome, 'final_score', pr.final_score,
                                             'moves', jsonb_array_length(pr.moves), 'pace', pr.pace,
                                             'in_time', pr.in_time)
                     FROM pars pr WHERE pr.tournament_id = e.tournament_id) AS par
             FROM analyses a JOIN entries e ON e.id = a.entry_id WHERE a.entry_id = $1""",
        entry_id,
    )


async def save(db: Db, entry_id: int, result: dict[str, Any]) -> bool:
    """Store an analysis (a second one is ignored)."""
    status = await db.execute(
        """INSERT INTO analyses (entry_id, positions, turning_point, solved, seconds) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (entry_id) DO NOTHING""",
        entry_id,
        result["positions"],
        result["turning_point"],
        result["solved"],
        result["seconds"],
    )
    return status.endswith(" 1")


async def claim(db: Db, entry_id: int, claimant: str, lease: float) -> int | None:
    """Claim the work for ``lease`` seconds: how many times it was started, or None when it is done
    or another process holds an unexpired claim (an expired one is taken over)."""
    return await db.fetchval(  # type: ignore[no-any-return]
        """INSERT INTO analysis_claims (entry_id, claimed_by, expires_at)
           SELECT $1, $2, now() + make_interval(secs => $3)
            WHERE NOT EXISTS (SELECT 1 FROM analyses WHERE entry_id = $1)
           ON CONFLICT (entry_id) DO UPDATE
              SET claimed_by = excluded.claimed_by, expires_at = excluded.expires_at,
                  starts = analysis_claims.starts + 1
            WHERE analysis_claims.expires_at <= now()
           RETURNING starts""",
        entry_id,
        claimant,
        lease,
    )


async def renew(db: Db, entry_id: int, claimant: str, lease: float) -> bool:
    status = await db.execute(
        """UPDATE analysis_claims SET expires_at = now() + make_interval(secs => $3)
            WHERE entry_id = $1 AND claimed_by = $2""",
        entry_id,
        claimant,
        lease,
    )
    return status.endswith(" 1")


async def release(db: Db, entry_id: int, claimant: str) -> None:
    await db.execute(
        "UPDATE analysis_claims SET expires_at = now() WHERE entry_id = $1 AND claimed_by = $2", entry_id, claimant
    )
