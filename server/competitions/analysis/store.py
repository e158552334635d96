"""The SQL of analyses: a finished game and its moves, the analysis stored once, and the claims on
its work (one process at a time, on a lease it renews, as ``par_claims``)."""

from __future__ import annotations

from typing import Any

import asyncpg

from ...storage.claims import Claims
from ...storage.pool import Db


async def game(db: Db, tournament_id: int, entry_id: int) -> asyncpg.Record | None:
    """An entry of the tournament with what its analysis needs but its moves: its deal, how many
    moves it recorded (``moves``) and the par's verdict."""
    return await db.fetchrow(
        """SELECT e.id, e.status, e.ordinal, e.practice, e.moves, t.settings, t.seed,
                  (SELECT pr.outcome FROM pars pr WHERE pr.tournament_id = t.id) AS par_outcome
             FROM entries e JOIN tournaments t ON t.id = e.tournament_id
            WHERE e.id = $1 AND e.tournament_id = $2""",
        entry_id,
        tournament_id,
    )


async def moves(db: Db, entry_id: int) -> list[dict[str, Any]]:
    """The game's recorded moves, in order."""
    found = await db.fetchval(
        "SELECT coalesce(jsonb_agg(m.move ORDER BY m.n), '[]'::jsonb) FROM moves m WHERE m.entry_id = $1", entry_id
    )
    return list(found)


async def stored(db: Db, entry_id: int) -> asyncpg.Record | None:
    """The stored analysis with the tournament's par (a summary, null when none) and how the game ended
    (the entry's status)."""
    return await db.fetchrow(
        """SELECT a.positions, a.turning_point, e.status,
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


CLAIMS = Claims("analysis_claims", "entry_id", "analyses")  # each game analysed once, on a renewed lease
claim, renew, release = CLAIMS.claim, CLAIMS.renew, CLAIMS.release
