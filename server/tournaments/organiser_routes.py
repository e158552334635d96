"""The organiser's HTTP routes (an organiser's token for what it runs, or the admin token): edit,
close, cancel, entries, disqualify, the integrity report."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

import asyncpg
from litestar import Request, get, patch, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import Parameter

from ..communities.identity import OWNER, organiser_guard, require_manage, viewer_of
from ..core import core_of
from ..fairplay import store as fairplay_store
from ..fairplay.commitment import commitment, new_salt
from ..fairplay.integrity import report
from ..fairplay.messages import IntegrityReport
from ..lib.http import printable, strict_body, valid_id
from ..operations.openapi import ORGANISER, errors
from ..play.deals import deal_count
from ..play.runtime import play_of
from ..watch.boards import boards_of
from . import messages as p
from . import organiser, store
from .creation import settings_from, together_times, tournament_name, tournament_out, tournament_times
from .pars import NoWinnableDeal, certify, pars_of
from .routes import find_tournament


async def _current(db: asyncpg.Pool, tournament_id: int) -> p.Tournament:
    """The tournament as it is now, after an organiser's change."""
    return tournament_out(await find_tournament(db, tournament_id), OWNER)


async def managed(request: Request[Any, Any, Any], tournament_id: int) -> asyncpg.Record:
    """The tournament (404), if the caller runs it or organises its club (else 403 ``not your tournament``)."""
    row = await find_tournament(core_of(request).db, tournament_id)
    require_manage(await viewer_of(request), row)
    return row


@patch(
    "/api/tournaments/{tournament_id:int}",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415, 422),
)
async def edit_tournament(request: Request[Any, Any, Any], tournament_id: int, data: p.TournamentEdit) -> p.Tournament:
    """Organiser: change a tournament's name, times, settings or seed before it opens.
    Changing the settings or the seed publishes a new commitment."""
    core = core_of(request)
    row = await managed(request, tournament_id)
    data = await strict_body(request, p.TournamentEdit)
    if row["status"] != "scheduled":
        raise HTTPException(status_code=409, detail=f"the tournament is {row['status']}: only a scheduled one changes")
    settings = settings_from(data.settings) if data.settings is not None else row["settings"]
    name = tournament_name(data.name) if data.name is not None else row["name"]
    if row["start"] == "together":  # one sitting: it closes one time limit after it opens
        if data.closes_at is not None:
            raise HTTPException(
                status_code=400,
                detail="a tournament that starts together closes at opens_at + time_limit: leave closes_at out",
            )
        opens_at, closes_at = together_times(
            data.opens_at or row["opens_at"], settings["time_limit"] * deal_count(settings)
        )
    else:
        opens_at, closes_at = tournament_times(data.opens_at or row["opens_at"], data.closes_at or row["closes_at"])
    if data.seed is not None and "\x00" in data.seed:
        raise HTTPException(status_code=400, detail="the seed may not contain a NUL character")
    seed = data.seed if data.seed is not None else row["seed"]
    par = None
    if row["certified"] and deal_count(settings) > 1:
        raise HTTPException(
            status_code=400, detail="certified goes with one deal: the solver certifies one seed's deal"
        )
    if row["certified"] and (settings != row["settings"] or seed != row["seed"]):
        # A new deal must be certified again: the given seed's, or a freshly drawn one.
        try:
            seed, par = await certify(
                pars_of(request).solver, settings, data.seed, core.config.solver_seconds, core.config.certify_tries
            )
        except NoWinnableDeal as err:
            raise HTTPException(status_code=422, detail=f"no certified deal: {err}") from None
    salt = new_salt()  # a new commitment, to a new salt as well
    if not await store.edit_tournament(
        core.db, tournament_id, name, settings, seed, salt, commitment(seed, settings, salt), opens_at, closes_at
    ):
        raise HTTPException(status_code=409, detail="the tournament opened meanwhile: it can no longer change")
    if par is not None:
        await store.save_par(core.db, tournament_id, par, replace=True)
    return await _current(core.db, tournament_id)


@post(
    "/api/tournaments/{tournament_id:int}/close",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404, 409),
)
async def close_entries(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    """Organiser: close an open tournament now. No new entry or start; games already running go on."""
    db = core_of(request).db
    await managed(request, tournament_id)
    if not await store.close_entries(db, tournament_id):
        now = await _current(db, tournament_id)  # as it is now: it may have opened or finished since it was read
        raise HTTPException(status_code=409, detail=f"the tournament is {now.status}: only an open one closes")
    boards_of(request).status_changed(tournament_id, "closing")
    return await _current(db, tournament_id)


@post(
    "/api/tournaments/{tournament_id:int}/cancel",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404, 409),
)
async def cancel_tournament(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    """Organiser: cancel. Every game ends now, nothing is ranked, the seed and replays are published."""
    db = core_of(request).db
    await managed(request, tournament_id)
    if not await organiser.cancel(db, play_of(request), boards_of(request), tournament_id):
        now = await _current(db, tournament_id)  # it may have finished since it was read
        raise HTTPException(status_code=409, detail=f"the tournament is {now.status}: it cannot be cancelled")
    return await _current(db, tournament_id)


@get(
    "/api/tournaments/{tournament_id:int}/entries",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404),
)
async def list_entries(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.OrganiserEntry]:
    """Organiser: the entries in the order they joined, with moves, score, time left and disqualification."""
    db = core_of(request).db
    await managed(request, tournament_id)
    rows = await store.organiser_entries(db, tournament_id, offset, limit)
    return [p.OrganiserEntry(**dict(r)) for r in rows]


@post(
    "/api/tournaments/{tournament_id:int}/entries/{entry_id:int}/disqualify",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def disqualify(
    request: Request[Any, Any, Any], tournament_id: int, entry_id: int, data: p.Disqualify
) -> p.OrganiserEntry:
    """Organiser: take an entry out of the ranking (live and final) with a reason everyone sees.
    A game still running ends now; its replay stays published."""
    db = core_of(request).db
    await managed(request, tournament_id)
    data = await strict_body(request, p.Disqualify)
    reason = printable(data.reason, "the reason")
    outcome = "missing"
    if valid_id(entry_id):
        outcome = await organiser.disqualify(db, play_of(request), boards_of(request), tournament_id, entry_id, reason)
    if outcome == "missing":
        raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
    if outcome == "already":
        raise HTTPException(status_code=409, detail=f"entry {entry_id} is already disqualified")
    row = await store.organiser_entry(db, entry_id)
    assert row is not None
    return p.OrganiserEntry(**dict(row))


@get("/api/tournaments/{tournament_id:int}/disqualified", responses=errors(404))
async def disqualified(request: Request[Any, Any, Any], tournament_id: int) -> list[p.Disqualified]:
    """The entries taken out of the ranking, with the organiser's reasons."""
    db = core_of(request).db
    await find_tournament(db, tournament_id)
    return [p.Disqualified(**dict(r)) for r in await store.disqualified(db, tournament_id)]


@get(
    "/api/tournaments/{tournament_id:int}/integrity",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404),
)
async def integrity(request: Request[Any, Any, Any], tournament_id: int) -> IntegrityReport:
    """Organiser: shared client addresses, undo peeks and scouting entries, each with its
    evidence. Nothing is done about them: the organiser decides."""
    db = core_of(request).db
    await managed(request, tournament_id)
    tour = await fairplay_store.tournament(db, tournament_id)
    rows = await fairplay_store.integrity_rows(db, tournament_id)
    # Replaying every game is CPU work: off the event loop, so play goes on meanwhile.
    return await asyncio.to_thread(report, tour, rows, datetime.now(UTC))


ROUTES = [edit_tournament, close_entries, cancel_tournament, list_entries, disqualify, disqualified, integrity]
