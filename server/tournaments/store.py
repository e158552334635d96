"""The SQL of tournaments: creating, listing, changing, finishing and cancelling them, their
entries, standings, replays, pars and schedules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg

from ..competitions import ratings
from ..competitions.deals import store_matchpoint_standings
from ..play import store as play_store
from ..play.deals import scoring_of
from ..storage.claims import Claims
from ..storage.pool import WHOLE_TOURNAMENT_TIMEOUT, Connection, Db
from ..storage.sql import HIDDEN_SQL, RANK_ORDER, STATUS_SQL

TOURNAMENT_SQL = f"""
    SELECT t.id, t.name, t.settings, t.seed, t.salt, t.start, t.commitment, t.opens_at, t.closes_at, t.finished_at,
           t.cancelled_at, t.schedule_id, t.organiser_id, t.club_id, t.entry_code, t.listed, t.series_id, t.teams_top,
           t.rated, t.rating_min, t.rating_max,
           (SELECT o.name FROM organisers o WHERE o.id = t.organiser_id) AS organiser_name,
           (SELECT c.name FROM clubs c WHERE c.id = t.club_id) AS club_name,
           {STATUS_SQL} AS status,
           (SELECT count(*) FROM entries e
             WHERE e.tournament_id = t.id AND NOT e.practice AND e.disqualified IS NULL) AS entrants,
           (SELECT count(*) FROM entries e
             WHERE e.tournament_id = t.id AND NOT e.practice AND e.disqualified IS NOT NULL) AS disqualified,
           (SELECT jsonb_build_object('player', s.player, 'score', s.final_score, 'time_left', s.time_left)
              FROM standings s WHERE s.tournament_id = t.id AND s.rank = 1 AND t.finished_at IS NOT NULL) AS winner,
           t.certified,
           (SELECT jsonb_build_object('outcome', pr.outcome, 'final_score', pr.final_score,
                                      'moves', jsonb_array_length(pr.moves), 'pace', pr.pace,
                                      'in_time', pr.in_time)
              FROM pars pr WHERE pr.tournament_id = t.id) AS par
      FROM tournaments t"""

ENTRY_SQL = """
    SELECT e.id, e.tournament_id, e.player_id, p.name AS player, p.profile_public, e.status, e.score, e.reveals,
           e.sequences,
           e.final_score, e.time_left, e.started_at, e.deadline, e.created_at, e.moves, e.last_seq, e.epoch,
           e.ordinal, t.name AS tournament,
           e.team_id, (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name,
           CASE t.kind WHEN 'bracket' THEN t.id WHEN 'bracket_game' THEN t.parent_id END AS bracket_id,
           (SELECT bp.round FROM bracket_pairings bp WHERE bp.tournament_id = t.id) AS round
      FROM entries e JOIN players p ON p.id = e.player_id JOIN tournaments t ON t.id = e.tournament_id"""

MAX_ENTRANTS = (1 << 19) - 1


@dataclass(frozen=True)
class Access:
    """Who runs a tournament (None: the owner), who may see and join it, and whether it is rated."""

    organiser_id: int | None = None
    club_id: int | None = None
    entry_code: str | None = None
    listed: bool = True
    rated: bool = True
    rating_min: float | None = None  # ordinal limits of the players who may join (competitions.ratings)
    rating_max: float | None = None


async def create_tournament(
    db: asyncpg.Pool,
    name: str,
    settings: dict[str, Any],
    seed: str,
    salt: str,
    commitment: str,
    opens_at: datetime,
    closes_at: datetime,
    certified: bool = False,
    par: dict[str, Any] | None = None,
    schedule: tuple[int, datetime] | None = None,
    start: str = "own",
    access: Access | None = None,
    series_id: int | None = None,
    teams_top: int | None = None,
    kind: str = "tournament",
) -> int | None:
    """A new tournament (``kind``: a bracket's is ``bracket``); a certified one comes with the par its
    certification found, stored with it.

    None when its schedule already made the tournament of that occurrence.
    """
    schedule_id, occurrence = schedule or (None, None)
    access = access or Access()
    async with db.acquire() as conn, conn.transaction():
        # An occurrence already made inserts no row at all, so it draws no id from the sequence
        # (ON CONFLICT alone would draw one each time). Two processes at once: the unique key decides.
        tid = await conn.fetchval(
            """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at, certified,
                                        schedule_id, occurrence, salt, start, organiser_id, club_id, entry_code,
                                        listed, rated, rating_min, rating_max, series_id, teams_top, kind)
               SELECT $1::text, $2::jsonb, $3::text, $4::text, $5::timestamptz, $6::timestamptz, $7::boolean,
                      $8::bigint, $9::timestamptz, $10::text, $11::text, $12::bigint, $13::bigint, $14::text,
                      $15::boolean, $16::boolean, $17::float8, $18::float8, $19::bigint, $20::int, $21::text
                WHERE NOT EXISTS (SELECT 1 FROM tournaments WHERE schedule_id = $8 AND occurrence = $9)
               ON CONFLICT (schedule_id, occurrence) DO NOTHING RETURNING id""",
            name,
            settings,
            seed,
            commitment,
            opens_at,
            closes_at,
            certified,
            schedule_id,
            occurrence,
            salt,
            start,
            access.organiser_id,
            access.club_id,
            access.entry_code,
            access.listed,
            access.rated,
            access.rating_min,
            access.rating_max,
            series_id,
            teams_top,
            kind,
        )
        if tid is not None and par is not None:
            await save_par(conn, tid, par)
        return tid  # type: ignore[no-any-return]


async def save_par(db: Db, tournament_id: int, par: dict[str, Any], replace: bool = False) -> bool:
    """Store a tournament's par (``server.solving.solve_job``'s record). A second one is ignored,
    unless ``replace`` (a certified tournament's new deal)."""
    conflict = (
        """UPDATE SET outcome = excluded.outcome, moves = excluded.moves, final_score = excluded.final_score,
                      pace = excluded.pace, entry = excluded.entry, nodes = excluded.nodes,
                      seconds = excluded.seconds, in_time = excluded.in_time, computed_at = now()"""
        if replace
        else "NOTHING"
    )
    status = await db.execute(
        f"""INSERT INTO pars (tournament_id, outcome, moves, final_score, pace, entry, nodes, seconds, in_time)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (tournament_id) DO {conflict}""",
        tournament_id,
        par["outcome"],
        par["moves"],
        par["final_score"],
        par["pace"],
        par["entry"],
        par["nodes"],
        par["seconds"],
        par["in_time"],
    )
    return status.endswith(" 1")


async def par(db: asyncpg.Pool, tournament_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(
        "SELECT outcome, moves, final_score, pace, in_time, entry, nodes, seconds FROM pars WHERE tournament_id = $1",
        tournament_id,
    )


async def finished_without_par(db: asyncpg.Pool, limit: int = 5) -> list[asyncpg.Record]:
    """Finished tournaments whose par is still to work out, most recently finished first."""
    return await db.fetch(
        """SELECT t.id, t.settings, t.seed FROM tournaments t
            WHERE t.finished_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM pars pr WHERE pr.tournament_id = t.id)
              AND NOT EXISTS (SELECT 1 FROM par_claims c WHERE c.tournament_id = t.id AND c.expires_at > now())
            ORDER BY t.finished_at DESC LIMIT $1""",
        limit,
    )


PAR_CLAIMS = Claims("par_claims", "tournament_id", "pars")  # a par is worked out once, on a renewed lease


async def tournaments(
    db: asyncpg.Pool,
    status: str | None = None,
    limit: int = 100,
    offset: int = 0,
    seen: tuple[bool, int | None, list[int]] = (True, None, []),
) -> list[asyncpg.Record]:
    """A page of tournaments; ``seen``: (every one, an organiser's own, clubs' ones) besides the listed."""
    where = f"WHERE ({STATUS_SQL} = $1 OR $1::text IS NULL) AND t.kind = 'tournament'"  # matches: /api/matches
    visible = "(t.listed OR $4::boolean OR t.organiser_id = $5::bigint OR t.club_id = ANY($6::bigint[]))"
    return await db.fetch(
        f"{TOURNAMENT_SQL} {where} AND {visible} ORDER BY t.opens_at DESC, t.id DESC LIMIT $2 OFFSET $3",
        status,
        limit,
        offset,
        *seen,
    )


async def tournament(db: Db, tournament_id: int) -> asyncpg.Record | None:
    """The tournament; None for a match's before it is over (docs/matches.md: secret until then)."""
    return await db.fetchrow(f"{TOURNAMENT_SQL} WHERE t.id = $1 AND NOT {HIDDEN_SQL}", tournament_id)


class JoinRefused(Exception):
    """The entry was not made; the reason is for the player."""


async def join(
    db: asyncpg.Pool, tournament_id: int, player_id: int, address_hash: bytes | None = None, team_id: int | None = None
) -> int:
    """A new entry (playing for the club ``team_id`` in a team battle), or JoinRefused: the player
    has one already, the tournament is full, or entries are over (checked again here, under the
    tournament's row lock, so that no entry of a tournament that starts together slips in after
    its start)."""
    async with db.acquire() as conn, conn.transaction():
        if await conn.fetchval(
            "SELECT 1 FROM entries WHERE tournament_id = $1 AND player_id = $2 AND NOT practice",
            tournament_id,
            player_id,
        ):
            raise JoinRefused("you already have an entry in this tournament")
        row = await conn.fetchrow(
            """UPDATE tournaments t SET entry_count = entry_count + 1
                WHERE id = $1 AND entry_count < $2 AND finished_at IS NULL
                  AND CASE WHEN start = 'together' THEN now() < opens_at
                           ELSE now() >= opens_at AND now() < closes_at END
               RETURNING entry_count""",
            tournament_id,
            MAX_ENTRANTS,
        )
        if row is None:
            full = await conn.fetchval(
                "SELECT entry_count >= $2 FROM tournaments WHERE id = $1", tournament_id, MAX_ENTRANTS
            )
            raise JoinRefused("the tournament is full" if full else "entries are closed")
        entry_id = await conn.fetchval(
            """INSERT INTO entries (tournament_id, player_id, ordinal, address_hash, team_id)
               VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (tournament_id, player_id) WHERE NOT practice DO NOTHING RETURNING id""",
            tournament_id,
            player_id,
            row["entry_count"],
            address_hash,
            team_id,
        )
        if entry_id is None:
            raise JoinRefused("you already have an entry in this tournament")
        return entry_id  # type: ignore[no-any-return]


async def entry(db: Db, entry_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"{ENTRY_SQL} WHERE e.id = $1", entry_id)


async def entry_of(db: asyncpg.Pool, tournament_id: int, player_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(
        f"{ENTRY_SQL} WHERE e.tournament_id = $1 AND e.player_id = $2 AND NOT e.practice", tournament_id, player_id
    )


async def entries_of_player(db: asyncpg.Pool, player_id: int) -> list[asyncpg.Record]:
    return await db.fetch(f"{ENTRY_SQL} WHERE e.player_id = $1 AND NOT e.practice ORDER BY e.id DESC", player_id)


async def finish_due(db: asyncpg.Pool) -> list[tuple[int, list[asyncpg.Record]]]:
    """Finish every closed tournament with no game still running; store its standings and, when it
    is rated, update the ratings of its game (competitions.ratings), all in one transaction.

    Finishes are stamped under the ratings' lock, each at its own clock time, so that the order of
    ``finished_at, id`` is the order their ratings were applied in (``spidertour ratings rebuild``).
    Returns each tournament finished with its entries that never started (now absent).
    """
    finished = []
    async with db.acquire() as conn, conn.transaction():
        due = await conn.fetch(
            """SELECT t.id FROM tournaments t
                WHERE t.finished_at IS NULL AND t.closes_at <= now() AND t.kind <> 'bracket'
                  AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.tournament_id = t.id AND e.status = 'playing'
                                     AND NOT e.practice)
                ORDER BY t.id
                FOR UPDATE SKIP LOCKED"""
        )
        if due:
            await ratings.lock(conn)
        for row in due:
            tid = row["id"]
            absent = await play_store.absent(conn, "tournament_id = $1", tid)
            await store_standings(conn, tid)
            await conn.execute("UPDATE tournaments SET finished_at = clock_timestamp() WHERE id = $1", tid)
            await ratings.apply(conn, tid)
            finished.append((tid, absent))
    return finished


async def store_standings(conn: Connection, tournament_id: int) -> None:
    """The final ranking of docs/rules.md, disqualified entries left out (replacing any stored before).
    Several deals by total rank as one (the total is the entry's final score); by matchpoints, see
    server/competitions/deals.py."""
    settings = await conn.fetchval("SELECT settings FROM tournaments WHERE id = $1", tournament_id)
    if settings is not None and scoring_of(settings) == "matchpoints":
        await store_matchpoint_standings(conn, tournament_id, settings)
        return
    await conn.execute(
        "DELETE FROM standings WHERE tournament_id = $1", tournament_id, timeout=WHOLE_TOURNAMENT_TIMEOUT
    )
    await conn.execute(
        f"""INSERT INTO standings (tournament_id, rank, entry_id, player_id, player, final_score,
                                   time_left, status)
            SELECT e.tournament_id, row_number() OVER (ORDER BY {RANK_ORDER}), e.id, e.player_id, p.name,
                   coalesce(e.final_score, e.score), coalesce(e.time_left, 0), e.status
              FROM entries e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice""",
        tournament_id,
        timeout=WHOLE_TOURNAMENT_TIMEOUT,
    )


async def replays(db: asyncpg.Pool, tournament_id: int) -> list[asyncpg.Record]:
    """Every entry of a tournament with its moves, for the published replays."""
    return await db.fetch(
        """SELECT e.id AS entry_id, e.ordinal, e.player_id, p.name AS player, e.status, e.final_score, e.time_left,
                  e.disqualified,
                  coalesce((SELECT jsonb_agg(m.move || jsonb_build_object('t', m.t) ORDER BY m.n)
                              FROM moves m WHERE m.entry_id = e.id), '[]'::jsonb) AS moves
             FROM entries e JOIN players p ON p.id = e.player_id
            WHERE e.tournament_id = $1 AND NOT e.practice ORDER BY e.id""",
        tournament_id,
    )


# ----------------------------------------------------------------------------- organiser actions


async def edit_tournament(
    db: asyncpg.Pool,
    tournament_id: int,
    name: str,
    settings: dict[str, Any],
    seed: str,
    salt: str,
    commitment: str,
    opens_at: datetime,
    closes_at: datetime,
) -> bool:
    """Change a tournament that has not opened yet (False: it has opened, finished or been cancelled)."""
    done = await db.fetchval(
        """UPDATE tournaments SET name = $2, settings = $3, seed = $4, commitment = $5, opens_at = $6, closes_at = $7,
                  salt = $8
            WHERE id = $1 AND finished_at IS NULL AND now() < opens_at RETURNING id""",
        tournament_id,
        name,
        settings,
        seed,
        commitment,
        opens_at,
        closes_at,
        salt,
    )
    return done is not None


async def close_entries(db: asyncpg.Pool, tournament_id: int) -> bool:
    """Close an open tournament now: no new entry or start; running games go on (False: not open)."""
    done = await db.fetchval(
        """UPDATE tournaments SET closes_at = now()
            WHERE id = $1 AND finished_at IS NULL AND opens_at <= now() AND now() < closes_at RETURNING id""",
        tournament_id,
    )
    return done is not None


async def cancel(db: asyncpg.Pool, tournament_id: int) -> list[asyncpg.Record] | None:
    """Mark a tournament cancelled (and so over, nothing ranked); entries never started become absent.

    Returns those entries (None when the tournament was already over). Running games are ended by
    the caller, one by one, with the engine.
    """
    async with db.acquire() as conn, conn.transaction():
        done = await conn.fetchval(
            """UPDATE tournaments SET cancelled_at = now(), finished_at = now()
                WHERE id = $1 AND finished_at IS NULL RETURNING id""",
            tournament_id,
        )
        if done is None:
            return None
        await conn.execute("DELETE FROM standings WHERE tournament_id = $1", tournament_id)
        return await play_store.absent(conn, "tournament_id = $1", tournament_id)


async def playing(db: asyncpg.Pool, tournament_id: int) -> list[int]:
    rows = await db.fetch(
        "SELECT id FROM entries WHERE tournament_id = $1 AND status = 'playing' AND NOT practice", tournament_id
    )
    return [r["id"] for r in rows]


# The player's full name for the organisers of its club's tournament; else the name the public sees.
ORGANISER_ENTRY_SQL = """
    SELECT e.id, e.ordinal, e.player_id,
           CASE WHEN EXISTS (SELECT 1 FROM club_members cm JOIN tournaments t ON t.club_id = cm.club_id
                              WHERE t.id = e.tournament_id AND cm.player_id = p.id)
                THEN coalesce(p.roster_name, p.name) ELSE p.name END AS player,
           e.status, e.moves, e.score, e.final_score,
           CASE WHEN e.status = 'playing'
                THEN greatest(0, floor(extract(epoch FROM e.deadline - now())))::int
                ELSE e.time_left END AS time_left,
           e.created_at AS joined_at, e.started_at, e.ended_at, e.disqualified, e.disqualified_at,
           e.epoch > 0 AS connected
      FROM entries e JOIN players p ON p.id = e.player_id"""


async def organiser_entries(db: asyncpg.Pool, tournament_id: int, offset: int, limit: int) -> list[asyncpg.Record]:
    return await db.fetch(
        f"{ORGANISER_ENTRY_SQL} WHERE e.tournament_id = $1 AND NOT e.practice ORDER BY e.ordinal OFFSET $2 LIMIT $3",
        tournament_id,
        offset,
        limit,
    )


async def organiser_entry(db: asyncpg.Pool, entry_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"{ORGANISER_ENTRY_SQL} WHERE e.id = $1 AND NOT e.practice", entry_id)


async def disqualify(db: asyncpg.Pool, tournament_id: int, entry_id: int, reason: str) -> str:
    """Take an entry out of the ranking. 'ok', 'missing' (no such entry there) or 'already'.

    Once the tournament is finished its stored standings are ranked again without the entry.
    """
    async with db.acquire() as conn, conn.transaction():
        finished = await conn.fetchval(
            "SELECT finished_at IS NOT NULL AND cancelled_at IS NULL FROM tournaments WHERE id = $1 FOR UPDATE",
            tournament_id,
        )
        found = await conn.fetchrow(
            "SELECT disqualified FROM entries WHERE id = $1 AND tournament_id = $2 AND NOT practice FOR UPDATE",
            entry_id,
            tournament_id,
        )
        if found is None:
            return "missing"
        if found["disqualified"] is not None:
            return "already"
        await conn.execute(
            "UPDATE entries SET disqualified = $2, disqualified_at = now() WHERE id = $1", entry_id, reason
        )
        if finished:
            await store_standings(conn, tournament_id)
            await ratings.rerate(conn, tournament_id)  # its game's ratings, recomputed without the entry
        return "ok"


async def disqualified(db: asyncpg.Pool, tournament_id: int) -> list[asyncpg.Record]:
    return await db.fetch(
        """SELECT e.id AS entry_id, e.player_id, p.name AS player, e.status, e.disqualified AS reason,
                  e.disqualified_at AS at
             FROM entries e JOIN players p ON p.id = e.player_id
            WHERE e.tournament_id = $1 AND e.disqualified IS NOT NULL AND NOT e.practice
            ORDER BY e.disqualified_at, e.id""",
        tournament_id,
    )
