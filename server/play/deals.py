"""Several deals in one event (setting ``deals``): which deal an entry plays, and the start of the next.

An entry's row holds the deal it plays (or last played) and its running totals: ``score``,
``final_score`` and ``time_left`` add up its deals, and ``score_before``, ``time_before`` and
``moves_before`` are the sums of its earlier deals (all 0 on deal 1). Each earlier deal's own result
is kept in ``entry_deals`` when the next one starts; its moves are ``moves.n`` from
``first_move + 1`` to ``last_move`` (an entry's moves are numbered across its deals, as its ``seq``).
"""

from __future__ import annotations

from collections.abc import Mapping

import asyncpg

from ..storage.pool import Connection

SCORINGS = ("total", "matchpoints")
MAX_DEALS = 10
OVER = "('won', 'ended', 'timed_out')"  # a deal over by its own play or the clock (not absent)
DEALS_SQL = "coalesce((t.settings->>'deals')::int, 1)"
TIME_LIMIT_SQL = "(t.settings->>'time_limit')::float8"


def deal_count(settings: Mapping[str, object]) -> int:
    """How many deals a tournament's settings play (left out: one)."""
    deals = settings.get("deals", 1)
    return deals if type(deals) is int and deals >= 1 else 1


def scoring_of(settings: Mapping[str, object]) -> str:
    """How a tournament's settings rank its entries (left out: by the total)."""
    scoring = settings.get("scoring", "total")
    return scoring if isinstance(scoring, str) and scoring in SCORINGS else "total"


def deal_seed(seed: str, deal: int, deals: int) -> str:
    """The seed string deal ``deal`` is dealt from: the tournament's seed for one deal, else ``seed/deal``."""
    return seed if deals == 1 else f"{seed}/{deal}"


_ARCHIVE = """
    INSERT INTO entry_deals (entry_id, deal, status, final_score, time_left, first_move, last_move,
                             started_at, ended_at)
    SELECT id, deal, status, coalesce(final_score, score) - score_before, coalesce(time_left, 0) - time_before,
           moves_before, moves, started_at, ended_at
      FROM entries WHERE id = ANY($1::bigint[])"""

_NEXT = """
    UPDATE entries e SET deal = e.deal + 1, status = 'playing', score_before = coalesce(e.final_score, e.score),
           time_before = coalesce(e.time_left, 0), moves_before = e.moves, score = coalesce(e.final_score, e.score),
           reveals = 0, sequences = 0, final_score = NULL, time_left = NULL, ended_at = NULL,
           started_at = {started}, deadline = {deadline}
      FROM tournaments t
     WHERE e.id = ANY($1::bigint[]) AND t.id = e.tournament_id
 RETURNING e.id, e.tournament_id, e.ordinal, e.player_id, e.status, e.score, e.final_score, e.time_left"""


async def _advance(conn: Connection, ids: list[int], started: str, deadline: str) -> list[asyncpg.Record]:
    if not ids:
        return []
    await conn.execute(_ARCHIVE, ids)
    return await conn.fetch(
        f"""WITH u AS ({_NEXT.format(started=started, deadline=deadline)})
            SELECT u.*, p.name AS player FROM u JOIN players p ON p.id = u.player_id""",
        ids,
    )


async def next_own(db: asyncpg.Pool, entry_id: int) -> asyncpg.Record | None:
    """``start: own``: start the entry's next deal now, its last one over and the tournament open.
    None when it cannot (no deal left, the game still running, the tournament not open)."""
    async with db.acquire() as conn, conn.transaction():
        ids = await conn.fetch(
            f"""SELECT e.id FROM entries e JOIN tournaments t ON t.id = e.tournament_id
                 WHERE e.id = $1 AND e.status IN {OVER} AND e.disqualified IS NULL AND e.deal < {DEALS_SQL}
                   AND t.start = 'own' AND t.finished_at IS NULL AND now() >= t.opens_at AND now() < t.closes_at
                   FOR UPDATE OF e""",
            entry_id,
        )
        rows = await _advance(conn, [r["id"] for r in ids], "now()", f"now() + make_interval(secs => {TIME_LIMIT_SQL})")
    return rows[0] if rows else None


async def next_together(db: asyncpg.Pool, tournament_id: int | None = None) -> list[asyncpg.Record]:
    """``start: together``: deal k starts for everyone at ``opens_at + (k - 1) x time_limit`` and ends
    one time limit later. Starts the next deal of every entry whose deal is over and whose next
    round has come (of every tournament, or of one). Safe in any number of processes at once.

    The tournaments first (a few, by an index), then their entries: the clock asks several times a
    second, and one statement over both was planned as a read of every entry of every tournament."""
    async with db.acquire() as conn:
        due = await conn.fetch(
            """SELECT id FROM tournaments
                WHERE start = 'together' AND finished_at IS NULL AND opens_at <= now() AND settings ? 'deals'
                  AND ($1::bigint IS NULL OR id = $1)""",
            tournament_id,
        )
        if not due:
            return []
        async with conn.transaction():
            return await _next_together(conn, [r["id"] for r in due])


async def _next_together(conn: Connection, tournament_ids: list[int]) -> list[asyncpg.Record]:
    ids = await conn.fetch(
        f"""SELECT e.id FROM entries e JOIN tournaments t ON t.id = e.tournament_id
             WHERE t.id = ANY($1::bigint[]) AND e.tournament_id = ANY($1::bigint[])
               AND t.start = 'together' AND t.finished_at IS NULL AND t.settings ? 'deals'
               AND e.status IN {OVER} AND e.disqualified IS NULL AND e.deal < {DEALS_SQL}
               AND t.opens_at + make_interval(secs => e.deal * {TIME_LIMIT_SQL}) <= now()
               FOR UPDATE OF e SKIP LOCKED""",
        tournament_ids,
    )
    return await _advance(
        conn,
        [r["id"] for r in ids],
        f"t.opens_at + make_interval(secs => e.deal * {TIME_LIMIT_SQL})",
        f"t.opens_at + make_interval(secs => (e.deal + 1) * {TIME_LIMIT_SQL})",
    )


async def deal_results(conn: Connection, tournament_id: int) -> list[asyncpg.Record]:
    """Every ranked entry's result on every deal it started: entry_id, deal, status, final_score,
    time_left, first_move, last_move (the deal an entry plays now or last played comes from its row).
    Practice entries are left out: they rank nowhere."""
    return await conn.fetch(
        """SELECT d.entry_id, d.deal, d.status, d.final_score, d.time_left, d.first_move, d.last_move
             FROM entry_deals d JOIN entries e ON e.id = d.entry_id WHERE e.tournament_id = $1 AND NOT e.practice
           UNION ALL
           SELECT e.id, e.deal, e.status, coalesce(e.final_score, e.score) - e.score_before,
                  coalesce(e.time_left, 0) - e.time_before, e.moves_before, e.moves
             FROM entries e WHERE e.tournament_id = $1 AND e.started_at IS NOT NULL AND NOT e.practice
           ORDER BY 1, 2""",
        tournament_id,
    )
