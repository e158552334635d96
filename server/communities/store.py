"""The SQL of organisers, clubs, their members and rosters."""

from __future__ import annotations

import asyncpg

from ..storage.pool import Db
from ..storage.sql import HIDDEN_SQL

# ----------------------------------------------------------------------------- organisers


async def create_organiser(db: asyncpg.Pool, name: str, token_hash: bytes) -> asyncpg.Record:
    row = await db.fetchrow(
        "INSERT INTO organisers (name, token_hash) VALUES ($1, $2) RETURNING id, name, created_at, revoked_at",
        name,
        token_hash,
    )
    assert row is not None
    return row


ORGANISER_COLUMNS = "id, name, created_at, revoked_at, player_id"


async def organisers(db: asyncpg.Pool) -> list[asyncpg.Record]:
    return await db.fetch(f"SELECT {ORGANISER_COLUMNS} FROM organisers ORDER BY id")


async def organiser(db: Db, organiser_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"SELECT {ORGANISER_COLUMNS} FROM organisers WHERE id = $1", organiser_id)


async def account_organiser(db: Db, player_id: int) -> asyncpg.Record | None:
    """The organiser this account is (revoked or not), or None."""
    return await db.fetchrow(f"SELECT {ORGANISER_COLUMNS} FROM organisers WHERE player_id = $1", player_id)


async def make_account_organiser(db: asyncpg.Pool, player_id: int, name: str) -> tuple[asyncpg.Record, bool]:
    """The account made an organiser (a revoked one restored, under the same id): (its row, whether
    it was made or restored now); an organiser already is answered as it is."""
    row = await db.fetchrow(
        f"""INSERT INTO organisers (name, player_id) VALUES ($1, $2)
            ON CONFLICT (player_id) DO UPDATE SET revoked_at = NULL WHERE organisers.revoked_at IS NOT NULL
            RETURNING {ORGANISER_COLUMNS}""",
        name,
        player_id,
    )
    if row is not None:
        return row, True
    found = await account_organiser(db, player_id)
    assert found is not None
    return found, False


async def revoke_organiser(db: asyncpg.Pool, organiser_id: int) -> asyncpg.Record | None:
    """Revoke now (a revoked one stays revoked, at its first time) and stop its schedules; None: no
    such organiser."""
    async with db.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            """UPDATE organisers SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
               RETURNING id, name, created_at, revoked_at, player_id""",
            organiser_id,
        )
        if row is not None:
            await conn.execute("UPDATE schedules SET active = false WHERE organiser_id = $1 AND active", organiser_id)
        return row


async def organiser_by_token(db: asyncpg.Pool, token_hash: bytes) -> asyncpg.Record | None:
    return await db.fetchrow("SELECT id, name FROM organisers WHERE token_hash = $1 AND revoked_at IS NULL", token_hash)


# What an organiser has of each kind, as its limits count them (the organiser: $1).
HELD_SQL = {
    "schedules": "SELECT count(*) FROM schedules WHERE organiser_id = $1 AND active",
    "clubs": "SELECT count(*) FROM club_organisers WHERE organiser_id = $1",
    "series": "SELECT count(*) FROM series WHERE organiser_id = $1",
}


async def held(conn: Db, organiser_id: int, what: str) -> int:
    """How many ``what`` the organiser has, its row locked until the transaction ends: two creations
    of one organiser are counted one after the other, never both against the same count."""
    await conn.execute("SELECT 1 FROM organisers WHERE id = $1 FOR UPDATE", organiser_id)
    count: int = await conn.fetchval(HELD_SQL[what], organiser_id)
    return count


async def player_viewer(db: asyncpg.Pool, player_id: int) -> asyncpg.Record:
    """In one query: the clubs a player belongs to (``member_of``) and, when its account is an
    unrevoked organiser, that organiser (``id``, ``name``, ``clubs`` it organises; else NULLs). Read
    on every request of the player, so a revocation holds at once on every process."""
    row = await db.fetchrow(
        """SELECT array(SELECT club_id FROM club_members WHERE player_id = $1) AS member_of, o.id, o.name,
                  array(SELECT club_id FROM club_organisers WHERE organiser_id = o.id) AS clubs
             FROM (SELECT 1) AS one LEFT JOIN organisers o ON o.player_id = $1 AND o.revoked_at IS NULL""",
        player_id,
    )
    assert row is not None
    return row


async def organised_clubs(db: asyncpg.Pool, organiser_id: int) -> list[int]:
    rows = await db.fetch("SELECT club_id FROM club_organisers WHERE organiser_id = $1", organiser_id)
    return [r["club_id"] for r in rows]


async def member_clubs(db: asyncpg.Pool, player_id: int) -> list[int]:
    rows = await db.fetch("SELECT club_id FROM club_members WHERE player_id = $1", player_id)
    return [r["club_id"] for r in rows]


# ----------------------------------------------------------------------------- clubs


async def create_club(db: asyncpg.Pool, name: str, invite: str, organiser_id: int | None, most: int) -> int | None:
    """The new club's id; None when the organiser organises ``most`` clubs already (nothing made)."""
    async with db.acquire() as conn, conn.transaction():
        if organiser_id is not None and await held(conn, organiser_id, "clubs") >= most:
            return None
        club_id: int = await conn.fetchval(
            "INSERT INTO clubs (name, invite_code) VALUES ($1, $2) RETURNING id", name, invite
        )
        if organiser_id is not None:
            await conn.execute(
                "INSERT INTO club_organisers (club_id, organiser_id) VALUES ($1, $2)", club_id, organiser_id
            )
        return club_id


CLUB_COLUMNS = """c.id, c.name, c.invite_code, c.created_at, c.public_names,
       (SELECT count(*) FROM club_members m WHERE m.club_id = c.id) AS members,
       coalesce((SELECT jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name) ORDER BY o.id)
                   FROM club_organisers co JOIN organisers o ON o.id = co.organiser_id
                  WHERE co.club_id = c.id AND o.revoked_at IS NULL), '[]'::jsonb) AS organisers"""


async def club(db: Db, club_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"SELECT {CLUB_COLUMNS} FROM clubs c WHERE c.id = $1", club_id)


async def clubs(db: asyncpg.Pool, club_ids: list[int] | None, limit: int, offset: int) -> list[asyncpg.Record]:
    """A page of these clubs (every club for None), by name."""
    return await db.fetch(
        f"""SELECT {CLUB_COLUMNS} FROM clubs c WHERE $1::bigint[] IS NULL OR c.id = ANY($1::bigint[])
            ORDER BY c.name, c.id LIMIT $2 OFFSET $3""",
        club_ids,
        limit,
        offset,
    )


async def add_club_organiser(db: asyncpg.Pool, club_id: int, organiser_id: int) -> None:
    await db.execute(
        "INSERT INTO club_organisers (club_id, organiser_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        club_id,
        organiser_id,
    )


async def set_invite(db: asyncpg.Pool, club_id: int, invite: str) -> None:
    await db.execute("UPDATE clubs SET invite_code = $2 WHERE id = $1", club_id, invite)


async def members(db: asyncpg.Pool, club_id: int) -> list[asyncpg.Record]:
    return await db.fetch(
        """SELECT p.id AS player_id, coalesce(p.roster_name, p.name) AS name, p.name AS shown_as, p.handle,
                  p.roster_name IS NULL AS handle_shown, m.joined_at,
                  coalesce(p.roster_club_id = m.club_id, false) AS roster, p.profile_public
             FROM club_members m JOIN players p ON p.id = m.player_id
            WHERE m.club_id = $1 ORDER BY coalesce(p.roster_name, p.name), p.id""",
        club_id,
    )


async def is_member(db: asyncpg.Pool, club_id: int, player_id: int) -> bool:
    found = await db.fetchval("SELECT 1 FROM club_members WHERE club_id = $1 AND player_id = $2", club_id, player_id)
    return found is not None


async def join_club(db: asyncpg.Pool, club_id: int, player_id: int) -> None:
    await db.execute(
        "INSERT INTO club_members (club_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", club_id, player_id
    )


# A player as its clubs know it: ``name`` its full name (the roster's), ``shown_as`` the public's.
PLAYER_COLUMNS = """id, coalesce(roster_name, name) AS name, name AS shown_as, handle, code_hash, roster_club_id,
                    profile_public"""


async def player(db: asyncpg.Pool, player_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1", player_id)


async def player_by_handle(db: asyncpg.Pool, handle: str) -> asyncpg.Record | None:
    return await db.fetchrow(f"SELECT {PLAYER_COLUMNS} FROM players WHERE handle = $1", handle)


async def set_public_names(db: asyncpg.Pool, club_id: int, public: bool) -> None:
    """The club shows its roster members' full names and handles to the public, or initials and no
    handle: their names (and their stored standings' copies) changed at once."""
    async with db.acquire() as conn, conn.transaction():
        await conn.execute("UPDATE clubs SET public_names = $2 WHERE id = $1", club_id, public)
        changed = await conn.fetch(
            """UPDATE players SET name = CASE WHEN $2 THEN roster_name ELSE initials_name(name) END,
                                  roster_name = CASE WHEN $2 THEN NULL ELSE name END
                WHERE roster_club_id = $1 AND (roster_name IS NULL) = NOT $2 RETURNING id, name""",
            club_id,
            public,
        )
        await conn.execute(
            """UPDATE standings s SET player = u.name FROM unnest($1::bigint[], $2::text[]) AS u (id, name)
                WHERE s.player_id = u.id""",
            [r["id"] for r in changed],
            [r["name"] for r in changed],
        )


async def replace_code(db: asyncpg.Pool, player_id: int, code_hash: str) -> list[int] | None:
    """The member's new code, and every session it had ended (opened with the old code): their ids.
    None, changing nothing, when the member has no code any more (it chose a password meanwhile)."""
    async with db.acquire() as conn, conn.transaction():
        done = await conn.fetchval(
            "UPDATE players SET code_hash = $2 WHERE id = $1 AND code_hash IS NOT NULL RETURNING id",
            player_id,
            code_hash,
        )
        if done is None:
            return None
        rows = await conn.fetch(
            "UPDATE sessions SET ended_at = now() WHERE player_id = $1 AND ended_at IS NULL RETURNING id", player_id
        )
        return [r["id"] for r in rows]


async def players_in_club(db: asyncpg.Pool, club_id: int, player_ids: list[int]) -> list[asyncpg.Record]:
    """Those of these players who are members of the club, as the club knows them."""
    return await db.fetch(
        f"""SELECT {PLAYER_COLUMNS} FROM players
             WHERE id = ANY($2::bigint[]) AND id IN (SELECT player_id FROM club_members WHERE club_id = $1)""",
        club_id,
        player_ids,
    )


async def replace_codes(db: asyncpg.Pool, codes: list[tuple[int, str]]) -> list[int] | int:
    """Every member's new code (player id, code hash), and the sessions they had ended: their ids.
    All or none: when a member has no code any more (it chose a password meanwhile), nothing is
    changed and that member's id is the answer."""
    ids = [pid for pid, _ in codes]
    async with db.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        try:
            done = await conn.fetch(
                """UPDATE players p SET code_hash = u.h FROM unnest($1::bigint[], $2::text[]) AS u (id, h)
                    WHERE p.id = u.id AND p.code_hash IS NOT NULL RETURNING p.id""",
                ids,
                [h for _, h in codes],
            )
            if len(done) != len(codes):
                await transaction.rollback()
                changed = {r["id"] for r in done}
                return next(pid for pid in ids if pid not in changed)
            rows = await conn.fetch(
                """UPDATE sessions SET ended_at = now() WHERE player_id = ANY($1::bigint[]) AND ended_at IS NULL
                   RETURNING id""",
                ids,
            )
        except BaseException:
            await transaction.rollback()
            raise
        await transaction.commit()
        return [r["id"] for r in rows]


async def set_profile_public(db: asyncpg.Pool, player_id: int, public: bool) -> None:
    await db.execute("UPDATE players SET profile_public = $2 WHERE id = $1", player_id, public)


async def taken_handles(db: Db, handles: list[str]) -> set[str]:
    rows = await db.fetch("SELECT handle FROM players WHERE handle = ANY($1::text[])", handles)
    return {r["handle"] for r in rows}


async def create_members(db: asyncpg.Pool, club_id: int, people: list[tuple[str, str, str]]) -> list[int] | str:
    """One account and membership per (name, handle, code hash), all or none: their ids, or the
    first handle found taken meanwhile (nothing created)."""
    async with db.acquire() as conn, conn.transaction():
        taken = await taken_handles(conn, [handle for _, handle, _ in people])
        if taken:
            return sorted(taken)[0]
        rows = await conn.fetch(
            """INSERT INTO players (name, roster_name, handle, code_hash, roster_club_id, profile_public)
               SELECT CASE WHEN k.public_names THEN n ELSE initials_name(n) END,
                      CASE WHEN k.public_names THEN NULL ELSE n END, h, c, $4, false
                 FROM unnest($1::text[], $2::text[], $3::text[]) AS u (n, h, c), clubs k
                WHERE k.id = $4 ORDER BY n RETURNING id, handle""",
            [p[0] for p in people],
            [p[1] for p in people],
            [p[2] for p in people],
            club_id,
        )
        ids = {r["handle"]: r["id"] for r in rows}
        ordered = [ids[handle] for _, handle, _ in people]
        await conn.execute(
            "INSERT INTO club_members (club_id, player_id) SELECT $1, unnest($2::bigint[])", club_id, ordered
        )
        return ordered


# ----------------------------------------------------------------------------- exports

RESULT_COLUMNS = """e.score, e.final_score, e.status AS outcome, e.moves, e.sequences, t.settings"""


async def export_tournament(db: asyncpg.Pool, tournament_id: int) -> asyncpg.Record | None:
    return await db.fetchrow(
        f"""SELECT t.id, t.name, t.organiser_id, t.club_id, t.settings,
                  t.finished_at IS NOT NULL AND t.cancelled_at IS NULL AS finished,
                  t.cancelled_at IS NOT NULL AS cancelled
             FROM tournaments t WHERE t.id = $1 AND NOT {HIDDEN_SQL}""",
        tournament_id,
    )


# The entry's club: its team in a team battle, else the tournament's club, else its first club.
CLUB_OF = """coalesce((SELECT c.name FROM clubs c WHERE c.id = e.team_id),
                   (SELECT c.name FROM club_members cm JOIN clubs c ON c.id = cm.club_id
                     WHERE cm.player_id = p.id
                     ORDER BY (cm.club_id = t.club_id) DESC NULLS LAST, cm.club_id LIMIT 1))"""


# A player's name and handle as an export shows them: to the public ($2 false) the names a club
# keeps from it are initials, without a handle; to the tournament's organisers ($2 true) in full when
# the player is a member of the tournament's club (a pupil of another club stays as the public sees it).
CLUBS_OWN = "EXISTS (SELECT 1 FROM club_members cm WHERE cm.player_id = p.id AND cm.club_id = t.club_id)"
NAMES = f"""CASE WHEN $2 AND {CLUBS_OWN} THEN coalesce(p.roster_name, p.name) ELSE p.name END AS player,
           CASE WHEN p.roster_name IS NULL OR ($2 AND {CLUBS_OWN}) THEN p.handle END AS handle"""


async def final_rows(db: asyncpg.Pool, tournament_id: int, insider: bool) -> list[asyncpg.Record]:
    """A finished tournament's stored standings, in rank order, with every entry's detail."""
    return await db.fetch(
        f"""SELECT s.rank, {NAMES}, {CLUB_OF} AS club, s.time_left, s.matchpoints,
                   {RESULT_COLUMNS}
              FROM standings s JOIN entries e ON e.id = s.entry_id JOIN players p ON p.id = e.player_id
              JOIN tournaments t ON t.id = s.tournament_id
             WHERE s.tournament_id = $1 ORDER BY s.rank""",
        tournament_id,
        insider,
    )


async def live_rows(db: asyncpg.Pool, tournament_id: int, rank_order: str) -> list[asyncpg.Record]:
    """A running tournament's order, ranked as its standings are (for its organisers: full names)."""
    return await db.fetch(
        f"""SELECT row_number() OVER (ORDER BY {rank_order}) AS rank, {NAMES}, {CLUB_OF} AS club,
                   e.time_left, {RESULT_COLUMNS}
              FROM entries e JOIN players p ON p.id = e.player_id JOIN tournaments t ON t.id = e.tournament_id
             WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice ORDER BY rank""",
        tournament_id,
        True,
    )


async def club_results(db: asyncpg.Pool, club_id: int) -> list[asyncpg.Record]:
    """The club's members, each with its entries in the club's tournaments (a member without any:
    one line with no tournament)."""
    return await db.fetch(
        f"""SELECT p.id AS player_id, coalesce(p.roster_name, p.name) AS player, p.handle, t.id AS tournament_id,
                   t.name AS tournament,
                   s.rank, coalesce(s.time_left, e.time_left) AS time_left, e.disqualified, {RESULT_COLUMNS}
              FROM club_members m JOIN players p ON p.id = m.player_id
              LEFT JOIN (entries e JOIN tournaments t ON t.id = e.tournament_id AND t.club_id = $1)
                     ON e.player_id = m.player_id AND NOT e.practice
              LEFT JOIN standings s ON s.entry_id = e.id
             WHERE m.club_id = $1 ORDER BY 2, p.id, t.opens_at, t.id""",
        club_id,
    )
