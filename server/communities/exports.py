"""Exports as CSV (Python's csv module, cells a spreadsheet would run quoted: lib.csv_cells): a
tournament's standings, and a club's members with their results in the club's tournaments."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException

from spidertour.engine import EngineError, Settings

from ..core import core_of
from ..lib.csv_cells import csv_text
from ..lib.http import json_error, valid_id
from ..operations.openapi import ORGANISER, errors
from ..play.deals import deal_count, scoring_of
from ..storage.sql import RANK_ORDER
from . import store
from .clubs import managed_club
from .identity import organiser_guard, viewer_of

STANDINGS = (
    "rank",
    "player",
    "handle",
    "club",
    "score",
    "free_column_bonus",
    "time_bonus",
    "final_score",
    "outcome",
    "moves",
    "time_left",
)
# A club's results: a disqualified entry has no rank, and says why in ``disqualified`` (the reason).
RESULTS = ("player_id", "tournament_id", "tournament", *STANDINGS[:2], "handle", *STANDINGS[4:], "disqualified")


def bonuses(row: Any) -> tuple[int | str, int | str]:
    """(free-column bonus, time bonus) of an ended game, by docs/rules.md; blank while it runs."""
    if row["final_score"] is None or deal_count(row["settings"]) > 1:  # a total of several deals: no one game's
        return "", ""
    try:
        to_win = Settings.from_json(row["settings"]).rules.sequences_to_win
    except (EngineError, AttributeError, TypeError):
        to_win = 0
    time_bonus = (row["time_left"] or 0) * row["sequences"] // to_win if to_win else 0
    return row["final_score"] - row["score"] - time_bonus, time_bonus


def result_cells(row: Any) -> list[Any]:
    free_column, time_bonus = bonuses(row)
    return [
        row["score"],
        free_column,
        time_bonus,
        "" if row["final_score"] is None else row["final_score"],
        row["outcome"],
        row["moves"],
        "" if row["time_left"] is None else row["time_left"],
    ]


def disqualified(reason: str | None) -> str:
    """The ``disqualified`` cell: the organiser's reason, ``yes`` when it gave none; empty if not."""
    if reason is None:
        return ""
    return reason.strip() or "yes"


def csv_response(header: tuple[str, ...], lines: list[list[Any]], filename: str) -> Response[str]:
    return Response(
        csv_text(header, lines),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


@get(
    "/api/tournaments/{tournament_id:int}/standings.csv",
    media_type="text/csv",
    security=[*ORGANISER, {}],
    exception_handlers={HTTPException: json_error},
    responses=errors(403, 404),
)
async def standings_csv(request: Request[Any, Any, Any], tournament_id: int) -> Response[str]:
    """The standings as CSV, in rank order. Public once finished; while it runs, its organisers only."""
    db = core_of(request).db
    tour = await store.export_tournament(db, tournament_id) if valid_id(tournament_id) else None
    if tour is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    viewer = await viewer_of(request)
    if tour["cancelled"]:
        rows = []
    elif tour["finished"]:
        rows = await store.final_rows(db, tournament_id, viewer.manages(tour["organiser_id"], tour["club_id"]))
    else:
        if not viewer.manages(tour["organiser_id"], tour["club_id"]):
            raise PermissionDeniedException(
                "the standings are exported for everyone once the tournament is finished; "
                "until then for its organisers only (not your tournament)"
            )
        rows = await store.live_rows(db, tournament_id, RANK_ORDER)
    lines = [[r["rank"], r["player"], r["handle"], r["club"], *result_cells(r)] for r in rows]
    if scoring_of(tour["settings"]) == "matchpoints":  # several deals scored as duplicate bridge: one more column
        points = [r["matchpoints"] if tour["finished"] else None for r in rows]
        lines = [[*line, "" if mp is None else f"{mp:g}"] for line, mp in zip(lines, points, strict=True)]
        return csv_response((*STANDINGS, "matchpoints"), lines, f"tournament-{tournament_id}-standings.csv")
    return csv_response(STANDINGS, lines, f"tournament-{tournament_id}-standings.csv")


@get(
    "/api/clubs/{club_id:int}/results.csv",
    media_type="text/csv",
    guards=[organiser_guard],
    security=ORGANISER,
    exception_handlers={HTTPException: json_error},
    responses=errors(401, 403, 404),
)
async def club_results(request: Request[Any, Any, Any], club_id: int) -> Response[str]:
    """A club's organiser: every member with its results in the club's tournaments (rank once finished;
    a disqualified entry has none, and its reason in ``disqualified``)."""
    await managed_club(request, club_id)
    rows = await store.club_results(core_of(request).db, club_id)
    lines = []
    for r in rows:
        entry = (
            [r["rank"], r["player"], r["handle"], *result_cells(r), disqualified(r["disqualified"])]
            if r["tournament_id"]
            else ["", r["player"], r["handle"], *[""] * 8]
        )
        lines.append([r["player_id"], r["tournament_id"], r["tournament"], *entry])
    return csv_response(RESULTS, lines, f"club-{club_id}-results.csv")


ROUTES = [standings_csv, club_results]
