"""A class's progress (``GET /api/clubs/{id}/progress``, its club's organisers): per member, the
games it played in each game ("variant/suits"), its best and last final score there, its rating
and the rating's change over the last 30 days, and when it was last seen; as JSON or CSV.

Counted: the member's entries whose game is over (a final score), in any tournament, match or
bracket not cancelled, practice games and disqualified entries left out. ``last``: the final score
of the game it started last. The change is the rating now less the rating before the first rated
tournament of the game that finished within the 30 days (0 when none did). ``last_seen``: its
latest sign-in or game started."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import asyncpg
from litestar import Request, Response, get
from litestar.exceptions import HTTPException
from litestar.params import Parameter
from msgspec import Struct

from ..communities.clubs import managed_club
from ..communities.exports import csv_response
from ..communities.identity import organiser_guard
from ..core import core_of
from ..lib.http import json_error
from ..operations.openapi import ORGANISER, errors
from .rating_scale import provisional, shown_of
from .rating_store import Rating
from .ratings import ordinal

WINDOW_DAYS = 30
GAME_SQL = "(t.settings->>'variant') || '/' || (t.settings->>'suits')"
PROGRESS_SQL = f"""
WITH members AS (
    SELECT p.id, coalesce(p.roster_name, p.name) AS name, p.handle,
           greatest((SELECT max(s.created_at) FROM sessions s WHERE s.player_id = p.id),
                    (SELECT max(e.started_at) FROM entries e WHERE e.player_id = p.id)) AS last_seen
      FROM club_members m JOIN players p ON p.id = m.player_id WHERE m.club_id = $1
),
games AS (
    SELECT e.player_id, {GAME_SQL} AS game, count(*) AS played, max(e.final_score) AS best,
           (array_agg(e.final_score ORDER BY e.started_at DESC NULLS LAST, e.id DESC))[1] AS last
      FROM entries e JOIN tournaments t ON t.id = e.tournament_id
     WHERE e.player_id IN (SELECT id FROM members) AND NOT e.practice AND e.disqualified IS NULL
       AND e.final_score IS NOT NULL AND t.cancelled_at IS NULL
     GROUP BY 1, 2
)
SELECT m.id AS player_id, m.name, m.handle, m.last_seen, g.game, g.played, g.best, g.last, r.mu, r.sigma,
       r.games AS rated, b.mu_before, b.sigma_before
  FROM members m
  LEFT JOIN games g ON g.player_id = m.id
  LEFT JOIN ratings r ON r.player_id = m.id AND r.game = g.game
  LEFT JOIN LATERAL (
        SELECT h.mu_before, h.sigma_before FROM rating_history h JOIN tournaments t ON t.id = h.tournament_id
         WHERE h.player_id = m.id AND h.game = g.game AND t.finished_at >= now() - interval '{WINDOW_DAYS} days'
         ORDER BY t.finished_at, t.id LIMIT 1) b ON true
 ORDER BY m.name, m.id, g.game"""


class GameProgress(Struct):
    """One game ("variant/suits") of a member: ``rating`` the ordinal (null: never rated in it),
    ``rating_change`` over the last 30 days; ``shown`` and ``shown_change`` the same as shown
    (rating_scale: a whole number, 1,000 for a new player), ``provisional`` under 5 rated games."""

    game: str
    played: int
    best: int
    last: int
    rating: float | None
    rating_change: float | None
    shown: int | None = None
    shown_change: int | None = None
    provisional: bool = False


class MemberProgress(Struct):
    player_id: int
    name: str  # in full, as the club knows it
    handle: str | None
    played: int  # games over, every game together
    last_seen: datetime | None  # its latest sign-in or game started; null: never
    games: list[GameProgress]


class ClassProgress(Struct):
    club_id: int
    members: list[MemberProgress]


CSV_COLUMNS = (
    "player_id",
    "name",
    "handle",
    "game",
    "played",
    "best",
    "last",
    "rating",
    "rating_change_30d",
    "last_seen",
)


def _rating(mu: float | None, sigma: float | None) -> float | None:
    return None if mu is None or sigma is None else round(ordinal(Rating(mu, sigma, 0)), 2)


def _game(row: asyncpg.Record) -> GameProgress:
    now = _rating(row["mu"], row["sigma"])
    before = _rating(row["mu_before"], row["sigma_before"])
    change = None if now is None else round(now - before, 2) if before is not None else 0.0
    if row["mu"] is None:
        return GameProgress(row["game"], row["played"], row["best"], row["last"], now, change)
    after = shown_of(row["mu"], row["sigma"])
    was = after if row["mu_before"] is None else shown_of(row["mu_before"], row["sigma_before"])
    return GameProgress(
        row["game"], row["played"], row["best"], row["last"], now, change, after, after - was, provisional(row["rated"])
    )


async def class_progress(db: asyncpg.Pool, club_id: int) -> ClassProgress:
    members: dict[int, MemberProgress] = {}
    for row in await db.fetch(PROGRESS_SQL, club_id):
        member = members.get(row["player_id"])
        if member is None:
            member = MemberProgress(row["player_id"], row["name"], row["handle"], 0, row["last_seen"], [])
            members[row["player_id"]] = member
        if row["game"] is not None:
            member.games.append(_game(row))
            member.played += row["played"]
    return ClassProgress(club_id, list(members.values()))


def _csv_lines(progress: ClassProgress) -> list[list[Any]]:
    """One line per member and game; a member with no game over: one line with the game's cells empty."""
    lines: list[list[Any]] = []
    for m in progress.members:
        seen = "" if m.last_seen is None else m.last_seen.isoformat()
        games: list[list[Any]] = [[g.game, g.played, g.best, g.last, g.rating, g.rating_change] for g in m.games] or [
            ["", 0, None, None, None, None]
        ]
        for cells in games:
            lines.append([m.player_id, m.name, m.handle, *("" if c is None else c for c in cells), seen])
    return lines


@get(
    "/api/clubs/{club_id:int}/progress",
    guards=[organiser_guard],
    security=ORGANISER,
    exception_handlers={HTTPException: json_error},
    responses=errors(400, 401, 403, 404),
)
async def get_progress(
    request: Request[Any, Any, Any],
    club_id: int,
    output: Annotated[Literal["json", "csv"], Parameter(query="format")] = "json",
) -> Response[Any]:
    """A club's organiser: each member's games, best and last scores per game, rating and its change
    over the last 30 days, and when it was last seen (``?format=csv``: one line per member and game)."""
    await managed_club(request, club_id)
    progress = await class_progress(core_of(request).db, club_id)
    if output == "csv":
        return csv_response(CSV_COLUMNS, _csv_lines(progress), f"club-{club_id}-progress.csv")
    return Response(progress, headers={"Cache-Control": "no-store"})


ROUTES = [get_progress]
