"""A bracket's rounds, as the bracket clock plays them out from what PostgreSQL holds: the seeding at
``opens_at``, each pairing's game (a tournament of ``kind = 'bracket_game'`` started together by the
tournaments' clock), the early close of a game once both are over, the winners, the next round
``break_seconds`` after the last game of a round is over, and the finish (the champion, the
bracket's standings).

Every step runs in one transaction under the bracket's row lock (``FOR UPDATE SKIP LOCKED``), after
checking again what it is to do: any number of processes run it, a bracket is seeded and a round
opened once, and the unique (bracket, round, slot) backs that up."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg

from ..competitions.ratings import game_of
from ..fairplay.commitment import commitment
from ..matches.store import ORDINAL_SQL
from ..play import store as play_store
from ..storage.pool import Connection
from . import seeding
from .seeding import Result, Side

# A game closes at the latest this long after its deadline; the bracket clock closes it as soon as
# both its games are over (its absent players marked first), the tournaments' clock then finishes it.
CLOSE_MARGIN_SECONDS = 30

# The bracket's row and what its rounds need of its tournament, locked for one step.
LOCK_SQL = """
    SELECT b.id, b.break_seconds, b.rated, b.size, b.rounds, b.seeded_at, t.name, t.settings, t.seed, t.salt,
           t.opens_at
      FROM brackets b JOIN tournaments t ON t.id = b.id
     WHERE b.id = $1 AND b.done_at IS NULL
       FOR UPDATE OF b SKIP LOCKED"""


@dataclass(frozen=True)
class Step:
    """What one step did to a bracket: ``seeded``, ``cancelled`` (too few entrants), ``round`` (a
    round opened: its number), ``finished``."""

    bracket_id: int
    what: str
    round: int | None = None


# ----------------------------------------------------------------------------- seeding


async def seed_due(db: asyncpg.Pool) -> list[Step]:
    """Seed every bracket whose ``opens_at`` has come (or cancel it with fewer than two entrants)."""
    due = await db.fetch(
        """SELECT b.id FROM brackets b JOIN tournaments t ON t.id = b.id
            WHERE b.done_at IS NULL AND b.seeded_at IS NULL AND t.opens_at <= now() ORDER BY b.id"""
    )
    steps = []
    for row in due:
        async with db.acquire() as conn, conn.transaction():
            bracket = await conn.fetchrow(LOCK_SQL, row["id"])
            if bracket is None or bracket["seeded_at"] is not None:
                continue  # another process has it, or had it
            steps.append(await _seed(conn, bracket))
    return steps


async def _seed(conn: Connection, bracket: asyncpg.Record) -> Step:
    bracket_id = bracket["id"]
    # A join committing at the opening holds the tournament's row: waited for, then counted.
    await conn.execute("SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE", bracket_id)
    entrants = await conn.fetch(
        f"""SELECT e.player_id, {ORDINAL_SQL.format(player="e.player_id", game="$2")} AS rating
              FROM entries e
             WHERE e.tournament_id = $1 AND NOT e.practice AND e.disqualified IS NULL
             ORDER BY rating DESC, e.created_at, e.id""",
        bracket_id,
        game_of(bracket["settings"]),
    )
    if len(entrants) < 2:
        await conn.execute("UPDATE tournaments SET cancelled_at = now(), finished_at = now() WHERE id = $1", bracket_id)
        await conn.execute("UPDATE brackets SET done_at = now() WHERE id = $1", bracket_id)
        await play_store.absent(conn, "tournament_id = $1", bracket_id)
        return Step(bracket_id, "cancelled")
    size = seeding.size_for(len(entrants))
    await conn.execute(
        "UPDATE brackets SET size = $2, rounds = $3, seeded_at = now() WHERE id = $1",
        bracket_id,
        size,
        seeding.rounds_for(size),
    )
    starts_at = await conn.fetchval("SELECT greatest(now(), $1::timestamptz)", bracket["opens_at"])
    for pairing in seeding.first_round([r["player_id"] for r in entrants]):
        await _open_pairing(conn, bracket, 1, pairing.slot, pairing.first, pairing.second, starts_at)
    return Step(bracket_id, "seeded", 1)


# ----------------------------------------------------------------------------- a pairing's game


async def _open_pairing(
    conn: Connection,
    bracket: asyncpg.Record,
    round_: int,
    slot: int,
    first: Side | None,
    second: Side | None,
    starts_at: datetime,
) -> None:
    """The pairing's row and, with two players, its game: a tournament of its own on the deal of
    ``<seed>/<round>``, started together at ``starts_at``, its two entries made here (the higher seed
    first). The game has no organiser or club of its own: no club's list or export shows it; the
    bracket's routes manage it. A bye (one player) wins at once; a pairing of nobody (both sides
    out) is decided empty."""
    if first is None or second is None:
        alone = first or second
        await conn.execute(
            """INSERT INTO bracket_pairings (bracket_id, round, slot, starts_at, player1_id, seed1, winner_player_id,
                                             decided)
               VALUES ($1, $2, $3, $4, $5, $6, $5, true)""",
            bracket["id"],
            round_,
            slot,
            starts_at,
            None if alone is None else alone.player_id,
            None if alone is None else alone.seed,
        )
        return
    settings = bracket["settings"]
    seed = f"{bracket['seed']}/{round_}"
    game_id = await conn.fetchval(
        """INSERT INTO tournaments (name, settings, seed, salt, commitment, opens_at, closes_at, start, listed, rated,
                                    kind, parent_id, entry_count)
           VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $6::timestamptz + make_interval(secs => $7), 'together',
                   false, $8, 'bracket_game', $9, 2)
           RETURNING id""",
        f"{bracket['name']}: round {round_}, pairing {slot}",
        settings,
        seed,
        bracket["salt"],
        commitment(seed, settings, bracket["salt"]),
        starts_at,
        float(settings["time_limit"] + CLOSE_MARGIN_SECONDS),
        bracket["rated"],
        bracket["id"],
    )
    entries = await conn.fetch(
        """INSERT INTO entries (tournament_id, player_id, ordinal)
           SELECT $1, p.player_id, p.ordinal FROM unnest($2::bigint[]) WITH ORDINALITY AS p(player_id, ordinal)
           RETURNING id, player_id""",
        game_id,
        [first.player_id, second.player_id],
    )
    entry_of = {r["player_id"]: r["id"] for r in entries}
    await conn.execute(
        """INSERT INTO bracket_pairings (bracket_id, round, slot, starts_at, player1_id, seed1, entry1_id,
                                         player2_id, seed2, entry2_id, tournament_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)""",
        bracket["id"],
        round_,
        slot,
        starts_at,
        first.player_id,
        first.seed,
        entry_of[first.player_id],
        second.player_id,
        second.seed,
        entry_of[second.player_id],
        game_id,
    )


async def close_games(db: asyncpg.Pool) -> list[int]:
    """Brackets' games whose both entries are over close now, their players who never moved marked
    absent (0, no time left: they lose to anyone who played, and are not rated); the tournaments' clock
    then finishes them (standings, ratings). Returns the games closed."""
    async with db.acquire() as conn, conn.transaction():
        done = await conn.fetch(
            """SELECT t.id FROM tournaments t
                WHERE t.kind = 'bracket_game' AND t.finished_at IS NULL AND t.closes_at > now()
                  AND t.opens_at <= now()
                  AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.tournament_id = t.id AND NOT e.practice
                                     AND e.status IN ('joined', 'playing'))
                  FOR UPDATE OF t SKIP LOCKED"""
        )
        ids = [r["id"] for r in done]
        if not ids:
            return []
        await conn.execute(
            """UPDATE entries SET status = 'absent', final_score = 0, time_left = 0
                WHERE tournament_id = ANY($1::bigint[]) AND status = 'timed_out' AND moves = 0 AND NOT practice""",
            ids,
        )
        await conn.execute(
            """UPDATE tournaments SET closes_at = greatest(now(), opens_at + interval '1 microsecond')
                WHERE id = ANY($1::bigint[])""",
            ids,
        )
        return ids


# ----------------------------------------------------------------------------- winners, rounds, the finish


async def advance_due(db: asyncpg.Pool) -> list[Step]:
    """Decide the pairings whose games are finished; open the next round of every bracket whose round is
    all decided, or finish it after its final."""
    due = await db.fetch(
        """SELECT b.id FROM brackets b
            WHERE b.done_at IS NULL AND b.seeded_at IS NOT NULL
              AND (EXISTS (SELECT 1 FROM bracket_pairings bp JOIN tournaments g ON g.id = bp.tournament_id
                            WHERE bp.bracket_id = b.id AND NOT bp.decided AND g.finished_at IS NOT NULL)
                   OR NOT EXISTS (SELECT 1 FROM bracket_pairings bp WHERE bp.bracket_id = b.id AND NOT bp.decided))
            ORDER BY b.id"""
    )
    steps = []
    for row in due:
        async with db.acquire() as conn, conn.transaction():
            bracket = await conn.fetchrow(LOCK_SQL, row["id"])
            if bracket is None or bracket["seeded_at"] is None:
                continue
            step = await _advance(conn, bracket)
            if step is not None:
                steps.append(step)
    return steps


async def _advance(conn: Connection, bracket: asyncpg.Record) -> Step | None:
    bracket_id = bracket["id"]
    await _decide(conn, bracket_id)
    current = await conn.fetch(
        """SELECT bp.slot, bp.decided, bp.winner_player_id,
                  CASE WHEN bp.winner_player_id = bp.player1_id THEN bp.seed1 ELSE bp.seed2 END AS winner_seed,
                  (SELECT e.disqualified IS NOT NULL FROM entries e
                    WHERE e.tournament_id = bp.bracket_id AND e.player_id = bp.winner_player_id AND NOT e.practice)
                      AS winner_out
             FROM bracket_pairings bp
            WHERE bp.bracket_id = $1 AND bp.round = (SELECT max(round) FROM bracket_pairings WHERE bracket_id = $1)
            ORDER BY bp.slot""",
        bracket_id,
    )
    if not current or not all(r["decided"] for r in current):
        return None
    round_ = await conn.fetchval("SELECT max(round) FROM bracket_pairings WHERE bracket_id = $1", bracket_id)
    if round_ >= bracket["rounds"]:
        await _finish(conn, bracket, current[0]["winner_player_id"])
        return Step(bracket_id, "finished")
    sides = [
        None if r["winner_player_id"] is None or r["winner_out"] else Side(r["winner_player_id"], r["winner_seed"])
        for r in current
    ]
    starts_at = await conn.fetchval(
        """SELECT greatest(now(), max(e.ended_at) + make_interval(secs => $3))
             FROM bracket_pairings bp JOIN entries e ON e.tournament_id = bp.tournament_id
            WHERE bp.bracket_id = $1 AND bp.round = $2""",
        bracket_id,
        round_,
        float(bracket["break_seconds"]),
    )  # greatest() passes over a null: now, when no game of the round was played
    for k in range(len(sides) // 2):
        a, b = sides[2 * k], sides[2 * k + 1]
        pair = sorted((s for s in (a, b) if s is not None), key=lambda s: s.seed)
        first = pair[0] if pair else None
        second = pair[1] if len(pair) > 1 else None
        await _open_pairing(conn, bracket, round_ + 1, k + 1, first, second, starts_at)
    return Step(bracket_id, "round", round_ + 1)


async def _decide(conn: Connection, bracket_id: int) -> None:
    """The winners of the pairings whose games are finished (a cancelled game decides nothing here:
    the bracket is cancelled with it)."""
    rows = await conn.fetch(
        """SELECT bp.round, bp.slot, bp.player1_id, bp.seed1, bp.player2_id, bp.seed2,
                  e1.status AS status1, e1.moves AS moves1, e1.final_score AS final_score1, e1.time_left AS time_left1,
                  e1.disqualified IS NOT NULL OR r1.disqualified IS NOT NULL AS out1,
                  e2.status AS status2, e2.moves AS moves2, e2.final_score AS final_score2, e2.time_left AS time_left2,
                  e2.disqualified IS NOT NULL OR r2.disqualified IS NOT NULL AS out2
             FROM bracket_pairings bp JOIN tournaments g ON g.id = bp.tournament_id
             JOIN entries e1 ON e1.id = bp.entry1_id JOIN entries e2 ON e2.id = bp.entry2_id
             LEFT JOIN entries r1 ON r1.tournament_id = bp.bracket_id AND r1.player_id = bp.player1_id
                                 AND NOT r1.practice
             LEFT JOIN entries r2 ON r2.tournament_id = bp.bracket_id AND r2.player_id = bp.player2_id
                                 AND NOT r2.practice
            WHERE bp.bracket_id = $1 AND NOT bp.decided AND g.finished_at IS NOT NULL""",
        bracket_id,
    )
    for r in rows:
        won = seeding.winner([_result(r, "1"), _result(r, "2")])
        await conn.execute(
            """UPDATE bracket_pairings SET winner_player_id = $4, decided = true
                WHERE bracket_id = $1 AND round = $2 AND slot = $3""",
            bracket_id,
            r["round"],
            r["slot"],
            won,
        )


def _result(row: asyncpg.Record, side: str) -> Result:
    played = row[f"status{side}"] not in ("joined", "absent") and row[f"moves{side}"] > 0
    return Result(
        player_id=row[f"player{side}_id"],
        seed=row[f"seed{side}"],
        final_score=row[f"final_score{side}"] if played else None,
        time_left=row[f"time_left{side}"] if played else None,
        disqualified=row[f"out{side}"],
    )


async def _finish(conn: Connection, bracket: asyncpg.Record, champion: int | None) -> None:
    """The champion, and the bracket's standings: the champion 1st, the finalist 2nd, the losers of
    each earlier round sharing the next places; a disqualified player is left out (as a tournament's
    standings leave it). Each with its last game's final score and time left."""
    bracket_id, rounds = bracket["id"], bracket["rounds"]
    rows = await conn.fetch(
        """SELECT e.id AS entry_id, e.player_id, p.name AS player,
                  (SELECT max(bp.round) FROM bracket_pairings bp
                    WHERE bp.bracket_id = $1 AND e.player_id IN (bp.player1_id, bp.player2_id)) AS last_round,
                  g.final_score, g.time_left, g.status
             FROM entries e JOIN players p ON p.id = e.player_id
             LEFT JOIN LATERAL (
                  SELECT ge.final_score, ge.time_left, ge.status
                    FROM bracket_pairings bp JOIN entries ge ON ge.tournament_id = bp.tournament_id
                   WHERE bp.bracket_id = $1 AND ge.player_id = e.player_id
                   ORDER BY bp.round DESC LIMIT 1) g ON true
            WHERE e.tournament_id = $1 AND NOT e.practice AND e.disqualified IS NULL""",
        bracket_id,
    )
    standings: list[tuple[Any, ...]] = []
    for r in rows:
        if r["last_round"] is None:  # joined, never seeded (a disqualification lifted is not a thing)
            continue
        place = 1 if r["player_id"] == champion else seeding.place_of_loser(r["last_round"], rounds)
        standings.append(
            (
                bracket_id,
                place,
                r["entry_id"],
                r["player_id"],
                r["player"],
                r["final_score"] or 0,
                r["time_left"] or 0,
                r["status"] or "won",
            )
        )
    await conn.execute("DELETE FROM standings WHERE tournament_id = $1", bracket_id)
    await conn.executemany(
        """INSERT INTO standings (tournament_id, rank, entry_id, player_id, player, final_score, time_left, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""",
        standings,
    )
    await conn.execute("UPDATE tournaments SET finished_at = clock_timestamp() WHERE id = $1", bracket_id)
    await conn.execute("UPDATE brackets SET champion_id = $2, done_at = now() WHERE id = $1", bracket_id, champion)
