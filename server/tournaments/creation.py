"""Creating a tournament: its settings checked by the engine, its name and times, its deal (drawn,
given, or certified by the solver) and the commitment to it. Shared by the organiser's route and
the schedules; the tournament and entry as the API shows them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import msgspec
from litestar.exceptions import HTTPException
from msgspec import UNSET

from spidertour.engine import EngineError, Settings

from ..communities.identity import Viewer
from ..config import Config
from ..fairplay.commitment import commitment, new_salt, new_seed
from ..lib.http import printable
from ..play.deals import deal_count
from ..watch.leaderboard import MAX_TIME_LIMIT
from . import messages as p
from . import store
from .pars import NoWinnableDeal, SolverPool, certify

MAX_DAYS = 366


def tournament_out(row: asyncpg.Record, viewer: Viewer | None = None) -> p.Tournament:
    """The tournament as ``viewer`` sees it: the entry code only for its organisers and the owner."""
    finished = row["status"] in ("finished", "cancelled")
    manages = viewer is not None and viewer.manages(row["organiser_id"], row["club_id"])
    return p.Tournament(
        id=row["id"],
        name=row["name"],
        status=row["status"],
        settings=row["settings"],
        opens_at=row["opens_at"],
        closes_at=row["closes_at"],
        finished_at=row["finished_at"],
        commitment=row["commitment"],
        entrants=row["entrants"],
        start=row["start"],
        seed=row["seed"] if finished else None,
        salt=row["salt"] if finished else None,
        certified=row["certified"],
        par=msgspec.convert(row["par"], p.Par) if finished and row["par"] is not None else None,
        cancelled_at=row["cancelled_at"],
        schedule_id=row["schedule_id"],
        organiser=None
        if row["organiser_id"] is None
        else p.OrganiserRef(id=row["organiser_id"], name=row["organiser_name"]),
        club=None if row["club_id"] is None else p.ClubRef(id=row["club_id"], name=row["club_name"]),
        listed=row["listed"],
        entry_code_needed=row["entry_code"] is not None,
        entry_code=row["entry_code"] if manages else None,
        rated=row["rated"],
        rating_min=row["rating_min"],
        rating_max=row["rating_max"],
        series=row["series_id"],
        teams=None if row["teams_top"] is None else p.TeamBattle(top=row["teams_top"]),
        winner=msgspec.convert(row["winner"], p.Winner) if row["status"] == "finished" and row["winner"] else None,
        disqualified=row["disqualified"],
    )


def entry_out(row: asyncpg.Record) -> p.Entry:
    bracket_id, round_ = row.get("bracket_id"), row.get("round")
    return p.Entry(
        id=row["id"],
        tournament_id=row["tournament_id"],
        tournament=row["tournament"],
        player_id=row["player_id"],
        player=row["player"],
        status=row["status"],
        score=row["score"],
        final_score=row["final_score"],
        time_left=row["time_left"],
        started_at=row["started_at"],
        deadline=row["deadline"],
        bracket_id=UNSET if bracket_id is None else bracket_id,
        round=UNSET if round_ is None else round_,
    )


def settings_from(body: p.GameSettings) -> dict[str, Any]:
    """Engine-validated settings with every field filled in (so the commitment covers them all)."""
    try:
        settings = Settings.from_json(msgspec.to_builtins(body)).to_json()
    except EngineError as err:
        raise HTTPException(status_code=400, detail=f"settings: {err.reason}") from None
    if settings["time_limit"] > MAX_TIME_LIMIT:
        raise HTTPException(status_code=400, detail=f"settings: time_limit is at most {MAX_TIME_LIMIT} seconds")
    if body.deals != 1:  # several deals (docs/competitions.md): committed with the rest; one deal as before
        if body.deals * settings["time_limit"] > MAX_TIME_LIMIT:
            raise HTTPException(
                status_code=400,
                detail=f"settings: deals x time_limit is at most {MAX_TIME_LIMIT} seconds (one day of play)",
            )
        settings["deals"] = body.deals
    if body.scoring != "total":
        if body.deals == 1:  # one deal by matchpoints is its total with other tie-breaks (docs/competitions.md)
            raise HTTPException(
                status_code=400,
                detail='settings: scoring "matchpoints" needs several deals (deals 2 to 10): one deal ranks by total',
            )
        settings["scoring"] = body.scoring
    return settings


def tournament_name(raw: str) -> str:
    return printable(raw)


def tournament_times(opens: datetime | None, closes: datetime | None) -> tuple[datetime, datetime]:
    """Opening and closing times checked: zoned, in order, near enough (no arithmetic overflows),
    closing in the future."""
    now = datetime.now(UTC)
    if (opens is not None and opens.tzinfo is None) or (closes is not None and closes.tzinfo is None):
        raise HTTPException(status_code=400, detail="times need a time zone, e.g. 2026-11-22T18:00:00Z")
    if closes is not None and closes <= (opens or now):
        raise HTTPException(status_code=400, detail="closes_at must come after opens_at")
    window = timedelta(days=MAX_DAYS)
    for when in (opens, closes):
        if when is not None and abs(when - now) > window:
            raise HTTPException(status_code=400, detail=f"times must lie within {MAX_DAYS} days of now")
    opens_at = opens or now
    closes_at = closes or opens_at + timedelta(hours=1)
    if closes_at - opens_at > window:
        raise HTTPException(status_code=400, detail=f"times must lie within {MAX_DAYS} days")
    if closes_at <= now:
        raise HTTPException(status_code=400, detail="closes_at is already past: a tournament closes in the future")
    return opens_at, closes_at


def together_times(opens: datetime | None, time_limit: int) -> tuple[datetime, datetime]:
    """A start-together tournament's times: it opens in the future (entries are taken until then)
    and closes one time limit later (with several deals: ``time_limit`` is their sum, a round
    each). The same for its creation and its edits."""
    if opens is None:
        raise HTTPException(
            status_code=400, detail="a tournament that starts together needs opens_at: entries are taken until then"
        )
    opens_at, _ = tournament_times(opens, None)
    if opens_at <= datetime.now(UTC):
        raise HTTPException(
            status_code=400,
            detail="a tournament that starts together opens in the future: entries are taken until then",
        )
    return opens_at, opens_at + timedelta(seconds=time_limit)


def checked(data: p.TournamentCreate) -> tuple[dict[str, Any], str, datetime, datetime]:
    """What creating this tournament checks before its deal: settings, name, seed and times (400)."""
    settings = settings_from(data.settings)
    name = tournament_name(data.name)
    access_of(data, None)
    if data.seed is not None and "\x00" in data.seed:
        raise HTTPException(status_code=400, detail="the seed may not contain a NUL character")
    if data.start == "together":
        # One sitting: every game starts at opens_at and ends at its deadline, which is the closing.
        if data.closes_at is not None:
            raise HTTPException(
                status_code=400,
                detail="a tournament that starts together closes at opens_at + time_limit: leave closes_at out",
            )
        opens_at, closes_at = together_times(data.opens_at, settings["time_limit"] * deal_count(settings))
    else:
        opens_at, closes_at = tournament_times(data.opens_at, data.closes_at)
    return settings, name, opens_at, closes_at


async def create_tournament(
    db: asyncpg.Pool,
    solver: SolverPool,
    config: Config,
    data: p.TournamentCreate,
    schedule: tuple[int, datetime] | None = None,
    organiser_id: int | None = None,
) -> p.Tournament | None:
    """Shared by the HTTP route and the schedules. None: the schedule's occurrence already has its tournament.

    ``organiser_id``: who runs it (None: the owner); the caller has checked it may use ``data.club``.
    """
    settings, name, opens_at, closes_at = checked(data)
    par = None
    if data.certified and deal_count(settings) > 1:
        raise HTTPException(
            status_code=400, detail="certified goes with one deal: the solver certifies one seed's deal"
        )
    if data.certified:
        seconds = data.certify_seconds or config.solver_seconds
        try:
            seed, par = await certify(solver, settings, data.seed, seconds, config.certify_tries)
        except NoWinnableDeal as err:
            raise HTTPException(status_code=422, detail=f"no certified deal: {err}") from None
    elif data.certify_seconds is not None:
        raise HTTPException(status_code=400, detail="certify_seconds goes with certified: true")
    else:
        seed = data.seed if data.seed is not None else new_seed()
    salt = new_salt()
    tid = await store.create_tournament(
        db,
        name,
        settings,
        seed,
        salt,
        commitment(seed, settings, salt),
        opens_at,
        closes_at,
        data.certified,
        par,
        schedule,
        data.start,
        access_of(data, organiser_id),
        data.series,
        None if data.teams is None else data.teams.top,
    )
    if tid is None:
        return None
    row = await store.tournament(db, tid)
    assert row is not None
    return tournament_out(row, Viewer(owner=True))


def access_of(data: p.TournamentCreate | p.ScheduleCreate, organiser_id: int | None) -> store.Access:
    """Who runs it and who may join: unlisted by default when it is a club's or takes a code."""
    if data.entry_code is not None and (
        not data.entry_code.isprintable() or data.entry_code != data.entry_code.strip()
    ):
        raise HTTPException(status_code=400, detail="the entry code must be printable, without spaces at its ends")
    listed = data.listed if data.listed is not None else (data.club is None and data.entry_code is None)
    if data.rating_min is not None and data.rating_max is not None and data.rating_min > data.rating_max:
        raise HTTPException(status_code=400, detail="rating_min may not exceed rating_max")
    return store.Access(organiser_id, data.club, data.entry_code, listed, data.rated, data.rating_min, data.rating_max)
