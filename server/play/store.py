"""The SQL of play: an entry's game as committed, its one writer, its start and its moves."""

from __future__ import annotations

import time
from typing import NamedTuple

import asyncpg

from ..storage.pool import WHOLE_TOURNAMENT_TIMEOUT, Connection, Db

# A record's tournament is a match's or a bracket's game (``u.tournament_id``): its entries are on no
# leaderboard (hidden until over, then its standings are PostgreSQL's).
HIDDEN = "(SELECT t.kind <> 'tournament' FROM tournaments t WHERE t.id = u.tournament_id) AS hidden"

# An entry with what its game needs of its player and tournament (and its match, a match's seat;
# ``hidden``: a match's or a bracket's game, on no board). A practice entry (played after the finish)
# starts when its player says, whatever the tournament did. A bracket's own entries (joining it) are
# no game: none is found for them.
PLAY_SQL = """
    SELECT e.id, e.tournament_id, e.player_id, p.name AS player, e.ordinal, e.status, e.score, e.final_score,
           e.time_left, e.started_at, e.deadline, e.moves, e.last_seq, e.epoch, e.practice,
           e.deal, e.score_before, e.time_before, e.moves_before,
           t.settings, t.seed, CASE WHEN e.practice THEN 'own' ELSE t.start END AS start, t.opens_at,
           e.team_id, (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name,
           (SELECT m.id FROM matches m WHERE m.tournament_id = t.id) AS match_id, t.kind <> 'tournament' AS hidden
      FROM entries e JOIN players p ON p.id = e.player_id
      JOIN tournaments t ON t.id = e.tournament_id AND t.kind <> 'bracket'"""


async def entry(db: Db, entry_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"{PLAY_SQL} WHERE e.id = $1", entry_id)


async def start(db: asyncpg.Pool, entry_id: int, time_limit: int) -> asyncpg.Record | None:
    """Start the clock of a joined entry while its tournament is open (a practice entry: once it is
    finished, not cancelled; a match's seat: before its ``start_by``). None if it cannot start."""
    return await db.fetchrow(
        """UPDATE entries e SET status = 'playing', started_at = now(),
                  deadline = now() + make_interval(secs => $2), start_by = NULL
             FROM tournaments t
            WHERE e.id = $1 AND e.status = 'joined' AND t.id = e.tournament_id
              AND (e.start_by IS NULL OR now() < e.start_by)
              AND CASE WHEN e.practice THEN t.finished_at IS NOT NULL AND t.cancelled_at IS NULL
                       ELSE t.start = 'own' AND t.finished_at IS NULL AND now() >= t.opens_at AND now() < t.closes_at
                  END
        RETURNING e.started_at, e.deadline""",
        entry_id,
        float(time_limit),
    )


async def start_together(db: asyncpg.Pool, tournament_id: int | None = None) -> list[asyncpg.Record]:
    """Start every waiting entry of every tournament that starts together and whose opening time
    has come (or of one tournament), all at their tournament's opening time.

    One statement: any number of server processes may run it at once, and each entry is started
    exactly once (a row another process has just started no longer matches ``status = 'joined'``).
    A bracket starts nothing itself: its games are tournaments of their own (``hidden``: on no board).
    An entry whose join committed a moment after the start is started by the next run, on the
    same clock: ``started_at = opens_at``, ``deadline = closes_at`` (with several deals, deal 1 ends
    one time limit after the opening: server/play/deals.py starts the next ones).
    """
    return await db.fetch(
        f"""WITH t AS MATERIALIZED (  -- the together tournaments due, read once: few, among many others
               SELECT id, opens_at, closes_at, settings FROM tournaments
                WHERE start = 'together' AND finished_at IS NULL AND opens_at <= now() AND kind <> 'bracket'
                  AND ($1::bigint IS NULL OR id = $1)
           ), u AS (
               UPDATE entries e SET status = 'playing', started_at = t.opens_at,
                      deadline = least(t.closes_at,
                                       t.opens_at + make_interval(secs => (t.settings->>'time_limit')::float8))
                 FROM t
                WHERE t.id = e.tournament_id AND e.status = 'joined' AND NOT e.practice
            RETURNING e.id, e.tournament_id, e.ordinal, e.player_id, e.status, e.score, e.final_score, e.time_left,
                      e.team_id)
           SELECT u.*, p.name AS player, (SELECT c.name FROM clubs c WHERE c.id = u.team_id) AS team_name,
                  {HIDDEN}
             FROM u JOIN players p ON p.id = u.player_id""",
        tournament_id,
    )


async def claim(db: asyncpg.Pool, entry_id: int, address_hash: bytes | None = None) -> int:
    """Become the entry's one writer: a new epoch that every later move must carry."""
    epoch: int = await db.fetchval(
        """UPDATE entries SET epoch = epoch + 1, play_address_hash = coalesce($2, play_address_hash)
            WHERE id = $1 RETURNING epoch""",
        entry_id,
        address_hash,
    )
    return epoch


async def stop_reason(db: Db, entry_id: int) -> tuple[bool, str | None] | None:
    """(tournament cancelled, disqualification reason) of an entry; None if there is no such entry."""
    row = await db.fetchrow(
        """SELECT t.cancelled_at IS NOT NULL AS cancelled, e.disqualified
             FROM entries e JOIN tournaments t ON t.id = e.tournament_id WHERE e.id = $1""",
        entry_id,
    )
    return None if row is None else (row["cancelled"], row["disqualified"])


# One deal's results of a tournament's ranked entries (their earlier deals', then the one each plays
# or last played): what a practice game of that deal is set against.
_DEAL_RESULTS = """
    SELECT d.entry_id, d.final_score, d.time_left
      FROM entry_deals d JOIN entries e ON e.id = d.entry_id WHERE e.tournament_id = $1 AND d.deal = $4
    UNION ALL
    SELECT e.id, coalesce(e.final_score, e.score) - e.score_before, coalesce(e.time_left, 0) - e.time_before
      FROM entries e WHERE e.tournament_id = $1 AND e.deal = $4 AND e.started_at IS NOT NULL AND NOT e.practice"""

_PAR = """(SELECT jsonb_build_object('outcome', pr.outcome, 'final_score', pr.final_score,
                                 'moves', jsonb_array_length(pr.moves), 'pace', pr.pace, 'in_time', pr.in_time)
             FROM pars pr WHERE pr.tournament_id = $1)"""


async def practice_over(
    db: Db, tournament_id: int, final_score: int, time_left: int, deal: int | None = None
) -> asyncpg.Record:
    """Where a practice game's final score would have ranked in the tournament's stored standings
    (``ahead``: the ranked entries it would not pass, the earlier entries winning ties; ``ranked``: how
    many there are), and the tournament's par (null when there is none). Once, when the game is over.

    With several deals (``deal``: the deal practised), among the ranked entries' results on that deal
    (0 for an entry that never played it), and the par only on deal 1 (the par is deal 1's)."""
    if deal is None:
        row = await db.fetchrow(
            f"""SELECT count(*) AS ranked,
                       count(*) FILTER (WHERE s.final_score > $2 OR (s.final_score = $2 AND s.time_left >= $3))
                           AS ahead,
                       {_PAR} AS par
                  FROM standings s WHERE s.tournament_id = $1""",
            tournament_id,
            final_score,
            time_left,
        )
    else:
        row = await db.fetchrow(
            f"""WITH d AS ({_DEAL_RESULTS}),
                     r AS (SELECT coalesce(d.final_score, 0) AS score, coalesce(d.time_left, 0) AS time_left
                             FROM standings s LEFT JOIN d ON d.entry_id = s.entry_id WHERE s.tournament_id = $1)
                SELECT count(*) AS ranked,
                       count(*) FILTER (WHERE r.score > $2 OR (r.score = $2 AND r.time_left >= $3)) AS ahead,
                       CASE WHEN $4 = 1 THEN {_PAR} END AS par
                  FROM r""",
            tournament_id,
            final_score,
            time_left,
            deal,
        )
    assert row is not None  # an aggregate: always one row
    return row


async def moves(db: Db, entry_id: int, after: int = 0) -> list[asyncpg.Record]:
    """The entry's moves numbered past ``after`` (with several deals: the moves of its current deal)."""
    return await db.fetch(
        "SELECT n, seq, move, t FROM moves WHERE entry_id = $1 AND n > $2 ORDER BY n", entry_id, after
    )


class MoveRecord(NamedTuple):
    """One accepted move and the entry's state after it: a row of the ``move_row`` type (schema/025), field by
    field, in its order."""

    entry_id: int
    epoch: int
    n: int
    seq: int
    move: str  # the rules' JSON form, encoded
    t: float
    score: int
    reveals: int
    sequences: int
    status: str
    final_score: int | None
    time_left: int | None


RECORD_SQL = """WITH i AS (SELECT * FROM unnest($1::move_row[])),
           u AS (
               UPDATE entries e SET moves = i.n, last_seq = i.seq, score = i.score, reveals = i.reveals,
                      sequences = i.sequences, status = i.status, final_score = i.final_score,
                      time_left = i.time_left, ended_at = CASE WHEN i.status = 'playing' THEN NULL ELSE now() END
                 FROM i
                WHERE e.id = i.entry_id AND e.epoch = i.epoch AND e.moves = i.n - 1 AND e.status = 'playing'
            RETURNING e.id)
           INSERT INTO moves (entry_id, n, seq, move, t)
           SELECT i.entry_id, i.n, i.seq, i.move::jsonb, i.t FROM i JOIN u ON u.id = i.entry_id
           RETURNING entry_id"""


async def record_moves(db: asyncpg.Pool, records: list[MoveRecord], timeout: float | None = None) -> list[bool]:
    """Commit many games' moves and their entries' new scores in one statement (one transaction).

    A move is written only if its connection still holds the entry (epoch), the entry is still
    playing and the move is the next one; each answer says whether it was. A batch never holds
    two moves of one entry (a connection waits for each answer before its next move).

    The wait for a connection and the statement share ``timeout`` (``DB_TIMEOUT``; None: each has
    the pool's own): a stalled database fails the commit (TimeoutError) within it, whichever part of
    it was stalled.
    """
    began = time.monotonic()
    async with db.acquire(timeout=timeout) as conn:
        left = None if timeout is None else max(timeout - (time.monotonic() - began), 0.001)
        written = await conn.fetch(RECORD_SQL, records, timeout=left)  # rows of ``move_row``
    done = {r["entry_id"] for r in written}
    return [r.entry_id in done for r in records]


async def time_out(db: asyncpg.Pool, entry_id: int | None = None) -> list[asyncpg.Record]:
    """End by time every playing game past its deadline (or just one). Final score = score (TR = 0);
    with several deals, the time left of the earlier deals stays counted."""
    return await db.fetch(
        f"""WITH u AS (
               UPDATE entries SET status = 'timed_out', final_score = score, time_left = time_before,
                      ended_at = deadline
                WHERE status = 'playing' AND deadline <= now() AND ($1::bigint IS NULL OR id = $1)
            RETURNING id, tournament_id, ordinal, player_id, status, score, final_score, time_left, team_id, practice)
           SELECT u.*, p.name AS player, (SELECT c.name FROM clubs c WHERE c.id = u.team_id) AS team_name,
                  {HIDDEN}
             FROM u JOIN players p ON p.id = u.player_id""",
        entry_id,
    )


async def absent(conn: Connection, where: str, value: int) -> list[asyncpg.Record]:
    """Mark absent the entries that never started (every one of a tournament at its finish: a
    longer timeout than a move's)."""
    return await conn.fetch(
        f"""WITH u AS (
                UPDATE entries SET status = 'absent', final_score = 0, time_left = 0, ended_at = now()
                 WHERE {where} AND status = 'joined'
             RETURNING id, tournament_id, ordinal, player_id, status, score, final_score, time_left, team_id)
            SELECT u.*, p.name AS player, (SELECT c.name FROM clubs c WHERE c.id = u.team_id) AS team_name,
                   {HIDDEN}
              FROM u JOIN players p ON p.id = u.player_id""",
        value,
        timeout=WHOLE_TOURNAMENT_TIMEOUT,
    )


async def mark_absent(db: asyncpg.Pool, entry_id: int) -> list[asyncpg.Record]:
    async with db.acquire() as conn:
        return await absent(conn, "id = $1", entry_id)
