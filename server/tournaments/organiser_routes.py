"""The organiser's HTTP routes (admin token): edit, close, cancel, entries, disqualify, schedules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import msgspec
from litestar import Request, delete, get, patch, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import Parameter

from . import organiser, store
from . import protocol as p
from .fairness import commitment, new_salt
from .openapi import ADMIN, errors
from .routes import (
    MAX_ID,
    _services,
    _tournament,
    admin_guard,
    settings_from,
    strict_body,
    tournament_name,
    tournament_out,
    tournament_times,
)
from .solving import NoWinnableDeal, certify


async def _current(services: Any, tournament_id: int) -> p.Tournament:
    """The tournament as it is now, after an organiser's change."""
    return tournament_out(await _tournament(services, tournament_id))


@patch(
    "/api/tournaments/{tournament_id:int}",
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(400, 401, 403, 404, 409, 415, 422),
)
async def edit_tournament(request: Request[Any, Any, Any], tournament_id: int, data: p.TournamentEdit) -> p.Tournament:
    """Organiser: change a tournament's name, times, settings or seed before it opens.
    Changing the settings or the seed publishes a new commitment."""
    services = _services(request)
    data = await strict_body(request, p.TournamentEdit)
    row = await _tournament(services, tournament_id)
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
        opens_at, _ = tournament_times(data.opens_at or row["opens_at"], None)
        closes_at = opens_at + timedelta(seconds=settings["time_limit"])
    else:
        opens_at, closes_at = tournament_times(data.opens_at or row["opens_at"], data.closes_at or row["closes_at"])
    if data.seed is not None and "\x00" in data.seed:
        raise HTTPException(status_code=400, detail="the seed may not contain a NUL character")
    seed = data.seed if data.seed is not None else row["seed"]
    par = None
    if row["certified"] and (settings != row["settings"] or seed != row["seed"]):
        # A new deal must be certified again: the given seed's, or a freshly drawn one.
        try:
            seed, par = await certify(
                services.solver, settings, data.seed, services.config.solver_seconds, services.config.certify_tries
            )
        except NoWinnableDeal as err:
            raise HTTPException(status_code=422, detail=f"no certified deal: {err}") from None
    salt = new_salt()  # a new commitment, to a new salt as well
    if not await store.edit_tournament(
        services.db, tournament_id, name, settings, seed, salt, commitment(seed, settings, salt), opens_at, closes_at
    ):
        raise HTTPException(status_code=409, detail="the tournament opened meanwhile: it can no longer change")
    if par is not None:
        await store.save_par(services.db, tournament_id, par, replace=True)
    return await _current(services, tournament_id)


@post(
    "/api/tournaments/{tournament_id:int}/close",
    status_code=200,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404, 409),
)
async def close_entries(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    """Organiser: close an open tournament now. No new entry or start; games already running go on."""
    services = _services(request)
    row = await _tournament(services, tournament_id)
    if not await store.close_entries(services.db, tournament_id):
        raise HTTPException(status_code=409, detail=f"the tournament is {row['status']}: only an open one closes")
    services.hub.status_changed(tournament_id, "closing")
    return await _current(services, tournament_id)


@post(
    "/api/tournaments/{tournament_id:int}/cancel",
    status_code=200,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404, 409),
)
async def cancel_tournament(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    """Organiser: cancel. Every game ends now, nothing is ranked, the seed and replays are published."""
    services = _services(request)
    row = await _tournament(services, tournament_id)
    if not await organiser.cancel(services, tournament_id):
        raise HTTPException(status_code=409, detail=f"the tournament is {row['status']}: it cannot be cancelled")
    return await _current(services, tournament_id)


@get(
    "/api/tournaments/{tournament_id:int}/entries",
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(400, 401, 403, 404),
)
async def list_entries(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.OrganiserEntry]:
    """Organiser: the entries in the order they joined, with moves, score, time left and disqualification."""
    services = _services(request)
    await _tournament(services, tournament_id)
    rows = await store.organiser_entries(services.db, tournament_id, offset, limit)
    return [p.OrganiserEntry(**dict(r)) for r in rows]


@post(
    "/api/tournaments/{tournament_id:int}/entries/{entry_id:int}/disqualify",
    status_code=200,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def disqualify(
    request: Request[Any, Any, Any], tournament_id: int, entry_id: int, data: p.Disqualify
) -> p.OrganiserEntry:
    """Organiser: take an entry out of the ranking (live and final) with a reason everyone sees.
    A game still running ends now; its replay stays published."""
    services = _services(request)
    data = await strict_body(request, p.Disqualify)
    reason = data.reason.strip()
    if not reason or not reason.isprintable():
        raise HTTPException(status_code=400, detail="the reason must be printable and not blank")
    await _tournament(services, tournament_id)
    outcome = (
        await organiser.disqualify(services, tournament_id, entry_id, reason) if 0 < entry_id <= MAX_ID else "missing"
    )
    if outcome == "missing":
        raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
    if outcome == "already":
        raise HTTPException(status_code=409, detail=f"entry {entry_id} is already disqualified")
    row = await store.organiser_entry(services.db, entry_id)
    assert row is not None
    return p.OrganiserEntry(**dict(row))


@get("/api/tournaments/{tournament_id:int}/disqualified", responses=errors(404))
async def disqualified(request: Request[Any, Any, Any], tournament_id: int) -> list[p.Disqualified]:
    """The entries taken out of the ranking, with the organiser's reasons."""
    services = _services(request)
    await _tournament(services, tournament_id)
    return [p.Disqualified(**dict(r)) for r in await store.disqualified(services.db, tournament_id)]


@post("/api/schedules", status_code=201, guards=[admin_guard], security=ADMIN, responses=errors(400, 401, 403, 415))
async def create_schedule(request: Request[Any, Any, Any], data: p.ScheduleCreate) -> p.Schedule:
    """Organiser: a recurring tournament (e.g. every day at 20:00 UTC: first_opens_at 20:00, every_minutes 1440).
    Each occurrence's tournament is created ahead_minutes before it opens, once."""
    services = _services(request)
    data = await strict_body(request, p.ScheduleCreate)
    name = tournament_name(data.name)
    settings_from(data.settings)  # checked now; stored as given, filled in by each tournament's creation
    first = data.first_opens_at
    if first.tzinfo is None:
        raise HTTPException(status_code=400, detail="first_opens_at needs a time zone, e.g. 2026-11-22T20:00:00Z")
    if abs((first - datetime.now(UTC)).days) > 366:
        raise HTTPException(status_code=400, detail="first_opens_at must lie within 366 days of now")
    if data.open_minutes > data.every_minutes:
        raise HTTPException(status_code=400, detail="open_minutes may not exceed every_minutes (tournaments overlap)")
    template = {"settings": msgspec.to_builtins(data.settings)}
    row = await store.create_schedule(
        services.db, name, template, first, data.every_minutes, data.open_minutes, data.ahead_minutes
    )
    await organiser.create_scheduled(services, row["id"])
    return await organiser.schedule_out(services, row)


@get("/api/schedules", guards=[admin_guard], security=ADMIN, responses=errors(401, 403))
async def list_schedules(request: Request[Any, Any, Any]) -> list[p.Schedule]:
    """Organiser: every schedule, stopped ones included."""
    services = _services(request)
    return [await organiser.schedule_out(services, r) for r in await store.schedules(services.db)]


@delete(
    "/api/schedules/{schedule_id:int}",
    status_code=200,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def stop_schedule(request: Request[Any, Any, Any], schedule_id: int) -> p.Schedule:
    """Organiser: stop a schedule. Tournaments it already created stay."""
    services = _services(request)
    if not (0 < schedule_id <= MAX_ID and await store.stop_schedule(services.db, schedule_id)):
        raise NotFoundException(f"no schedule {schedule_id}")
    row = await store.schedule(services.db, schedule_id)
    return await organiser.schedule_out(services, row)


ORGANISER_ROUTES = [
    edit_tournament,
    close_entries,
    cancel_tournament,
    list_entries,
    disqualify,
    disqualified,
    create_schedule,
    list_schedules,
    stop_schedule,
]
