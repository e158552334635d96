"""The SQL of matches: asking (one short transaction), reading, leaving, and the clock's work
(start timeouts, matches that never filled, the end of a match's games).

A match is backed by a tournament of ``kind = 'match'`` (schema/017_matches.sql): its seed,
commitment, entries (the seats), finish, standings, ratings and replays are that tournament's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

from ..config import MatchFormat
from ..fairplay.commitment import commitment, new_salt, new_seed
from ..storage.pool import Connection, Db

# A player's rating ordinal in a game (mu - 3 sigma, as competitions.ratings.ordinal); 0 unrated.
ORDINAL_SQL = """coalesce((SELECT r.mu - 3 * r.sigma FROM ratings r WHERE r.player_id = {player} AND r.game = {game}),
                          0)::float8"""

# Band of a waiting match ``m``: $band either way, widened by $growth a whole minute waited.
BAND_SQL = "($4::float8 + $5::float8 * floor(extract(epoch FROM now() - m.created_at) / 60))"

# Where a waiting match of format $1 will do for the caller ($2 its rating, $3 its id; $4 band, $5
# growth): a free seat, every seated player in its band (``low`` within the widest band any waiting
# match has reached, $7: a bound no match in band lies outside of), no seat of the caller's, and
# none of the caller's last opponents ($6; empty: any opponent).
WILL_DO_SQL = f"""m.format = $1 AND m.status = 'waiting' AND m.taken < m.seats
       AND m.low BETWEEN $2::float8 - $7::float8 AND $2::float8 + $7::float8
       AND m.low >= $2::float8 - {BAND_SQL} AND m.high <= $2::float8 + {BAND_SQL}
       AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.tournament_id = m.tournament_id AND NOT e.practice
                          AND (e.player_id = $3 OR e.player_id = ANY($6::bigint[])))"""

# The oldest waiting match that will do, two ways, each planned for its case whatever the planner
# believes of the table's size. Many matches near the caller's rating: walked in the order of
# ``matches_waiting`` (format, created_at, id), the walk ending at the first that will do. Few: those
# few read by ``matches_waiting_low`` (format, low) around the caller's rating, then the oldest of them
# (a walk would read every waiting match, in vain, to open a match for a rating nobody waits near).
NEAR_CAP = 32  # past this many waiting near the caller's rating, walk
WALK_SQL = f"""
    SELECT m.id, m.tournament_id FROM matches m
     WHERE {WILL_DO_SQL}
     ORDER BY m.created_at, m.id
     LIMIT 1
       FOR UPDATE OF m SKIP LOCKED"""
NEAR_SQL = f"""
    SELECT m.id, m.tournament_id
      FROM unnest(ARRAY(SELECT n.id FROM matches n
                         WHERE n.format = $1 AND n.status = 'waiting'
                           AND n.low BETWEEN $2::float8 - $7::float8 AND $2::float8 + $7::float8
                         ORDER BY n.low LIMIT {2 * NEAR_CAP})) AS near (id)
      JOIN matches m ON m.id = near.id
     WHERE {WILL_DO_SQL}
     ORDER BY m.created_at, m.id
     LIMIT 1
       FOR UPDATE OF m SKIP LOCKED"""

# The opponents of the player's latest match (not twice in a row against them, when another will
# do): its entries newest first (``entries_player_latest``) to the first that is a match's seat.
PREVIOUS_SQL = """
    SELECT coalesce(array_agg(o.player_id), '{}') FROM entries o
     WHERE o.tournament_id = (SELECT e.tournament_id FROM entries e JOIN matches m ON m.tournament_id = e.tournament_id
                               WHERE e.player_id = $1 AND NOT e.practice ORDER BY e.id DESC LIMIT 1)
       AND o.player_id <> $1 AND NOT o.practice"""

# The player's entries (by ``entries_player_latest``), each one's tournament looked up by its key: a
# scalar subquery is never turned into a join, which statistics not yet caught up with a table's
# growth could plan as a scan of every tournament for every ask.
OPEN_COUNT_SQL = """
    SELECT count(*) FROM entries e
     WHERE e.player_id = $1 AND NOT e.practice
       AND (SELECT t.kind = 'match' AND t.finished_at IS NULL FROM tournaments t WHERE t.id = e.tournament_id)"""

# What an ask needs to know first, in one round trip: the player's matches not over, its rating in
# the format's game, its last opponents, the widest band of the format's waiting matches (from the
# oldest, the first of ``matches_waiting``; null when none waits), and how many waiting matches lie
# near the caller's rating (within that widest band; counted to NEAR_CAP, by ``matches_waiting_low``).
# $1 player, $2 game, $3 format, $4 band, $5 growth.
FACTS_SQL = f"""
    WITH r AS MATERIALIZED (SELECT {ORDINAL_SQL.format(player="$1", game="$2")} AS rating),
         w AS MATERIALIZED (
             SELECT $4::float8 + $5::float8 * floor(extract(epoch FROM now() - o.created_at) / 60) AS widest
               FROM (SELECT created_at FROM matches WHERE format = $3 AND status = 'waiting'
                      ORDER BY created_at LIMIT 1) o)
    SELECT ({OPEN_COUNT_SQL}) AS open, (SELECT rating FROM r) AS rating, ({PREVIOUS_SQL}) AS previous,
           (SELECT widest FROM w) AS widest,
           (SELECT count(*) FROM (SELECT 1 FROM matches n
                                   WHERE n.format = $3 AND n.status = 'waiting'
                                     AND n.low BETWEEN (SELECT rating FROM r) - (SELECT widest FROM w)
                                                   AND (SELECT rating FROM r) + (SELECT widest FROM w)
                                   ORDER BY n.low LIMIT {NEAR_CAP}) x) AS near"""

MATCH_SQL = """
    SELECT m.id, m.format, m.seats, m.taken, m.tournament_id, m.created_at,
           t.finished_at AS over_at, t.settings, t.commitment, t.seed, t.salt,
           CASE WHEN t.finished_at IS NULL THEN m.status WHEN m.status = 'unmatched' THEN 'unmatched'
                ELSE 'over' END AS status
      FROM matches m JOIN tournaments t ON t.id = m.tournament_id"""

# The seats of match ``x`` (a lateral subquery, by its tournament): each one's rank shared by equal
# final score and time left (a draw); ratings from the match's own history once over (before and
# after), else the current one in the match's game. Named apart from the match's own columns.
SEATS_SQL = """
    SELECT e.ordinal AS seat, e.id AS entry_id, e.player_id, p.name AS player, e.status AS seat_status,
           e.final_score, e.time_left,
           CASE WHEN s.rank IS NULL THEN NULL
                ELSE rank() OVER (PARTITION BY s.rank IS NULL ORDER BY s.final_score DESC, s.time_left DESC) END
               AS rank,
           h.mu_before - 3 * h.sigma_before AS rating_before, h.mu - 3 * h.sigma AS rating_after,
           h.games AS games_after,
           coalesce((SELECT r.mu - 3 * r.sigma FROM ratings r
                      WHERE r.player_id = e.player_id
                        AND r.game = (x.settings->>'variant') || '/' || (x.settings->>'suits')), 0)::float8
               AS rating_now,
           coalesce((SELECT r.games FROM ratings r
                      WHERE r.player_id = e.player_id
                        AND r.game = (x.settings->>'variant') || '/' || (x.settings->>'suits')), 0) AS games_now
      FROM entries e JOIN players p ON p.id = e.player_id
      LEFT JOIN standings s ON s.tournament_id = e.tournament_id AND s.entry_id = e.id
      LEFT JOIN rating_history h ON h.tournament_id = e.tournament_id AND h.player_id = e.player_id
     WHERE e.tournament_id = x.tournament_id AND NOT e.practice"""


def _with_seats(matches_sql: str) -> str:
    """Matches (``matches_sql``, ordered) and their seats in one statement: a row a seat (a match
    with none yet: one row, its seat null), in the matches' order, then the seats'."""
    return f"""SELECT x.*, y.* FROM ({matches_sql}) x LEFT JOIN LATERAL ({SEATS_SQL}) y ON true
               ORDER BY x.ordering, y.seat"""


def _grouped(rows: list[asyncpg.Record]) -> list[tuple[asyncpg.Record, list[asyncpg.Record]]]:
    out: list[tuple[asyncpg.Record, list[asyncpg.Record]]] = []
    for row in rows:
        if not out or out[-1][0]["id"] != row["id"]:
            out.append((row, []))
        if row["seat"] is not None:
            out[-1][1].append(row)
    return out


class OpenLimit(Exception):
    """The player holds as many matches not over as it may."""


@dataclass(frozen=True)
class Timing:
    """The settings an ask uses: band and growth (ordinal points), seconds to start, to fill."""

    band: float
    growth: float
    start_seconds: int
    wait_seconds: int
    open_per_player: int


def game_of(settings: dict[str, Any]) -> str:
    return f"{settings['variant']}/{settings['suits']}"


# The seat's entry as the ask answers it (tournaments' Entry): ``e`` the inserted entry, ``t`` its
# tournament. ``created_at``: a new match's (its answer is built without reading it again), else null.
SEAT_OUT = """SELECT {match_id} AS match_id, {created_at} AS created_at, e.id, e.tournament_id,
                     t.name AS tournament, e.player_id, p.name AS player, e.status, e.score, e.final_score,
                     e.time_left, e.started_at, e.deadline
                FROM e, t, players p WHERE p.id = e.player_id"""

# A seat in a waiting match found ($1, its tournament $2), for the player $3 of rating $4 from
# address $5, to start within $6 seconds: the match, its tournament's count and the entry at once.
TAKE_SQL = f"""
    WITH m AS (
        UPDATE matches SET taken = taken + 1, low = least(low, $4), high = greatest(high, $4),
               status = CASE WHEN taken + 1 = seats THEN 'playing' ELSE status END
         WHERE id = $1),
    t AS (UPDATE tournaments SET entry_count = entry_count + 1 WHERE id = $2 RETURNING id, name, entry_count),
    e AS (INSERT INTO entries (tournament_id, player_id, ordinal, address_hash, start_by)
          SELECT t.id, $3, t.entry_count, $5, now() + make_interval(secs => $6) FROM t
          RETURNING *)
    {SEAT_OUT.format(match_id="$1::bigint", created_at="NULL::timestamptz")}"""

# A new match of format $1 (settings $2, seats $8), its tournament (seed $3, salt $4, commitment $5,
# closed $6 seconds from now at the latest, rated $7) and its host's seat (player $10 of rating $9
# from address $11, to start within $12 seconds), in one statement.
OPEN_MATCH_SQL = f"""
    WITH n AS (SELECT nextval(pg_get_serial_sequence('matches', 'id')) AS id),
    t AS (INSERT INTO tournaments (name, settings, seed, salt, commitment, opens_at, closes_at, start, listed,
                                   rated, kind, entry_count)
          SELECT 'match ' || n.id || ' (' || $1::text || ')', $2, $3, $4, $5, now(), now() + make_interval(secs => $6),
                 'own', false, $7, 'match', 1
            FROM n
          RETURNING id, name),
    m AS (INSERT INTO matches (id, format, seats, taken, tournament_id, low, high)
          SELECT n.id, $1, $8, 1, t.id, $9, $9 FROM n, t
          RETURNING created_at),
    e AS (INSERT INTO entries (tournament_id, player_id, ordinal, address_hash, start_by)
          SELECT t.id, $10, 1, $11, now() + make_interval(secs => $12) FROM t
          RETURNING *)
    {SEAT_OUT.format(match_id="(SELECT n.id FROM n)", created_at="(SELECT m.created_at FROM m)")}"""


@dataclass(frozen=True)
class Seated:
    """An ask's outcome: the seat (``match_id``, the entry as tournaments' Entry, and ``created_at``
    when the match is new), the player's rating, and a new match's commitment (None: seated in a
    waiting match)."""

    seat: asyncpg.Record
    rating: float
    commitment: str | None


async def ask(db: asyncpg.Pool, fmt: MatchFormat, player_id: int, address: bytes | None, timing: Timing) -> Seated:
    """Seat the player (one transaction): in the oldest waiting match of the format with a free seat
    whose players all lie within its band, preferring one without its last opponent; else in a new
    match it hosts. OpenLimit past MATCH_OPEN_PER_PLAYER.

    The player's row is locked first (one ask of a player at a time, so its limit holds), then the
    match's (``SKIP LOCKED``: two asks never wait on, nor both take, one seat)."""
    game = game_of(fmt.settings)
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id)
        facts = await conn.fetchrow(FACTS_SQL, player_id, game, fmt.name, timing.band, timing.growth)
        assert facts is not None  # a SELECT of values: one row
        if facts["open"] >= timing.open_per_player:
            raise OpenLimit
        rating, previous, widest = facts["rating"], facts["previous"], facts["widest"]
        found = None
        if facts["near"]:  # some match waits near the caller's rating
            find = NEAR_SQL if facts["near"] < NEAR_CAP else WALK_SQL
            args = (fmt.name, rating, player_id, timing.band, timing.growth)
            # Not twice in a row against the same opponent when another match will do.
            found = await conn.fetchrow(find, *args, previous, widest)
            if found is None and previous:
                found = await conn.fetchrow(find, *args, [], widest)
        if found is None:
            return await _open(conn, fmt, player_id, address, rating, timing)
        seat = await conn.fetchrow(
            TAKE_SQL, found["id"], found["tournament_id"], player_id, rating, address, float(timing.start_seconds)
        )
        assert seat is not None  # the entry inserted
        return Seated(seat, rating, None)


async def _open(
    conn: Connection, fmt: MatchFormat, player_id: int, address: bytes | None, rating: float, timing: Timing
) -> Seated:
    """A new match with its own tournament (a fresh seed and its commitment), the player its host."""
    seed, salt = new_seed(), new_salt()
    committed = commitment(seed, fmt.settings, salt)
    # Closed at the latest when the last seat could have started and played (the clock ends it sooner).
    backstop = timing.wait_seconds + timing.start_seconds + fmt.settings["time_limit"] + 60
    seat = await conn.fetchrow(
        OPEN_MATCH_SQL,
        fmt.name,
        fmt.settings,
        seed,
        salt,
        committed,
        float(backstop),
        fmt.rated,
        fmt.seats,
        rating,
        player_id,
        address,
        float(timing.start_seconds),
    )
    assert seat is not None  # the entry inserted
    return Seated(seat, rating, committed)


async def match(db: Db, match_id: int) -> tuple[asyncpg.Record, list[asyncpg.Record]] | None:
    """A match and its seats, in one statement (None: no such match)."""
    found = _grouped(
        await db.fetch(_with_seats(f"SELECT w.*, 0 AS ordering FROM ({MATCH_SQL} WHERE m.id = $1) w"), match_id)
    )
    return found[0] if found else None


async def matches_of_player(
    db: Db, player_id: int, offset: int, limit: int
) -> list[tuple[asyncpg.Record, list[asyncpg.Record]]]:
    """The player's matches, newest first, with their seats (one statement)."""
    page = f"""SELECT w.*, -w.id AS ordering FROM ({MATCH_SQL}
                 JOIN entries e ON e.tournament_id = m.tournament_id AND e.player_id = $1 AND NOT e.practice
                ORDER BY m.id DESC OFFSET $2 LIMIT $3) w"""
    return _grouped(await db.fetch(_with_seats(page), player_id, offset, limit))


async def counts(db: Db) -> dict[str, tuple[int, int]]:
    """Per format: matches waiting (a free seat) and playing (seated, not over). Over as a match's
    page says it (its tournament finished), not only once the clock has marked it."""
    rows = await db.fetch(
        """SELECT m.format, count(*) FILTER (WHERE m.status = 'waiting') AS waiting,
                  count(*) FILTER (WHERE m.status = 'playing') AS playing
             FROM matches m JOIN tournaments t ON t.id = m.tournament_id
            WHERE m.over_at IS NULL AND t.finished_at IS NULL GROUP BY m.format"""
    )
    return {r["format"]: (r["waiting"], r["playing"]) for r in rows}


async def leave(db: asyncpg.Pool, match_id: int, player_id: int, wait_seconds: int) -> str:
    """Give up the player's seat before its game started: 'ok', 'missing' (no such match or seat)
    or 'started'. A match left with no seat is removed (its tournament with it); a full one seats again."""
    async with db.acquire() as conn, conn.transaction():
        found = await conn.fetchrow(
            "SELECT id, tournament_id, taken FROM matches WHERE id = $1 AND over_at IS NULL FOR UPDATE", match_id
        )
        if found is None:
            return "missing"
        seat = await conn.fetchrow(
            """SELECT e.id, e.status, t.finished_at FROM entries e JOIN tournaments t ON t.id = e.tournament_id
                WHERE e.tournament_id = $1 AND e.player_id = $2 AND NOT e.practice FOR UPDATE OF e""",
            found["tournament_id"],
            player_id,
        )
        if seat is None:
            return "missing"
        if seat["status"] != "joined" or seat["finished_at"] is not None:
            return "started"
        await conn.execute("DELETE FROM entries WHERE id = $1", seat["id"])
        if found["taken"] <= 1:
            await conn.execute("DELETE FROM matches WHERE id = $1", match_id)
            await conn.execute("DELETE FROM tournaments WHERE id = $1", found["tournament_id"])
            return "ok"
        game = "(t.settings->>'variant') || '/' || (t.settings->>'suits')"
        ordinal = ORDINAL_SQL.format(player="e.player_id", game=game)
        await conn.execute(
            f"""UPDATE matches m
                   SET taken = taken - 1,
                       status = CASE WHEN m.status = 'playing' AND m.created_at > now() - make_interval(secs => $2)
                                     THEN 'waiting' ELSE m.status END,
                       low = coalesce(r.low, 0), high = coalesce(r.high, 0)
                  FROM (SELECT min({ordinal}) AS low, max({ordinal}) AS high
                          FROM entries e JOIN tournaments t ON t.id = e.tournament_id
                         WHERE e.tournament_id = $3 AND NOT e.practice) r
                 WHERE m.id = $1""",
            match_id,
            float(wait_seconds),
            found["tournament_id"],
        )
        return "ok"


# ----------------------------------------------------------------------------- the clock


async def start_timeouts(db: asyncpg.Pool) -> list[asyncpg.Record]:
    """Seats not started by their ``start_by``: absent (final score 0, no time left)."""
    return await db.fetch(
        """UPDATE entries SET status = 'absent', final_score = 0, time_left = 0, ended_at = now(), start_by = NULL
            WHERE start_by <= now() AND status = 'joined'
        RETURNING id, tournament_id"""
    )


async def wait_timeouts(db: asyncpg.Pool, wait_seconds: int) -> list[asyncpg.Record]:
    """Matches waiting MATCH_WAIT_SECONDS: seated no more; alone, unmatched (its tournament unrated)."""
    async with db.acquire() as conn, conn.transaction():
        rows = await conn.fetch(
            """UPDATE matches SET status = CASE WHEN taken >= 2 THEN 'playing' ELSE 'unmatched' END
                WHERE status = 'waiting' AND created_at <= now() - make_interval(secs => $1)
            RETURNING id, tournament_id, status""",
            float(wait_seconds),
        )
        alone = [r["tournament_id"] for r in rows if r["status"] == "unmatched"]
        if alone:
            await conn.execute("UPDATE tournaments SET rated = false WHERE id = ANY($1::bigint[])", alone)
        return rows


async def close_done(db: asyncpg.Pool) -> list[int]:
    """Matches no longer seating whose every game is over: their tournaments close now (the
    tournaments' clock then finishes them: standings, ratings, seed). Those finished are marked over."""
    # Short statements rather than joins: each reads its table once (by an index, or in one scan),
    # whatever the planner believes of the tables' sizes (a join planned on statistics not yet caught
    # up with the tables' growth walked every seat of every match for every match in play).
    playing = await db.fetch("SELECT tournament_id FROM matches WHERE status <> 'waiting' AND over_at IS NULL")
    if not playing:
        return []
    finished = await db.fetch(
        "SELECT id, finished_at FROM tournaments WHERE id = ANY($1::bigint[]) AND finished_at IS NOT NULL",
        [r["tournament_id"] for r in playing],
    )
    if finished:
        await db.executemany(
            "UPDATE matches SET over_at = $2 WHERE tournament_id = $1 AND over_at IS NULL",
            [(r["id"], r["finished_at"]) for r in finished],
        )
        over = {r["id"] for r in finished}
        playing = [r for r in playing if r["tournament_id"] not in over]
    busy = await db.fetch(
        """SELECT DISTINCT tournament_id FROM entries
            WHERE tournament_id = ANY($1::bigint[]) AND NOT practice AND status IN ('joined', 'playing')""",
        [r["tournament_id"] for r in playing],
    )
    done = {r["tournament_id"] for r in playing} - {r["tournament_id"] for r in busy}
    if not done:
        return []
    rows = await db.fetch(
        """UPDATE tournaments SET closes_at = greatest(now(), opens_at + interval '1 microsecond')
            WHERE id = ANY($1::bigint[]) AND finished_at IS NULL AND closes_at > now()
        RETURNING id""",
        sorted(done),
    )
    return [r["id"] for r in rows]
