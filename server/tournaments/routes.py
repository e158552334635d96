"""The tournaments over HTTP: creating one (organiser), listing and reading them, and, after the
finish, their standings, replays and par."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
import msgspec
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException
from litestar.params import Parameter

from spidertour.engine import Settings
from spidertour.engine.solver import cut_at_time_limit

from ..communities.identity import organiser_guard, require_club_use, viewer_of
from ..competitions.deals import replay_lines
from ..competitions.series.access import require_series_use
from ..core import core_of
from ..lib.http import json_error, strict_body, valid_id
from ..operations.openapi import ORGANISER, errors
from ..play.deals import deal_count
from ..watch.store import standings as standing_rows
from . import messages as p
from . import store
from .creation import create_tournament, tournament_out
from .pars import pars_of

TIME_UP = ("timed_out", "absent")  # entries whose game the clock ended, not a move
STATUSES = ("scheduled", "open", "closing", "finished", "cancelled")  # what ?status= may ask for


def status_filter(request: Request[Any, Any, Any]) -> str | None:
    """The ``?status=`` asked for (None: every one); 400 naming the statuses for any other value, or
    for several."""
    given = request.query_params.getall("status", [])
    if not given:
        return None
    allowed = ", ".join(STATUSES)
    if len(given) > 1:
        raise HTTPException(status_code=400, detail=f"status takes one value, one of {allowed}")
    if given[0] not in STATUSES:
        raise HTTPException(status_code=400, detail=f"status must be one of {allowed}, not {given[0][:40]!r}")
    return str(given[0])


async def find_tournament(db: asyncpg.Pool, tournament_id: int) -> asyncpg.Record:
    """The tournament's row, or 404."""
    row = await store.tournament(db, tournament_id) if valid_id(tournament_id) else None
    if row is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    return row


@post(
    "/api/tournaments",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 415, 422),
)
async def post_tournament(request: Request[Any, Any, Any], data: p.TournamentCreate) -> p.Tournament:
    """Organiser (its token, or the admin token): create a tournament, run by the caller. With
    ``club`` (one the caller organises) only its members may join; with ``entry_code`` the join
    takes the code. The response shows the commitment, never the seed."""
    core = core_of(request)
    body = await strict_body(request, p.TournamentCreate)
    viewer = await viewer_of(request)
    await require_club_use(core.db, viewer, body.club)
    await require_series_use(core.db, viewer, body.series, body.club)
    created = await create_tournament(core.db, pars_of(request).solver, core.config, body, None, viewer.organiser_id)
    assert created is not None
    return created


@get("/api/tournaments", responses=errors(400))
async def list_tournaments(
    request: Request[Any, Any, Any],
    status: Annotated[str | None, Parameter(query="status", description=f"one of {', '.join(STATUSES)}")] = None,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.Tournament]:
    """Tournaments, newest first, a page at a time (?offset=0&limit=100);
    ?status=scheduled|open|closing|finished|cancelled to filter. Unlisted ones only for their
    organisers and their club's members (by the bearer token sent, if any)."""
    status = status_filter(request)
    viewer = await viewer_of(request)
    seen = (viewer.owner, viewer.organiser_id, viewer.clubs)
    rows = await store.tournaments(core_of(request).db, status, limit, offset, seen)
    return [tournament_out(r, viewer) for r in rows]


@get("/api/tournaments/{tournament_id:int}", responses=errors(404))
async def get_tournament(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    """Anyone, listed or not: a link to an unlisted tournament can be shared. Its entry code only
    for its organisers."""
    row = await find_tournament(core_of(request).db, tournament_id)
    return tournament_out(row, await viewer_of(request))


@get("/api/tournaments/{tournament_id:int}/standings", responses=errors(400, 404))
async def standings(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.Standing]:
    """Standings from PostgreSQL: final once the tournament is finished, else the running order."""
    db = core_of(request).db
    tour = await find_tournament(db, tournament_id)
    if tour["status"] == "cancelled":  # nothing is ranked
        return []
    rows = await standing_rows(db, tournament_id, offset, limit)
    return [standing_out(dict(r)) for r in rows]


def standing_out(record: dict[str, Any]) -> p.Standing:
    """A row of the standings, with its team (a club) in a team battle, and its matchpoints where the
    tournament scores by them (left out otherwise); ``profile``: whether anyone may read the player's profile."""
    team_id, team_name = record.pop("team_id", None), record.pop("team_name", None)
    record["profile"] = bool(record.pop("profile_public", True))
    if record.get("matchpoints") is None:
        record.pop("matchpoints", None)
    return p.Standing(**record, team=None if team_id is None else p.ClubRef(id=team_id, name=team_name or ""))


@get(
    "/api/tournaments/{tournament_id:int}/replays",
    media_type="application/x-ndjson",
    exception_handlers={HTTPException: json_error},
    responses=errors(403, 404),
)
async def replays(request: Request[Any, Any, Any], tournament_id: int) -> Response[bytes]:
    """After the finish: every entry's game as docs/replay.md input lines (pipe into `spidertour replay`)."""
    db = core_of(request).db
    tour = await find_tournament(db, tournament_id)
    if tour["status"] not in ("finished", "cancelled"):
        raise HTTPException(status_code=403, detail="replays are published when the tournament is finished")
    return await replay_response(db, tour)


async def replay_response(db: asyncpg.Pool, tour: asyncpg.Record) -> Response[bytes]:
    """A finished tournament's replays (a match's too: docs/matches.md), one docs/replay.md line a game."""
    return ndjson(await game_lines(db, tour))


def ndjson(lines: list[bytes]) -> Response[bytes]:
    return Response(b"\n".join(lines) + (b"\n" if lines else b""), media_type="application/x-ndjson")


async def game_lines(db: asyncpg.Pool, tour: asyncpg.Record, extra: dict[str, Any] | None = None) -> list[bytes]:
    """A finished tournament's games as docs/replay.md lines, each with ``extra``'s fields (a bracket's
    game: its ``round``)."""
    tournament_id = tour["id"]
    if deal_count(tour["settings"]) > 1:  # one line per entry and deal (docs/competitions.md)
        return await replay_lines(db, tour)
    lines = []
    time_limit = tour["settings"]["time_limit"]
    for r in await store.replays(db, tournament_id):
        moves = r["moves"]
        if r["status"] in TIME_UP:
            # Not ended by its own moves: the clock ended it (or it never started). docs/replay.md ends a
            # game by time at the first move timed at the limit, so this closing mark lets the
            # engine alone score it as the server did (TR = 0); the mark itself is rejected.
            moves = [*moves, {"type": "end", "t": time_limit}]
        game = {
            **tour["settings"],
            "seed": tour["seed"],
            "entry": r["ordinal"],  # docs/replay.md: which renamed deal the entry played (with deal_variation)
            "moves": moves,
            "entry_id": r["entry_id"],
            "player": r["player"],
            "status": r["status"],
            "final_score": r["final_score"],
        }
        if r["disqualified"] is not None:
            game["disqualified"] = r["disqualified"]
        lines.append(msgspec.json.encode({**game, **(extra or {})}))
    return lines


@get("/api/tournaments/{tournament_id:int}/par", responses=errors(403, 404))
async def get_par(request: Request[Any, Any, Any], tournament_id: int) -> dict[str, Any]:
    """After the finish: the solver's line as a docs/replay.md game (pipe into `spidertour replay`)."""
    db = core_of(request).db
    tour = await find_tournament(db, tournament_id)
    if tour["status"] not in ("finished", "cancelled"):
        raise PermissionDeniedException("the par is published when the tournament is finished")
    par = await store.par(db, tournament_id)
    if par is None:
        raise NotFoundException("the par is still being worked out: try again in a few seconds")
    # A line too long for the time limit at its pace is published as far as the clock lets it be played
    # (then an "end" at the limit, like any game the clock ended): its replay scores the par.
    moves = cut_at_time_limit(par["moves"], Settings.from_json(tour["settings"]).time_limit)
    game: dict[str, Any] = {**tour["settings"], "seed": tour["seed"], "moves": moves}
    if par["entry"] is not None:
        game["entry"] = par["entry"]
    if deal_count(tour["settings"]) > 1:  # the par of several deals is deal 1's
        game["deal"] = 1
    game.update(
        outcome=par["outcome"],
        final_score=par["final_score"],
        pace=par["pace"],
        in_time=par["in_time"],
        line_moves=len(par["moves"]),
        nodes=par["nodes"],
    )
    return game


ROUTES = [post_tournament, list_tournaments, get_tournament, standings, replays, get_par]
