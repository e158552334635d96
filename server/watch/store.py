"""The SQL of watching: entries as the board shows them, final standings, a tournament's status."""

from __future__ import annotations

import asyncpg

from ..storage.sql import HIDDEN_SQL, RANK_ORDER, STATUS_SQL

# A name search takes at most this many matching entries (the best ranked of them are shown).
SEARCH_CAP = 1000


def name_holds(column: str, param: str) -> str:
    """SQL: ``column``'s lower case holds ``param``'s (any text: LIKE's wildcards in it are escaped),
    as a LIKE that the trigram indexes of schema/024_name_search.sql serve."""
    escaped = f"replace(replace(replace(lower({param}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')"
    return f"lower({column}) LIKE '%' || {escaped} || '%'"


# What the leaderboard needs of an entry (``leaderboard.Leaderboard.rebuild``).
BOARD_SQL = """
    SELECT e.id, e.tournament_id, e.ordinal, p.name AS player, e.player_id, p.profile_public, e.status, e.score,
           e.final_score, e.time_left,
           e.deadline, e.disqualified, e.team_id, (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name
      FROM entries e JOIN players p ON p.id = e.player_id"""


async def status(db: asyncpg.Pool, tournament_id: int) -> str | None:
    """The tournament's status, or None when there is no such tournament (nor a match's before it is over)."""
    found: str | None = await db.fetchval(
        f"SELECT {STATUS_SQL} FROM tournaments t WHERE t.id = $1 AND NOT {HIDDEN_SQL}", tournament_id
    )
    return found


async def board_rows(db: asyncpg.Pool, tournament_id: int) -> list[asyncpg.Record]:
    """Every entry of a tournament as the leaderboard shows it (to rebuild it)."""
    return await db.fetch(
        f"{BOARD_SQL} WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice", tournament_id
    )


async def entry_rows(db: asyncpg.Pool, tournament_id: int, entry_ids: list[int]) -> list[asyncpg.Record]:
    """These entries as the leaderboard shows them, disqualified ones too (their ``disqualified`` set)."""
    return await db.fetch(
        f"{BOARD_SQL} WHERE e.tournament_id = $1 AND e.id = ANY($2::bigint[]) AND NOT e.practice",
        tournament_id,
        entry_ids,
    )


# The live ranking as PostgreSQL computes it: what the Redis board holds, for when Redis is unavailable.
LIVE_SQL = f"""
    SELECT * FROM (SELECT row_number() OVER (ORDER BY {RANK_ORDER}) AS rank, e.id, e.ordinal, p.name AS player,
                          e.player_id, p.profile_public,
                          e.status, e.score, e.final_score, e.time_left, e.deadline, e.team_id,
                          (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name
                     FROM entries e JOIN players p ON p.id = e.player_id
                    WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice) ranked"""


async def live_rows(db: asyncpg.Pool, tournament_id: int, offset: int, limit: int) -> list[asyncpg.Record]:
    """A page of the live standings from PostgreSQL (while Redis is unavailable)."""
    return await db.fetch(f"{LIVE_SQL} ORDER BY rank OFFSET $2 LIMIT $3", tournament_id, offset, limit)


async def live_named(db: asyncpg.Pool, tournament_id: int, name: str) -> list[asyncpg.Record]:
    """The live standings of the players whose name holds ``name``, from PostgreSQL (while Redis is
    unavailable), at most ``SEARCH_CAP`` of them."""
    return await db.fetch(
        f"{LIVE_SQL} WHERE {name_holds('player', '$2')} ORDER BY rank LIMIT $3", tournament_id, name, SEARCH_CAP
    )


async def live_rank(db: asyncpg.Pool, tournament_id: int, entry_id: int) -> int | None:
    """An entry's live rank from PostgreSQL (None: not ranked), while Redis is unavailable."""
    rank: int | None = await db.fetchval(f"SELECT rank FROM ({LIVE_SQL}) r WHERE id = $2", tournament_id, entry_id)
    return rank


async def live_count(db: asyncpg.Pool, tournament_id: int) -> int:
    """Entries ranked live (not disqualified), from PostgreSQL."""
    return int(
        await db.fetchval(
            "SELECT count(*) FROM entries WHERE tournament_id = $1 AND disqualified IS NULL AND NOT practice",
            tournament_id,
        )
    )


async def live_counts(db: asyncpg.Pool, tournament_id: int) -> tuple[int, int]:
    """How many ranked entries are playing now and how many are yet to start (counted, never loaded)."""
    found = await db.fetchrow(
        """SELECT count(*) FILTER (WHERE status = 'playing') AS playing,
                  count(*) FILTER (WHERE status = 'joined') AS waiting
             FROM entries WHERE tournament_id = $1 AND disqualified IS NULL AND NOT practice""",
        tournament_id,
    )
    return (int(found["playing"]), int(found["waiting"])) if found else (0, 0)


async def named_entries(db: asyncpg.Pool, tournament_id: int, name: str) -> list[int]:
    """Ranked entries whose player's name holds ``name`` (any case), at most ``SEARCH_CAP`` of them."""
    rows = await db.fetch(
        f"""SELECT e.id FROM players p JOIN entries e ON e.player_id = p.id AND e.tournament_id = $1
             WHERE {name_holds("p.name", "$2")} AND e.disqualified IS NULL AND NOT e.practice
             ORDER BY e.ordinal LIMIT $3""",
        tournament_id,
        name,
        SEARCH_CAP,
    )
    return [r["id"] for r in rows]


async def active_tournaments(db: asyncpg.Pool) -> list[int]:
    """Tournaments whose leaderboards live in Redis: not finished, and open or closing; never a match's
    nor a bracket's or its games' (hidden until over, then PostgreSQL's standings: they have no board,
    so thousands of matches in play cost the clock's sweep nothing)."""
    rows = await db.fetch(
        "SELECT id FROM tournaments WHERE finished_at IS NULL AND opens_at <= now() AND kind = 'tournament'"
    )
    return [r["id"] for r in rows]


async def over(db: asyncpg.Pool, tournament_ids: list[int]) -> list[int]:
    """Those of these tournaments that are over (finished or cancelled), or that do not exist."""
    rows = await db.fetch(
        """SELECT x.id FROM unnest($1::bigint[]) AS x(id)
            WHERE NOT EXISTS (SELECT 1 FROM tournaments t WHERE t.id = x.id AND t.finished_at IS NULL)""",
        tournament_ids,
    )
    return [r["id"] for r in rows]


async def standings(db: asyncpg.Pool, tournament_id: int, offset: int = 0, limit: int = 100) -> list[asyncpg.Record]:
    """Final standings once stored, else the running order computed from the entries. The page is
    taken from the standings alone before anything is joined to it: a page deep in 100,000 entries
    would otherwise join every row before it."""
    rows = await db.fetch(
        """SELECT s.rank, s.entry_id, s.player_id, s.player, s.final_score AS score, s.time_left, s.status,
                  s.matchpoints, e.team_id, (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name,
                  (SELECT p.profile_public FROM players p WHERE p.id = s.player_id) AS profile_public
             FROM (SELECT * FROM standings WHERE tournament_id = $1 ORDER BY rank OFFSET $2 LIMIT $3) s
             JOIN entries e ON e.id = s.entry_id
            ORDER BY s.rank""",
        tournament_id,
        offset,
        limit,
    )
    if rows:
        return rows
    return await db.fetch(
        f"""SELECT row_number() OVER (ORDER BY {RANK_ORDER}) AS rank, e.id AS entry_id, e.player_id,
                   p.name AS player, p.profile_public, coalesce(e.final_score, e.score) AS score, e.time_left,
                   e.status, e.team_id,
                   (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name
              FROM entries e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice
             ORDER BY rank OFFSET $2 LIMIT $3""",
        tournament_id,
        offset,
        limit,
    )


async def named_standings(
    db: asyncpg.Pool, tournament_id: int, name: str, offset: int, limit: int
) -> list[asyncpg.Record]:
    """The stored final standings of the players whose name holds ``name`` (any case), by rank."""
    return await db.fetch(
        f"""SELECT s.rank, s.entry_id, s.player_id, s.player, s.final_score AS score, s.time_left, s.status,
                  s.matchpoints, e.team_id, (SELECT c.name FROM clubs c WHERE c.id = e.team_id) AS team_name,
                  (SELECT p.profile_public FROM players p WHERE p.id = s.player_id) AS profile_public
             FROM standings s JOIN entries e ON e.id = s.entry_id
            WHERE s.tournament_id = $1 AND {name_holds("s.player", "$2")}
            ORDER BY s.rank OFFSET $3 LIMIT $4""",
        tournament_id,
        name,
        offset,
        limit,
    )


async def named_count(db: asyncpg.Pool, tournament_id: int, name: str) -> int:
    """How many of a finished tournament's standings have a player whose name holds ``name``."""
    return int(
        await db.fetchval(
            f"SELECT count(*) FROM standings WHERE tournament_id = $1 AND {name_holds('player', '$2')}",
            tournament_id,
            name,
        )
    )


async def ranked_count(db: asyncpg.Pool, tournament_id: int) -> int:
    """Entries in a finished tournament's stored standings."""
    return int(await db.fetchval("SELECT count(*) FROM standings WHERE tournament_id = $1", tournament_id))


async def final_rank(db: asyncpg.Pool, tournament_id: int, entry_id: int) -> int | None:
    rank: int | None = await db.fetchval(
        "SELECT rank FROM standings WHERE tournament_id = $1 AND entry_id = $2", tournament_id, entry_id
    )
    return rank
