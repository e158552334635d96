"""The HTTP API: players, tournaments, entries, standings, replays, health."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, TypeVar

import asyncpg
import msgspec
from litestar import MediaType, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, NotAuthorizedException, NotFoundException, PermissionDeniedException
from litestar.handlers import BaseRouteHandler
from litestar.openapi import ResponseSpec
from litestar.params import Parameter

from spidertour.engine import EngineError, Settings

from . import protocol as p
from . import store
from .fairness import commitment, new_salt, new_seed, new_token, same_secret, token_hash
from .integrity import report as integrity_report
from .leaderboard import MAX_TIME_LIMIT, Row
from .limits import limit_guard
from .openapi import ADMIN, PLAYER, errors
from .services import Services
from .solving import NoWinnableDeal, certify

MAX_DAYS = 366
MAX_ID = 2**63 - 1  # ids are PostgreSQL bigints
TIME_UP = ("timed_out", "absent")  # entries whose game the clock ended, not a move
T = TypeVar("T")
STATUS_PATTERN = "^(scheduled|open|closing|finished|cancelled)$"


def _services(request: Request[Any, Any, Any]) -> Services:
    return request.app.state.services  # type: ignore[no-any-return]


def _bearer(request: Request[Any, Any, Any]) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthorizedException("send the token as 'Authorization: Bearer <token>'")
    return token.strip()


def require_admin(request: Request[Any, Any, Any]) -> None:
    if not same_secret(_bearer(request), _services(request).admin_token):
        raise PermissionDeniedException("the admin token is needed for this")


async def require_player(request: Request[Any, Any, Any]) -> asyncpg.Record:
    player = await store.player_by_token(_services(request).db, token_hash(_bearer(request)))
    if player is None:
        raise NotAuthorizedException("unknown player token")
    return player


def tournament_out(row: asyncpg.Record) -> p.Tournament:
    finished = row["status"] in ("finished", "cancelled")
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
    )


def entry_out(row: asyncpg.Record) -> p.Entry:
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
    )


def _integral(value: Any) -> Any:
    """JSON's numbers with no fraction (600.0) are whole numbers, as JSON Schema's ``integer`` says."""
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is dict:
        return {k: _integral(v) for k, v in value.items()}
    if type(value) is list:
        return [_integral(v) for v in value]
    return value


async def strict_body(request: Request[Any, Any, Any], type_: type[T]) -> T:
    """The body decoded strictly: no "600" for 600, no 1 for true, no number for a time.

    The framework's own decoding is lenient and converts such values; the engine and the
    commitment must see exactly what was sent, so anything that is not already the right JSON
    type is refused, with the same error shape as the framework's validation errors.
    """
    try:
        raw = msgspec.json.decode(await request.body())
        return msgspec.convert(_integral(raw), type_, strict=True)
    except msgspec.ValidationError as err:
        message, _, at = str(err).partition(" - at `$")
        raise HTTPException(
            status_code=400,
            detail=f"Validation failed for {request.method} {request.url.path}",
            extra=[{"message": message, "key": at.rstrip("`").lstrip(".") or "data", "source": "body"}],
        ) from None
    except msgspec.DecodeError as err:
        raise HTTPException(status_code=400, detail=f"JSON is malformed: {err}") from None
    except RecursionError:
        raise HTTPException(status_code=400, detail="JSON is nested too deeply") from None


def settings_from(body: p.GameSettings) -> dict[str, Any]:
    """Engine-validated settings with every field filled in (so the commitment covers them all)."""
    try:
        settings = Settings.from_json(msgspec.to_builtins(body)).to_json()
    except EngineError as err:
        raise HTTPException(status_code=400, detail=f"settings: {err.reason}") from None
    if settings["time_limit"] > MAX_TIME_LIMIT:
        raise HTTPException(status_code=400, detail=f"settings: time_limit is at most {MAX_TIME_LIMIT} seconds")
    return settings  # type: ignore[no-any-return]


def tournament_name(raw: str) -> str:
    name = raw.strip()
    if not name or not name.isprintable():
        raise HTTPException(status_code=400, detail="the name must be printable and not blank")
    return name


def tournament_times(opens: datetime | None, closes: datetime | None) -> tuple[datetime, datetime]:
    """Opening and closing times checked: zoned, in order, near enough (no arithmetic overflows)."""
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
    return opens_at, closes_at


async def create_tournament(
    services: Services, data: p.TournamentCreate, schedule: tuple[int, datetime] | None = None
) -> p.Tournament | None:
    """Shared by the HTTP route and the schedules. None: the schedule's occurrence already has its tournament."""
    settings = settings_from(data.settings)
    name = tournament_name(data.name)
    if data.seed is not None and "\x00" in data.seed:
        raise HTTPException(status_code=400, detail="the seed may not contain a NUL character")
    if data.start == "together":
        # One sitting: every game starts at opens_at and ends at its deadline, which is the closing.
        if data.closes_at is not None:
            raise HTTPException(
                status_code=400,
                detail="a tournament that starts together closes at opens_at + time_limit: leave closes_at out",
            )
        if data.opens_at is None:
            raise HTTPException(
                status_code=400, detail="a tournament that starts together needs opens_at: entries are taken until then"
            )
        opens_at, _ = tournament_times(data.opens_at, None)
        if opens_at <= datetime.now(UTC):
            raise HTTPException(
                status_code=400,
                detail="a tournament that starts together opens in the future: entries are taken until then",
            )
        closes_at = opens_at + timedelta(seconds=settings["time_limit"])
    else:
        opens_at, closes_at = tournament_times(data.opens_at, data.closes_at)
    par = None
    if data.certified:
        seconds = data.certify_seconds or services.config.solver_seconds
        try:
            seed, par = await certify(services.solver, settings, data.seed, seconds, services.config.certify_tries)
        except NoWinnableDeal as err:
            raise HTTPException(status_code=422, detail=f"no certified deal: {err}") from None
    elif data.certify_seconds is not None:
        raise HTTPException(status_code=400, detail="certify_seconds goes with certified: true")
    else:
        seed = data.seed if data.seed is not None else new_seed()
    salt = new_salt()
    tid = await store.create_tournament(
        services.db,
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
    )
    if tid is None:
        return None
    row = await store.tournament(services.db, tid)
    assert row is not None
    return tournament_out(row)


def admin_guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guards run before the body is read: without the admin token, 401/403 comes before any 400."""
    require_admin(connection)  # type: ignore[arg-type]


@post(
    "/api/tournaments", status_code=201, guards=[admin_guard], security=ADMIN, responses=errors(400, 401, 403, 415, 422)
)
async def post_tournament(request: Request[Any, Any, Any], data: p.TournamentCreate) -> p.Tournament:
    """Organiser: create a tournament (admin token). The response shows the commitment, never the seed."""
    created = await create_tournament(_services(request), await strict_body(request, p.TournamentCreate))
    assert created is not None
    return created


@get("/api/tournaments", responses=errors(400))
async def list_tournaments(
    request: Request[Any, Any, Any],
    status: Annotated[str | None, Parameter(query="status", pattern=STATUS_PATTERN)] = None,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.Tournament]:
    """Tournaments, newest first, a page at a time (?offset=0&limit=100);
    ?status=scheduled|open|closing|finished|cancelled to filter."""
    rows = await store.tournaments(_services(request).db, status, limit, offset)
    return [tournament_out(r) for r in rows]


async def _tournament(services: Services, tournament_id: int) -> asyncpg.Record:
    if not 0 < tournament_id <= MAX_ID:  # PostgreSQL would refuse it as a bigint: no such tournament
        raise NotFoundException(f"no tournament {tournament_id}")
    row = await store.tournament(services.db, tournament_id)
    if row is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    return row


@get("/api/tournaments/{tournament_id:int}", responses=errors(404))
async def get_tournament(request: Request[Any, Any, Any], tournament_id: int) -> p.Tournament:
    return tournament_out(await _tournament(_services(request), tournament_id))


@post("/api/players", status_code=201, guards=[limit_guard("register")], responses=errors(400, 415, 429))
async def post_player(request: Request[Any, Any, Any], data: p.PlayerCreate) -> p.PlayerCreated:
    """Register a display name. The token in the answer is shown once: keep it.
    Limited per client address (429 with Retry-After past the limit)."""
    data = await strict_body(request, p.PlayerCreate)
    name = data.name.strip()
    if not name or not name.isprintable():
        raise HTTPException(status_code=400, detail="the name must be printable and not blank")
    services = _services(request)
    token = new_token()
    pid = await store.create_player(services.db, name, token_hash(token), services.limiter.address_hash(request))
    return p.PlayerCreated(id=pid, name=name, token=token)


def _entries_closed(tour: asyncpg.Record) -> str | None:
    """Why the tournament takes no entry now, or None when it does."""
    if tour["start"] == "together":
        if tour["status"] == "scheduled":
            return None
        return (
            f"the tournament started together at {tour['opens_at'].isoformat()}: "
            "entries were taken until then, and every game started at once"
        )
    if tour["status"] != "open":
        return f"the tournament is {tour['status']}: entries only while open"
    return None


@post(
    "/api/tournaments/{tournament_id:int}/entries",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join")],
    responses=errors(401, 404, 409, 429),
)
async def join(request: Request[Any, Any, Any], tournament_id: int) -> p.Entry:
    """Player: join a tournament (one entry per player): while it is open, or until its opening
    time when it starts together. Limited per client address (429 with Retry-After)."""
    services = _services(request)
    player = await require_player(request)
    tour = await _tournament(services, tournament_id)
    closed = _entries_closed(tour)
    if closed:
        raise HTTPException(status_code=409, detail=closed)
    try:
        entry_id = await store.join(services.db, tournament_id, player["id"], services.limiter.address_hash(request))
    except store.JoinRefused as err:
        tour = await _tournament(services, tournament_id)
        raise HTTPException(status_code=409, detail=_entries_closed(tour) or str(err)) from None
    row = await store.entry(services.db, entry_id)
    assert row is not None
    out = entry_out(row)
    await services.publish(
        tournament_id, row["ordinal"], Row(entry_id=out.id, player=out.player, score=0, status=out.status)
    )
    return out


@get("/api/me/entries", security=PLAYER, responses=errors(401))
async def my_entries(request: Request[Any, Any, Any]) -> list[p.Entry]:
    """Player: my entries, newest first."""
    player = await require_player(request)
    return [entry_out(r) for r in await store.entries_of_player(_services(request).db, player["id"])]


@get("/api/tournaments/{tournament_id:int}/standings", responses=errors(400, 404))
async def standings(
    request: Request[Any, Any, Any],
    tournament_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[p.Standing]:
    """Standings from PostgreSQL: final once the tournament is finished, else the running order."""
    services = _services(request)
    tour = await _tournament(services, tournament_id)
    if tour["status"] == "cancelled":  # nothing is ranked
        return []
    rows = await store.standings(services.db, tournament_id, offset, limit)
    return [p.Standing(**dict(r)) for r in rows]


def json_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    """An error as JSON, on a route whose own media type is not (errors take the route's by default)."""
    body: dict[str, Any] = {"status_code": exc.status_code, "detail": exc.detail}
    if exc.extra is not None:
        body["extra"] = exc.extra
    return Response(body, status_code=exc.status_code, headers=exc.headers, media_type=MediaType.JSON)


@get(
    "/api/tournaments/{tournament_id:int}/replays",
    media_type="application/x-ndjson",
    exception_handlers={HTTPException: json_error},
    responses=errors(403, 404),
)
async def replays(request: Request[Any, Any, Any], tournament_id: int) -> Response[bytes]:
    """After the finish: every entry's game as REPLAY.md input lines (pipe into `spidertour replay`)."""
    services = _services(request)
    tour = await _tournament(services, tournament_id)
    if tour["status"] not in ("finished", "cancelled"):
        raise HTTPException(status_code=403, detail="replays are published when the tournament is finished")
    lines = []
    time_limit = tour["settings"]["time_limit"]
    for r in await store.replays(services.db, tournament_id):
        moves = r["moves"]
        if r["status"] in TIME_UP:
            # Not ended by its own moves: the clock ended it (or it never started). REPLAY.md ends a
            # game by time at the first move timed at the limit, so this closing mark lets the
            # engine alone score it as the server did (TR = 0); the mark itself is rejected.
            moves = [*moves, {"type": "end", "t": time_limit}]
        game = {
            **tour["settings"],
            "seed": tour["seed"],
            "entry": r["ordinal"],  # REPLAY.md: which renamed deal the entry played (with deal_variation)
            "moves": moves,
            "entry_id": r["entry_id"],
            "player": r["player"],
            "status": r["status"],
            "final_score": r["final_score"],
        }
        if r["disqualified"] is not None:
            game["disqualified"] = r["disqualified"]
        lines.append(msgspec.json.encode(game))
    return Response(b"\n".join(lines) + (b"\n" if lines else b""), media_type="application/x-ndjson")


@get("/api/tournaments/{tournament_id:int}/par", responses=errors(403, 404))
async def get_par(request: Request[Any, Any, Any], tournament_id: int) -> dict[str, Any]:
    """After the finish: the solver's line as a REPLAY.md game (pipe into `spidertour replay`)."""
    services = _services(request)
    tour = await _tournament(services, tournament_id)
    if tour["status"] not in ("finished", "cancelled"):
        raise PermissionDeniedException("the par is published when the tournament is finished")
    par = await store.par(services.db, tournament_id)
    if par is None:
        raise NotFoundException("the par is still being worked out: try again in a few seconds")
    game: dict[str, Any] = {**tour["settings"], "seed": tour["seed"], "moves": par["moves"]}
    if par["entry"] is not None:
        game["entry"] = par["entry"]
    game.update(outcome=par["outcome"], final_score=par["final_score"], pace=par["pace"], nodes=par["nodes"])
    return game


@get(
    "/api/tournaments/{tournament_id:int}/integrity",
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def integrity(request: Request[Any, Any, Any], tournament_id: int) -> p.IntegrityReport:
    """Organiser (admin token): shared client addresses, undo peeks and scouting entries, each
    with its evidence. Nothing is done about them: the organiser decides."""
    services = _services(request)
    tour = await _tournament(services, tournament_id)
    rows = await store.integrity_rows(services.db, tournament_id)
    # Replaying every game is CPU work: off the event loop, so play goes on meanwhile.
    return await asyncio.to_thread(integrity_report, tour, rows, datetime.now(UTC))


@get("/health", responses={503: ResponseSpec(p.Health, description="PostgreSQL or Redis does not answer")})
async def health(request: Request[Any, Any, Any]) -> Response[p.Health]:
    """200 once PostgreSQL and Redis both answer, else 503."""
    services = _services(request)
    pg = rd = False
    try:
        pg = await services.db.fetchval("SELECT 1", timeout=2) == 1
    except Exception:
        pg = False
    try:
        rd = bool(await services.redis.ping())
    except Exception:
        rd = False
    ok = pg and rd
    return Response(
        p.Health(status="ok" if ok else "unavailable", postgres=pg, redis=rd), status_code=200 if ok else 503
    )


ROUTES = [
    post_tournament,
    list_tournaments,
    get_tournament,
    post_player,
    join,
    my_entries,
    standings,
    replays,
    get_par,
    integrity,
    health,
]
