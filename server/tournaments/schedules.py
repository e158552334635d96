"""Schedules: recurring tournaments. An occurrence opens at ``first_opens_at + k * every_minutes``
and is created ``ahead_minutes`` before, exactly once however many server processes look (the
database's unique (schedule, occurrence) decides); the organiser's routes to make, list and stop them."""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import msgspec
from litestar import Request, delete, get, post
from litestar.exceptions import HTTPException, NotFoundException

from ..communities.identity import limit_reached, organiser_guard, require_club_use, require_manage, viewer_of
from ..competitions.series.access import require_series_use
from ..config import Config
from ..core import core_of
from ..lib.http import strict_body, valid_id
from ..operations.openapi import ORGANISER, errors
from . import messages as p
from . import schedule_store as store
from .creation import checked, create_tournament, settings_from, tournament_name
from .pars import SolverPool, pars_of

log = logging.getLogger("spidertour.organiser")

SCHEDULE_SECONDS = 5.0  # how often the clock looks for scheduled tournaments to create
MAX_AHEAD = 10  # occurrences created at once per schedule


def occurrences(
    first: datetime, every: int, open_for: int, ahead: int, now: datetime, limit: int = MAX_AHEAD
) -> list[datetime]:
    """The occurrences due now: not yet closed (opens + open_for > now), opening by now + ahead."""
    period = timedelta(minutes=every)
    k = max(0, math.floor((now - timedelta(minutes=open_for) - first) / period) + 1)
    found: list[datetime] = []
    while len(found) < limit:
        at = first + k * period
        if at > now + timedelta(minutes=ahead):
            break
        found.append(at)
        k += 1
    return found


def next_occurrence(first: datetime, every: int, now: datetime) -> datetime:
    period = timedelta(minutes=every)
    k = max(0, math.ceil((now - first) / period))
    return first + k * period


def tournament_body(schedule: Any, at: datetime) -> p.TournamentCreate:
    """The tournament of one occurrence: the template's settings, its name with the time. One that
    starts together closes one time limit after it opens (its open_minutes play no part)."""
    template = dict(schedule["template"])
    times = {"opens_at": at.isoformat()}
    if template.get("start") != "together":
        times["closes_at"] = (at + timedelta(minutes=schedule["open_minutes"])).isoformat()
    return msgspec.convert({**template, "name": f"{schedule['name']} {at:%Y-%m-%d %H:%M}", **times}, p.TournamentCreate)


_REPORTED: set[tuple[int, datetime]] = set()  # occurrences this process has said it cannot create


async def create_scheduled(
    db: asyncpg.Pool, solver: SolverPool, config: Config, schedule_id: int | None = None
) -> list[int]:
    """Create every scheduled tournament now due; each occurrence once, whichever process gets there first.

    Occurrences that already have their tournament are passed over without a write. One the
    schedule cannot make (a schedule stored before its checks were these) is said once per process.
    """
    now = datetime.now(UTC)
    made = []
    rows = [await store.schedule(db, schedule_id)] if schedule_id else await store.schedules(db, True)
    for schedule in rows:
        if schedule is None or not schedule["active"]:
            continue
        due = occurrences(
            schedule["first_opens_at"],
            schedule["every_minutes"],
            schedule["open_minutes"],
            schedule["ahead_minutes"],
            now,
        )
        done = await store.made_occurrences(db, schedule["id"], due) if due else set()
        for at in due:
            if at in done:
                continue
            try:
                body = tournament_body(schedule, at)
                created = await create_tournament(
                    db, solver, config, body, (schedule["id"], at), schedule["organiser_id"]
                )
            except (HTTPException, msgspec.ValidationError) as err:
                if (schedule["id"], at) not in _REPORTED and len(_REPORTED) < 10_000:
                    _REPORTED.add((schedule["id"], at))
                    reason = err.detail if isinstance(err, HTTPException) else str(err)
                    log.warning("schedule %s cannot create its tournament of %s: %s", schedule["id"], at, reason)
                break
            except Exception:
                log.warning("schedule %s could not create its tournament of %s", schedule["id"], at, exc_info=True)
                break
            if created is not None:
                made.append(created.id)
                log.info("schedule %s created tournament %s opening %s", schedule["id"], created.id, at)
    return made


def check_template(name: str, template: dict[str, Any], open_minutes: int, ahead_minutes: int) -> None:
    """Refuse (400) a schedule whose tournaments could not be created: its latest occurrence (the
    furthest ahead it is ever made) checked as creating its tournament would check it."""
    at = datetime.now(UTC) + timedelta(minutes=ahead_minutes)
    schedule = {"name": name, "template": template, "open_minutes": open_minutes}
    try:
        body = tournament_body(schedule, at)
    except msgspec.ValidationError as err:
        raise HTTPException(status_code=400, detail=f"its tournaments could not be created: {err}") from None
    try:
        checked(body)
    except HTTPException as err:
        raise HTTPException(status_code=400, detail=f"its tournaments could not be created: {err.detail}") from None


async def schedule_out(db: asyncpg.Pool, row: Any) -> p.Schedule:
    recent = await store.scheduled_tournaments(db, row["id"])
    template = row["template"]
    return p.Schedule(
        id=row["id"],
        name=row["name"],
        settings=row["template"].get("settings", {}),
        first_opens_at=row["first_opens_at"],
        every_minutes=row["every_minutes"],
        open_minutes=row["open_minutes"],
        ahead_minutes=row["ahead_minutes"],
        active=row["active"],
        next_opens_at=next_occurrence(row["first_opens_at"], row["every_minutes"], datetime.now(UTC))
        if row["active"]
        else None,
        tournaments=[r["id"] for r in recent],
        start=template.get("start", "own"),
        certified=template.get("certified", False),
        certify_seconds=template.get("certify_seconds"),
        organiser=None
        if row["organiser_id"] is None
        else p.OrganiserRef(id=row["organiser_id"], name=row["organiser_name"]),
        club=None if row["club_id"] is None else p.ClubRef(id=row["club_id"], name=row["club_name"]),
        listed=template.get("listed", True),
        entry_code=template.get("entry_code"),
        rated=template.get("rated", True),
        rating_min=template.get("rating_min"),
        rating_max=template.get("rating_max"),
        series=template.get("series"),
        teams=msgspec.convert(template["teams"], p.TeamBattle) if template.get("teams") else None,
    )


def template_of(data: p.ScheduleCreate) -> dict[str, Any]:
    """Every setting its tournaments take, as TournamentCreate reads them."""
    settings = msgspec.to_builtins(data.settings)
    for name, default in (("deals", 1), ("scoring", "total")):  # several deals: kept only when chosen
        if settings.get(name) == default:
            del settings[name]
    template: dict[str, Any] = {"settings": settings, "start": data.start}
    if data.certified:
        template["certified"] = True
    if data.certify_seconds is not None:
        template["certify_seconds"] = data.certify_seconds
    if data.club is not None:
        template["club"] = data.club
    if data.entry_code is not None:
        template["entry_code"] = data.entry_code
    if data.series is not None:
        template["series"] = data.series
    if data.teams is not None:
        template["teams"] = msgspec.to_builtins(data.teams)
    template["listed"] = data.listed if data.listed is not None else (data.club is None and data.entry_code is None)
    template["rated"] = data.rated
    for limit in ("rating_min", "rating_max"):
        if getattr(data, limit) is not None:
            template[limit] = getattr(data, limit)
    return template


@post(
    "/api/schedules",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 409, 415),
)
async def create_schedule(request: Request[Any, Any, Any], data: p.ScheduleCreate) -> p.Schedule:
    """Organiser: a recurring tournament (e.g. every day at 20:00 UTC: first_opens_at 20:00, every_minutes 1440),
    with every setting a tournament takes. Each occurrence's tournament is created ahead_minutes
    before it opens, once, run by the schedule's organiser."""
    core = core_of(request)
    data = await strict_body(request, p.ScheduleCreate)
    viewer = await viewer_of(request)
    await require_club_use(core.db, viewer, data.club)
    await require_series_use(core.db, viewer, data.series, data.club)
    name = tournament_name(data.name)
    settings_from(data.settings)  # checked now; stored as given, filled in by each tournament's creation
    first = data.first_opens_at
    if first.tzinfo is None:
        raise HTTPException(status_code=400, detail="first_opens_at needs a time zone, e.g. 2026-11-22T20:00:00Z")
    if abs((first - datetime.now(UTC)).days) > 366:
        raise HTTPException(status_code=400, detail="first_opens_at must lie within 366 days of now")
    if data.open_minutes > data.every_minutes:
        raise HTTPException(status_code=400, detail="open_minutes may not exceed every_minutes (tournaments overlap)")
    if data.certify_seconds is not None and not data.certified:
        raise HTTPException(status_code=400, detail="certify_seconds goes with certified: true")
    template = template_of(data)
    check_template(name, template, data.open_minutes, data.ahead_minutes)
    most = core.config.schedules_per_organiser
    row = await store.create_schedule(
        core.db,
        name,
        template,
        first,
        data.every_minutes,
        data.open_minutes,
        data.ahead_minutes,
        viewer.organiser_id,
        data.club,
        most,
    )
    if row is None:
        raise limit_reached("schedules", most)
    await create_scheduled(core.db, pars_of(request).solver, core.config, row["id"])
    return await schedule_out(core.db, row)


@get("/api/schedules", guards=[organiser_guard], security=ORGANISER, responses=errors(401, 403))
async def list_schedules(request: Request[Any, Any, Any]) -> list[p.Schedule]:
    """Organiser: its schedules (the owner: every one), stopped ones included."""
    db = core_of(request).db
    viewer = await viewer_of(request)
    rows = [r for r in await store.schedules(db) if viewer.manages(r["organiser_id"], r["club_id"])]
    return [await schedule_out(db, r) for r in rows]


@delete(
    "/api/schedules/{schedule_id:int}",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404),
)
async def stop_schedule(request: Request[Any, Any, Any], schedule_id: int) -> p.Schedule:
    """Organiser: stop one of its schedules. Tournaments it already created stay."""
    db = core_of(request).db
    found = await store.schedule(db, schedule_id) if valid_id(schedule_id) else None
    if found is None:
        raise NotFoundException(f"no schedule {schedule_id}")
    require_manage(await viewer_of(request), found, "schedule")
    await store.stop_schedule(db, schedule_id)
    row = await store.schedule(db, schedule_id)
    return await schedule_out(db, row)


ROUTES = [create_schedule, list_schedules, stop_schedule]
