"""Series over HTTP: creating one (organiser), listing and reading them (anyone), a tournament
joining one (its organiser), and the table, as JSON or CSV, worked out from PostgreSQL on each read."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException
from litestar.params import Parameter

from ...communities.exports import csv_response
from ...communities.identity import Viewer, limit_reached, organiser_guard, require_club_use, viewer_of
from ...core import core_of
from ...lib.http import json_error, printable, strict_body, valid_id
from ...operations.openapi import ORGANISER, errors
from . import messages as m
from . import store
from .access import club_refusal
from .points import Result, table

COLUMNS = ("player_id", "player", "handle", "points", "counted", "played", "best_rank")


def series_out(row: Any, viewer: Viewer) -> m.Series:
    """The series as this caller sees it: an unlisted tournament of it only for those who see it in
    the tournaments' list (its organisers and its club's members)."""
    return m.Series(
        id=row["id"],
        name=row["name"],
        points=row["points"],
        best_of=row["best_of"],
        club=None if row["club_id"] is None else m.ClubRef(id=row["club_id"], name=row["club_name"]),
        organiser=None
        if row["organiser_id"] is None
        else m.OrganiserRef(id=row["organiser_id"], name=row["organiser_name"]),
        tournaments=[t["id"] for t in row["tournaments"] if viewer.sees(t["listed"], t["organiser_id"], t["club_id"])],
    )


async def find_series(db: asyncpg.Pool, series_id: int) -> asyncpg.Record:
    row = await store.series(db, series_id) if valid_id(series_id) else None
    if row is None:
        raise NotFoundException(f"no series {series_id}")
    return row


def require_series(viewer: Viewer, row: Any) -> None:
    if not viewer.manages(row["organiser_id"], row["club_id"]):
        raise PermissionDeniedException("not your series")


@post(
    "/api/series",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 409, 415),
)
async def create_series(request: Request[Any, Any, Any], data: m.SeriesCreate) -> m.Series:
    """Organiser (or the owner): a new series, run by the caller; with ``club`` (one it organises)
    only that club's tournaments join it."""
    core = core_of(request)
    db = core.db
    data = await strict_body(request, m.SeriesCreate)
    name = printable(data.name)
    viewer = await viewer_of(request)
    await require_club_use(db, viewer, data.club)
    most = core.config.series_per_organiser
    series_id = await store.create_series(db, name, data.points, data.best_of, data.club, viewer.organiser_id, most)
    if series_id is None:
        raise limit_reached("series", most)
    return series_out(await find_series(db, series_id), viewer)


@get("/api/series", responses=errors(400))
async def list_series(
    request: Request[Any, Any, Any],
    mine: Annotated[bool, Parameter(query="mine")] = False,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[m.Series]:
    """Series, newest first: those of no club for everyone, a club's for its organisers and members
    (by the bearer token sent, if any); ``?mine=true``: only those the caller runs."""
    viewer = await viewer_of(request)
    clubs = sorted(viewer.organised) if mine else viewer.clubs
    seen = (viewer.owner, not mine, viewer.organiser_id, clubs)
    return [series_out(r, viewer) for r in await store.every_series(core_of(request).db, limit, offset, seen)]


@get("/api/series/{series_id:int}", responses=errors(404))
async def get_series(request: Request[Any, Any, Any], series_id: int) -> m.Series:
    """Anyone: a series, its points rule and its tournaments (an unlisted one only for those who see
    it in the tournaments' list)."""
    return series_out(await find_series(core_of(request).db, series_id), await viewer_of(request))


@post(
    "/api/series/{series_id:int}/tournaments",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def add_tournament(request: Request[Any, Any, Any], series_id: int, data: m.SeriesTournamentAdd) -> m.Series:
    """Organiser of both: a tournament joins the series (409 when it is in a series already, or is
    not of the club of a club's series)."""
    db = core_of(request).db
    row = await find_series(db, series_id)
    viewer = await viewer_of(request)
    require_series(viewer, row)
    data = await strict_body(request, m.SeriesTournamentAdd)
    tour = await store.tournament(db, data.tournament) if valid_id(data.tournament) else None
    if tour is None:
        raise NotFoundException(f"no tournament {data.tournament}")
    if not viewer.manages(tour["organiser_id"], tour["club_id"]):
        raise PermissionDeniedException("not your tournament")
    refusal = club_refusal(row, tour["club_id"])
    if refusal is not None:
        raise HTTPException(status_code=409, detail=refusal)
    if not await store.add_tournament(db, series_id, data.tournament):
        current = await store.tournament(db, data.tournament)
        where = "this series" if current is not None and current["series_id"] == series_id else "another series"
        raise HTTPException(status_code=409, detail=f"tournament {data.tournament} is in {where} already")
    return series_out(await find_series(db, series_id), viewer)


async def standing_rows(db: asyncpg.Pool, series_id: int) -> list[m.SeriesStanding]:
    """The table, worked out now from the stored final standings."""
    row = await find_series(db, series_id)
    results = [
        Result(r["player_id"], r["tournament_id"], r["rank"], r["ranked"]) for r in await store.results(db, series_id)
    ]
    lines = table(row["points"], row["best_of"], results)
    names = await store.players(db, [line.player_id for line in lines])
    return [
        m.SeriesStanding(
            player_id=line.player_id,
            player=names[line.player_id]["name"],
            handle=names[line.player_id]["handle"],
            points=line.points,
            counted=line.counted,
            played=line.played,
            best_rank=line.best_rank,
            profile=names[line.player_id]["profile_public"],
        )
        for line in lines
    ]


@get("/api/series/{series_id:int}/standings", responses=errors(404))
async def standings(request: Request[Any, Any, Any], series_id: int) -> list[m.SeriesStanding]:
    """Anyone: the series' table, from the final standings of its finished tournaments."""
    return await standing_rows(core_of(request).db, series_id)


@get(
    "/api/series/{series_id:int}/standings.csv",
    media_type="text/csv",
    exception_handlers={HTTPException: json_error},
    responses=errors(404),
)
async def standings_csv(request: Request[Any, Any, Any], series_id: int) -> Response[str]:
    """Anyone: the series' table as CSV, the same rows as the JSON in the same order."""
    rows = await standing_rows(core_of(request).db, series_id)
    lines = [[getattr(r, column) for column in COLUMNS] for r in rows]
    return csv_response(COLUMNS, lines, f"series-{series_id}-standings.csv")


ROUTES = [create_series, list_series, get_series, add_tournament, standings, standings_csv]
