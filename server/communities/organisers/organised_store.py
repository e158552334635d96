"""The SQL of what an organiser manages, as one list: its tournaments and brackets (its own and its
clubs'), schedules, series and clubs, each with its status, phase and counts."""

from __future__ import annotations

import asyncpg

from ...storage.sql import STATUS_SQL

# The clubs the organiser ($1) organises; for the owner ($1 NULL), the clubs no organiser organises.
_CLUBS = """SELECT c.id FROM clubs c
             WHERE CASE WHEN $1::bigint IS NULL
                        THEN NOT EXISTS (SELECT 1 FROM club_organisers co WHERE co.club_id = c.id)
                        ELSE EXISTS (SELECT 1 FROM club_organisers co WHERE co.club_id = c.id AND co.organiser_id = $1)
                   END"""

# Whose row it is: the organiser's own (the owner's: no organiser), or one of its clubs'.
_OWNED = "({a}.organiser_id IS NOT DISTINCT FROM $1::bigint OR {a}.club_id IN (SELECT id FROM mine))"

# A phase is the status in three words: running (open, closing, active), coming, finished.
ITEMS = f"""
WITH mine AS ({_CLUBS}),
tours AS (
    SELECT t.*, {STATUS_SQL} AS status FROM tournaments t
     WHERE t.kind IN ('tournament', 'bracket') AND {_OWNED.format(a="t")}
),
items AS (
    SELECT t.kind, t.id, t.name, t.status,
           CASE WHEN t.status = 'scheduled' THEN 'coming'
                WHEN t.status IN ('finished', 'cancelled') THEN 'finished' ELSE 'running' END AS phase,
           t.club_id, t.created_at, t.opens_at, t.closes_at,
           (SELECT count(*) FROM entries e
             WHERE e.tournament_id = t.id AND NOT e.practice AND e.disqualified IS NULL) AS entries,
           NULL::bigint AS members, NULL::bigint AS tournaments
      FROM tours t
    UNION ALL
    SELECT 'schedule', s.id, s.name, CASE WHEN s.active THEN 'active' ELSE 'stopped' END,
           CASE WHEN s.active THEN 'running' ELSE 'finished' END,
           s.club_id, s.created_at, s.first_opens_at, NULL, NULL, NULL,
           (SELECT count(*) FROM tournaments t WHERE t.schedule_id = s.id)
      FROM schedules s WHERE {_OWNED.format(a="s")}
    UNION ALL
    SELECT 'series', s.id, s.name, x.phase, x.phase, s.club_id, s.created_at, NULL, NULL, NULL, NULL, x.n
      FROM series s,
           LATERAL (SELECT count(*) AS n,
                           CASE WHEN count(*) = 0 THEN 'coming'
                                WHEN bool_and(t.finished_at IS NOT NULL) THEN 'finished' ELSE 'running' END AS phase
                      FROM tournaments t WHERE t.series_id = s.id) x
     WHERE {_OWNED.format(a="s")}
    UNION ALL
    SELECT 'club', c.id, c.name, 'active', 'running', c.id, c.created_at, NULL, NULL, NULL,
           (SELECT count(*) FROM club_members m WHERE m.club_id = c.id),
           (SELECT count(*) FROM tournaments t WHERE t.club_id = c.id AND t.kind IN ('tournament', 'bracket'))
      FROM clubs c WHERE c.id IN (SELECT id FROM mine)
)"""

_FILTER = "($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR phase = $3)"


async def organised(
    db: asyncpg.Pool, organiser_id: int | None, kind: str | None, phase: str | None, limit: int, offset: int
) -> tuple[list[asyncpg.Record], list[asyncpg.Record]]:
    """A page of what the organiser (None: the owner) manages, newest first, and how many of each
    kind in each phase (the filters applied to the page only)."""
    async with db.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        page = await conn.fetch(
            f"""{ITEMS} SELECT * FROM items WHERE {_FILTER}
                ORDER BY created_at DESC, kind, id DESC LIMIT $4 OFFSET $5""",
            organiser_id,
            kind,
            phase,
            limit,
            offset,
        )
        counts = await conn.fetch(
            f"{ITEMS} SELECT kind, phase, count(*) AS n FROM items GROUP BY kind, phase ORDER BY kind, phase",
            organiser_id,
        )
    return page, counts
