"""Matches over HTTP (docs/matches.md): the formats, asking for a match, reading one and one's own,
leaving a seat, and the replays once over."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
from litestar import Request, Response, delete, get, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import Parameter

from ..communities.identity import viewer_of
from ..competitions.rating_scale import provisional, shown
from ..config import MatchFormat
from ..core import core_of
from ..fairplay.limits import limit_guard, limiter_of, too_many
from ..lib.http import json_error, strict_body, valid_id
from ..operations.openapi import PLAYER, errors
from ..players.auth import player_guard
from ..tournaments import store as tournament_store
from ..tournaments.creation import entry_out
from ..tournaments.routes import replay_response
from . import messages as m
from . import store

DONE = "done"  # what others learn of a seat's game that is over, until the match is over
OPEN_RETRY_SECONDS = 60


def _formats(request: Request[Any, Any, Any]) -> dict[str, MatchFormat]:
    return {f.name: f for f in core_of(request).config.match_formats}


def _timing(request: Request[Any, Any, Any]) -> store.Timing:
    c = core_of(request).config
    return store.Timing(
        c.match_band, c.match_band_growth, c.match_start_seconds, c.match_wait_seconds, c.match_open_per_player
    )


def _seat_status(status: str) -> str:
    return {"joined": "waiting", "playing": "playing"}.get(status, DONE)


def match_out(row: asyncpg.Record, seats: list[asyncpg.Record], viewer_id: int | None) -> m.Match:
    """The match as anyone sees it: nothing of a seat's game but waiting, playing or done until it
    is over (its own entry id to the seat's player); then the results, the seed and the salt."""
    over = row["status"] in ("over", "unmatched")
    players = []
    for p in seats:
        rated = over and p["rating_after"] is not None
        players.append(
            m.MatchPlayer(
                seat=p["seat"],
                player_id=p["player_id"],
                player=p["player"],
                rating=p["rating_before"] if rated else p["rating_now"],
                status=p["seat_status"] if over else _seat_status(p["seat_status"]),
                entry_id=p["entry_id"] if over or p["player_id"] == viewer_id else None,
                final_score=p["final_score"] if over else None,
                time_left=p["time_left"] if over else None,
                rank=p["rank"] if row["status"] == "over" else None,
                rating_after=p["rating_after"] if rated else None,
                shown=shown(p["rating_before"] if rated else p["rating_now"]),
                shown_after=shown(p["rating_after"]) if rated else None,
                provisional=provisional(p["games_after"] if rated else p["games_now"]),
            )
        )
    return m.Match(
        id=row["id"],
        format=row["format"],
        seats=row["seats"],
        status=row["status"],
        settings=row["settings"],
        commitment=row["commitment"],
        created_at=row["created_at"],
        over_at=row["over_at"],
        seed=row["seed"] if over else None,
        salt=row["salt"] if over else None,
        tournament_id=row["tournament_id"],
        players=players,
    )


async def find_match(db: asyncpg.Pool, match_id: int) -> tuple[asyncpg.Record, list[asyncpg.Record]]:
    """The match and its seats; 404 when there is none."""
    found = await store.match(db, match_id) if valid_id(match_id) else None
    if found is None:
        raise NotFoundException(f"no match {match_id}")
    return found


@get("/api/matches/formats", responses=errors())
async def formats(request: Request[Any, Any, Any]) -> list[m.MatchFormatOut]:
    """Anyone: the formats matches are played in, each with its matches waiting (a free seat) and playing."""
    counts = await store.counts(core_of(request).db)
    return [
        m.MatchFormatOut(f.name, f.settings, f.seats, f.rated, *counts.get(f.name, (0, 0)))
        for f in core_of(request).config.match_formats
    ]


@post(
    "/api/matches",
    status_code=201,
    security=PLAYER,
    guards=[player_guard, limit_guard("join")],
    responses=errors(400, 401, 415, 429),
)
async def ask(request: Request[Any, Any, Any]) -> m.MatchSeat:
    """Player (guests too): ``{"format": NAME}``: a seat in the oldest waiting match of the format
    whose players all lie within the caller's rating band, else a new match it hosts (seat 1). Play it
    over ``/ws/play/{entry.id}`` at once. 429 past MATCH_OPEN_PER_PLAYER matches not over, or past the
    address's join allowance."""
    db = core_of(request).db
    player = request.state.player  # player_guard's: 401 before anything else is read
    body = await strict_body(request, m.MatchAsk)
    fmt = _formats(request).get(body.format)
    if fmt is None:
        names = ", ".join(_formats(request))
        raise HTTPException(status_code=400, detail=f"no format {body.format[:60]!r}: one of {names}")
    timing = _timing(request)
    address = limiter_of(request).address_hash(request)
    try:
        seated = await store.ask(db, fmt, player["id"], address, timing)
    except store.OpenLimit:
        raise too_many(
            OPEN_RETRY_SECONDS,
            f"you hold {timing.open_per_player} matches not over, the most one may (MATCH_OPEN_PER_PLAYER): "
            "play or leave one first",
        ) from None
    seat = seated.seat
    if seated.commitment is not None:  # a new match: all it holds is known (read as GET would read it)
        return m.MatchSeat(match=_opened(fmt, seated, player["id"]), entry=entry_out(seat))
    row, seats = await find_match(db, seat["match_id"])
    return m.MatchSeat(match=match_out(row, seats, player["id"]), entry=entry_out(seat))


def _opened(fmt: MatchFormat, seated: store.Seated, player_id: int) -> m.Match:
    """A match just opened, as ``match_out`` shows it to its host: waiting, the host alone in seat 1."""
    seat = seated.seat
    assert seated.commitment is not None
    host = m.MatchPlayer(
        seat=1,
        player_id=player_id,
        player=seat["player"],
        rating=seated.rating,
        status="waiting",
        entry_id=seat["id"],
        shown=shown(seated.rating),
    )
    return m.Match(
        id=seat["match_id"],
        format=fmt.name,
        seats=fmt.seats,
        status="waiting",
        settings=fmt.settings,
        commitment=seated.commitment,
        created_at=seat["created_at"],
        over_at=None,
        seed=None,
        salt=None,
        tournament_id=seat["tournament_id"],
        players=[host],
    )


@get("/api/matches/{match_id:int}", responses=errors(404))
async def get_match(request: Request[Any, Any, Any], match_id: int) -> m.Match:
    """Anyone: a match, its players and, once over, their results, the seed and the salt."""
    db = core_of(request).db
    row, seats = await find_match(db, match_id)
    return match_out(row, seats, (await viewer_of(request)).player_id)


@get("/api/me/matches", security=PLAYER, guards=[player_guard], responses=errors(400, 401))
async def my_matches(
    request: Request[Any, Any, Any],
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
) -> list[m.Match]:
    """Player: my matches, newest first, a page at a time (?offset=0&limit=50)."""
    db = core_of(request).db
    player = request.state.player  # player_guard's: 401 before anything else is read
    return [
        match_out(row, seats, player["id"])
        for row, seats in await store.matches_of_player(db, player["id"], offset, limit)
    ]


@get(
    "/api/matches/{match_id:int}/replays",
    media_type="application/x-ndjson",
    exception_handlers={HTTPException: json_error},
    responses=errors(403, 404),
)
async def replays(request: Request[Any, Any, Any], match_id: int) -> Response[bytes]:
    """Once over (or unmatched): every seat's game as docs/replay.md lines, as a tournament's replays."""
    db = core_of(request).db
    row, _ = await find_match(db, match_id)
    tour = await tournament_store.tournament(db, row["tournament_id"])
    if tour is None or row["status"] not in ("over", "unmatched"):
        raise HTTPException(status_code=403, detail="replays are published when the match is over")
    return await replay_response(db, tour)


@delete(
    "/api/matches/{match_id:int}/seat",
    status_code=204,
    security=PLAYER,
    guards=[player_guard],
    responses=errors(401, 404, 409),
)
async def leave(request: Request[Any, Any, Any], match_id: int) -> None:
    """The seat's player: give the seat up before its game started (a match left with no seat is
    removed); 409 once started."""
    db = core_of(request).db
    player = request.state.player  # player_guard's: 401 before anything else is read
    done = (
        await store.leave(db, match_id, player["id"], core_of(request).config.match_wait_seconds)
        if valid_id(match_id)
        else "missing"
    )
    if done == "missing":
        raise NotFoundException(f"you have no seat in a match {match_id} not over")
    if done == "started":
        raise HTTPException(status_code=409, detail="your game in this match has started: the seat is kept")


ROUTES = [formats, ask, get_match, my_matches, replays, leave]
