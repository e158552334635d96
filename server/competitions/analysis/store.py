"""The SQL of analyses: a finished game and its moves, the analysis stored once, and the claims on
its work (one process at a time, on a lease it renews, as ``par_claims``).

A game is one deal of an entry: with several deals an entry has one game on each (its moves are
``moves.n`` from ``first_move + 1`` to ``last_move``), analysed and stored on its own, keyed by
(entry, deal); a practice game plays one deal, the entry's ``deal``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

from ...play.deals import deal_count, deal_seed
from ...storage.claims import Claims
from ...storage.pool import Db

_PAR = """(SELECT jsonb_build_object('outcome', pr.outcome, 'final_score', pr.final_score,
                                 'moves', jsonb_array_length(pr.moves), 'pace', pr.pace, 'in_time', pr.in_time)
             FROM pars pr WHERE pr.tournament_id = e.tournament_id)"""


@dataclass(frozen=True, slots=True)
class DealGame:
    """One game to analyse: an entry's deal, its moves ``first_move + 1`` to ``last_move``."""

    entry_id: int
    deal: int
    status: str
    ordinal: int
    first_move: int
    last_move: int
    settings: dict[str, Any]
    seed: str  # the seed this deal is dealt from (``<seed>/<deal>`` with several deals)
    par_outcome: str | None  # the par's verdict on this deal (the par is deal 1's)

    @property
    def key(self) -> tuple[int, int]:
        return (self.entry_id, self.deal)

    @property
    def moves(self) -> int:
        return self.last_move - self.first_move


async def entry(db: Db, tournament_id: int, entry_id: int) -> asyncpg.Record | None:
    """An entry of the tournament with what its analysis needs but its moves: its deal (the one it
    plays or last played, with the sums of its earlier deals), how many moves it recorded and the par's verdict."""
    return await db.fetchrow(
        """SELECT e.id, e.status, e.ordinal, e.practice, e.moves, e.deal, e.moves_before, t.settings, t.seed,
                  (SELECT pr.outcome FROM pars pr WHERE pr.tournament_id = t.id) AS par_outcome
             FROM entries e JOIN tournaments t ON t.id = e.tournament_id
            WHERE e.id = $1 AND e.tournament_id = $2""",
        entry_id,
        tournament_id,
    )


async def game(db: Db, row: asyncpg.Record, deal: int) -> DealGame | None:
    """The entry's game on ``deal`` (None when it never played it): its own row for the deal it plays
    or last played, else the deal kept in ``entry_deals``."""
    deals = deal_count(row["settings"])
    if row["deal"] == deal:
        status, first, last = row["status"], row["moves_before"], row["moves"]
    else:
        kept = await db.fetchrow(
            "SELECT status, first_move, last_move FROM entry_deals WHERE entry_id = $1 AND deal = $2", row["id"], deal
        )
        if kept is None:
            return None
        status, first, last = kept["status"], kept["first_move"], kept["last_move"]
    return DealGame(
        entry_id=row["id"],
        deal=deal,
        status=status,
        ordinal=row["ordinal"],
        first_move=first,
        last_move=last,
        settings=row["settings"],
        seed=deal_seed(row["seed"], deal, deals),
        par_outcome=row["par_outcome"] if deal == 1 else None,
    )


async def moves(db: Db, game: DealGame) -> list[dict[str, Any]]:
    """The game's recorded moves, in order."""
    found = await db.fetchval(
        """SELECT coalesce(jsonb_agg(m.move ORDER BY m.n), '[]'::jsonb) FROM moves m
            WHERE m.entry_id = $1 AND m.n > $2 AND m.n <= $3""",
        game.entry_id,
        game.first_move,
        game.last_move,
    )
    return list(found)


async def stored(db: Db, entry_id: int, deal: int) -> asyncpg.Record | None:
    """The stored analysis with the tournament's par (a summary; null when none, and on every deal but
    the first: the par is deal 1's) and how the game on that deal ended (the entry's status, or an
    earlier deal's as kept in ``entry_deals``)."""
    return await db.fetchrow(
        f"""SELECT a.positions, a.turning_point, CASE WHEN a.deal = 1 THEN {_PAR} END AS par,
                  CASE WHEN a.deal = e.deal THEN e.status
                       ELSE (SELECT d.status FROM entry_deals d WHERE d.entry_id = e.id AND d.deal = a.deal)
                  END AS status
              FROM analyses a JOIN entries e ON e.id = a.entry_id WHERE a.entry_id = $1 AND a.deal = $2""",
        entry_id,
        deal,
    )


async def save(db: Db, key: tuple[int, int], result: dict[str, Any]) -> bool:
    """Store an analysis (a second one is ignored)."""
    status = await db.execute(
        """INSERT INTO analyses (entry_id, deal, positions, turning_point, solved, seconds)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (entry_id, deal) DO NOTHING""",
        *key,
        result["positions"],
        result["turning_point"],
        result["solved"],
        result["seconds"],
    )
    return status.endswith(" 1")


# Each game (an entry's deal) analysed once, on a renewed lease.
CLAIMS = Claims("analysis_claims", "entry_id, deal", "analyses")
claim, renew, release = CLAIMS.claim, CLAIMS.renew, CLAIMS.release
