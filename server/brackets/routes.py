"""Brackets over HTTP (docs/matches.md, Knockout brackets): creating one (organiser), listing and
reading them, joining one, and the replays once finished."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import Parameter

from ..communities.identity import Viewer, organiser_guard, require_club_use, viewer_of
from ..competitions.series.access import require_series_use
from ..competitions.teams import team_shape
from ..core import core_of
from ..fairplay.commitment import commitment, new_salt, new_seed
from ..fairplay.limits import limit_guard, limiter_of
from ..lib.http import json_error, strict_body, valid_id
from ..operations.openapi import ORGANISER, PLAYER, errors
from ..play.deals import deal_count
from ..players.auth import require_player
from ..tournaments import messages as p
from ..tournaments import store as tournament_store
from ..tournaments.creation import access_of, checked, entry_out
from ..tournaments.entries import check_access, join_body
from ..tournaments.routes import game_lines, ndjson
from . import messages as m
from . import store

FINISHED = ("finished", "cancelled")


async def find_bracket(db: asyncpg.Pool, bracket_id: int) -> asyncpg.Record:
    """The bracket's row, or 404."""
    row = await store.bracket(db, bracket_id) if valid_id(bracket_id) else None
    if row is None:
        raise NotFoundException(f"no bracket {bracket_id}")
    return row


def _player(row: asyncpg.Record, side: str, shown: bool) -> m.BracketPlayer:
    return m.BracketPlayer(
        player_id=row[f"player{side}_id"],
        player=row[f"player{side}"],
        seed=row[f"seed{side}"],
        entry_id=row[f"entry{side}_id"],
        final_score=row[f"final_score{side}"] if shown else None,
        time_left=row[f"time_left{side}"] if shown else None,
    )


def rounds_out(pairings: list[asyncpg.Record]) -> list[m.BracketRound]:
    """The rounds so far; a round's scores once every pairing of it is decided."""
    by_round: dict[int, list[asyncpg.Record]] = {}
    for row in pairings:
        by_round.setdefault(row["round"], []).append(row)
    out = []
    for number, rows in sorted(by_round.items()):
        over = all(r["decided"] for r in rows)
        out.append(
            m.BracketRound(
                round=number,
                starts_at=rows[0]["starts_at"],
                pairings=[
                    m.BracketPairing(
                        players=[_player(r, side, over) for side in "12" if r[f"player{side}_id"] is not None],
                        winner=r["winner_player_id"],
                    )
                    for r in rows
                ],
            )
        )
    return out


def bracket_out(row: asyncpg.Record, pairings: list[asyncpg.Record], viewer: Viewer | None = None) -> m.Bracket:
    """The bracket as ``viewer`` sees it: the seed and salt once over, the entry code for its organisers."""
    over = row["bracket_status"] in FINISHED
    manages = viewer is not None and viewer.manages(row["organiser_id"], row["club_id"])
    return m.Bracket(
        id=row["id"],
        name=row["name"],
        status=row["bracket_status"],
        settings=row["settings"],
        commitment=row["commitment"],
        opens_at=row["opens_at"],
        break_seconds=row["break_seconds"],
        rated=row["pairings_rated"],
        seed=row["seed"] if over else None,
        salt=row["salt"] if over else None,
        entrants=row["entrants"],
        size=row["size"],
        rounds=rounds_out(pairings),
        champion=None if row["champion_id"] is None else m.Champion(row["champion_id"], row["champion"]),
        finished_at=row["finished_at"],
        organiser=None
        if row["organiser_id"] is None
        else p.OrganiserRef(id=row["organiser_id"], name=row["organiser_name"]),
        club=None if row["club_id"] is None else p.ClubRef(id=row["club_id"], name=row["club_name"]),
        listed=row["listed"],
        entry_code_needed=row["entry_code"] is not None,
        entry_code=row["entry_code"] if manages else None,
        rating_min=row["rating_min"],
        rating_max=row["rating_max"],
        series=row["series_id"],
        disqualified=row["disqualified"],
    )


async def current(db: asyncpg.Pool, bracket_id: int, viewer: Viewer | None) -> m.Bracket:
    return bracket_out(await find_bracket(db, bracket_id), await store.pairings(db, bracket_id), viewer)


def as_tournament(body: m.BracketCreate) -> p.TournamentCreate:
    """The bracket's own tournament: it takes entries until ``opens_at`` (as one that starts
    together) and is never rated itself (each pairing's game is, when the bracket is rated)."""
    return p.TournamentCreate(
        name=body.name,
        settings=body.settings,
        opens_at=body.opens_at,
        start="together",
        club=body.club,
        entry_code=body.entry_code,
        listed=body.listed,
        rated=False,
        rating_min=body.rating_min,
        rating_max=body.rating_max,
        series=body.series,
    )


def one_deal(settings: dict[str, Any]) -> None:
    if deal_count(settings) > 1:
        raise HTTPException(
            status_code=400, detail="settings: a bracket's pairings play one deal each: leave deals out"
        )


@post(
    "/api/brackets",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 415),
)
async def create_bracket(request: Request[Any, Any, Any]) -> m.Bracket:
    """Organiser (its token, or the admin token): create a knockout bracket, run by the caller, with a
    tournament's checks (settings, name, times, club, entry code, rating limits, series). The answer
    shows the commitment, never the seed."""
    core = core_of(request)
    body = await strict_body(request, m.BracketCreate)
    viewer = await viewer_of(request)
    await require_club_use(core.db, viewer, body.club)
    await require_series_use(core.db, viewer, body.series, body.club)
    data = as_tournament(body)
    settings, name, opens_at, closes_at = checked(data)
    one_deal(settings)
    seed, salt = new_seed(), new_salt()
    bracket_id = await tournament_store.create_tournament(
        core.db,
        name,
        settings,
        seed,
        salt,
        commitment(seed, settings, salt),
        opens_at,
        closes_at,
        start="together",
        access=access_of(data, viewer.organiser_id),
        series_id=body.series,
        kind="bracket",
    )
    assert bracket_id is not None  # no schedule: always made
    await store.create(core.db, bracket_id, body.break_seconds, body.rated)
    return await current(core.db, bracket_id, viewer)


@get("/api/brackets", responses=errors(400))
async def list_brackets(
    request: Request[Any, Any, Any],
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
) -> list[m.Bracket]:
    """Brackets, newest first, a page at a time (?offset=0&limit=50): the listed ones, and the unlisted
    ones the caller organises or whose club it belongs to."""
    db = core_of(request).db
    viewer = await viewer_of(request)
    rows = await store.brackets(db, limit, offset, (viewer.owner, viewer.organiser_id, viewer.clubs))
    return [bracket_out(r, await store.pairings(db, r["id"]), viewer) for r in rows]


@get("/api/brackets/{bracket_id:int}", responses=errors(404))
async def get_bracket(request: Request[Any, Any, Any], bracket_id: int) -> m.Bracket:
    """Anyone, listed or not (a link to an unlisted bracket can be shared): the bracket, its rounds and
    pairings (scores once a round is over), its champion; the seed and salt once it is finished."""
    return await current(core_of(request).db, bracket_id, await viewer_of(request))


@post(
    "/api/brackets/{bracket_id:int}/entries",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join")],
    responses=errors(400, 401, 403, 404, 409, 415, 429),
)
async def join(request: Request[Any, Any, Any], bracket_id: int) -> p.Entry:
    """Player: join a bracket until its ``opens_at``, with a tournament's rules and refusals (a club's
    members only, the entry code as ``{"entry_code": "..."}``, rating limits: 403 saying what is
    missing; 409 once it opened or for a second entry; 429 past the address's join allowance). Its
    games are announced on ``GET /api/me/entries`` as the rounds come."""
    db = core_of(request).db
    player = await require_player(request)
    body = await join_body(request)
    row = await find_bracket(db, bracket_id)
    team_shape(None, body.team, bracket_id)
    await check_access(request, row, player["id"], body.entry_code)
    if row["bracket_status"] != "scheduled":
        raise HTTPException(
            status_code=409,
            detail=f"the bracket is {row['bracket_status']}: entries were taken until {row['opens_at'].isoformat()}",
        )
    address = limiter_of(request).address_hash(request)
    try:
        entry_id = await tournament_store.join(db, bracket_id, player["id"], address)
    except tournament_store.JoinRefused as err:
        why = str(err).replace("tournament", "bracket")
        if why == "entries are closed":
            why = f"entries were taken until {row['opens_at'].isoformat()}: the bracket is seeded"
        raise HTTPException(status_code=409, detail=why) from None
    entry = await tournament_store.entry(db, entry_id)
    assert entry is not None
    return entry_out(entry)


@get(
    "/api/brackets/{bracket_id:int}/replays",
    media_type="application/x-ndjson",
    exception_handlers={HTTPException: json_error},
    responses=errors(403, 404),
)
async def replays(request: Request[Any, Any, Any], bracket_id: int) -> Response[bytes]:
    """Once finished (or cancelled): every game of every round as docs/replay.md lines, each with its
    ``round`` (pipe into ``spidertour replay``)."""
    db = core_of(request).db
    row = await find_bracket(db, bracket_id)
    if row["bracket_status"] not in FINISHED:
        raise HTTPException(status_code=403, detail="replays are published when the bracket is finished")
    lines: list[bytes] = []
    for game in await store.games(db, bracket_id):
        tour = await tournament_store.tournament(db, game["tournament_id"])
        if tour is not None and game["over"]:
            lines += await game_lines(db, tour, {"round": game["round"], "bracket_id": bracket_id})
    return ndjson(lines)


ROUTES = [create_bracket, list_brackets, get_bracket, join, replays]
