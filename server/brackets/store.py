"""The SQL of brackets: the bracket's own row beside its tournament, reading one (with its pairings)
and a page of them, and the organiser's marks (cancel, the player's current pairing).

A bracket is a tournament of ``kind = 'bracket'`` (schema/019_brackets.sql): its settings, seed,
salt, commitment, club, code, listing, series and entries (who joined) are that tournament's; its
pairings' games are tournaments of ``kind = 'bracket_game'`` (server/brackets/rounds.py)."""

from __future__ import annotations

import asyncpg

from ..storage.pool import Db
from ..tournaments.store import TOURNAMENT_SQL

# The bracket's status: its tournament's marks, then whether it is seeded.
STATUS_SQL = """CASE WHEN x.cancelled_at IS NOT NULL THEN 'cancelled'
                     WHEN x.finished_at IS NOT NULL THEN 'finished'
                     WHEN b.seeded_at IS NOT NULL THEN 'running'
                     ELSE 'scheduled' END"""

# A bracket (its tournament's columns as the tournaments read them, ``x``) with its own (``b``).
BRACKET_SQL = f"""
    SELECT x.*, {STATUS_SQL} AS bracket_status, b.break_seconds, b.rated AS pairings_rated, b.size,
           b.rounds AS round_count, b.seeded_at, b.champion_id,
           (SELECT p.name FROM players p WHERE p.id = b.champion_id) AS champion
      FROM ({TOURNAMENT_SQL} WHERE t.kind = 'bracket' {{where}}) x JOIN brackets b ON b.id = x.id"""

# The pairings of a bracket, each side with its player's name and its game's entry.
PAIRINGS_SQL = """
    SELECT bp.round, bp.slot, bp.starts_at, bp.tournament_id, bp.winner_player_id, bp.decided,
           bp.player1_id, bp.seed1, bp.entry1_id, p1.name AS player1,
           e1.final_score AS final_score1, e1.time_left AS time_left1, e1.status AS status1,
           bp.player2_id, bp.seed2, bp.entry2_id, p2.name AS player2,
           e2.final_score AS final_score2, e2.time_left AS time_left2, e2.status AS status2
      FROM bracket_pairings bp
      LEFT JOIN players p1 ON p1.id = bp.player1_id LEFT JOIN entries e1 ON e1.id = bp.entry1_id
      LEFT JOIN players p2 ON p2.id = bp.player2_id LEFT JOIN entries e2 ON e2.id = bp.entry2_id
     WHERE bp.bracket_id = $1
     ORDER BY bp.round, bp.slot"""


async def create(db: Db, bracket_id: int, break_seconds: int, rated: bool) -> None:
    """The bracket's own row, beside its tournament just made."""
    await db.execute(
        "INSERT INTO brackets (id, break_seconds, rated) VALUES ($1, $2, $3)", bracket_id, break_seconds, rated
    )


async def bracket(db: Db, bracket_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(BRACKET_SQL.format(where="AND t.id = $1"), bracket_id)


async def brackets(
    db: Db, limit: int, offset: int, seen: tuple[bool, int | None, list[int]] = (False, None, [])
) -> list[asyncpg.Record]:
    """A page of brackets, newest first: the listed ones, and those ``seen`` (every one, an
    organiser's own, clubs' ones) sees as the tournaments' list does."""
    visible = "AND (t.listed OR $3::boolean OR t.organiser_id = $4::bigint OR t.club_id = ANY($5::bigint[]))"
    return await db.fetch(
        f"{BRACKET_SQL.format(where=visible)} ORDER BY x.opens_at DESC, x.id DESC LIMIT $1 OFFSET $2",
        limit,
        offset,
        *seen,
    )


async def pairings(db: Db, bracket_id: int) -> list[asyncpg.Record]:
    return await db.fetch(PAIRINGS_SQL, bracket_id)


async def games(db: Db, bracket_id: int) -> list[asyncpg.Record]:
    """The bracket's games (their tournaments' ids) with their rounds, in order, and whether each is over."""
    return await db.fetch(
        """SELECT bp.round, bp.slot, bp.tournament_id, t.finished_at IS NOT NULL AS over
             FROM bracket_pairings bp JOIN tournaments t ON t.id = bp.tournament_id
            WHERE bp.bracket_id = $1 ORDER BY bp.round, bp.slot""",
        bracket_id,
    )


async def settle(db: asyncpg.Pool, bracket_id: int) -> bool:
    """Mark the bracket done (before its cancel), under its row's lock: the clock does nothing more
    with it. False when it was done already."""
    done = await db.fetchval(
        "UPDATE brackets SET done_at = now() WHERE id = $1 AND done_at IS NULL RETURNING id", bracket_id
    )
    return done is not None


async def edit_break(db: Db, bracket_id: int, break_seconds: int) -> None:
    await db.execute("UPDATE brackets SET break_seconds = $2 WHERE id = $1", bracket_id, break_seconds)


async def registration(db: Db, bracket_id: int, player_id: int) -> asyncpg.Record | None:
    """The player's entry of the bracket (who joined), disqualified or not."""
    return await db.fetchrow(
        """SELECT id, disqualified FROM entries WHERE tournament_id = $1 AND player_id = $2 AND NOT practice""",
        bracket_id,
        player_id,
    )


async def current_game(db: Db, bracket_id: int, player_id: int) -> asyncpg.Record | None:
    """The player's pairing not decided yet that has a game: its tournament and the player's entry."""
    return await db.fetchrow(
        """SELECT bp.tournament_id,
                  CASE WHEN bp.player1_id = $2 THEN bp.entry1_id ELSE bp.entry2_id END AS entry_id
             FROM bracket_pairings bp
            WHERE bp.bracket_id = $1 AND NOT bp.decided AND bp.tournament_id IS NOT NULL
              AND $2 IN (bp.player1_id, bp.player2_id)""",
        bracket_id,
        player_id,
    )
