"""The organiser's bracket routes (an organiser's token for what it runs, or the admin token): edit
before the opening, cancel, disqualify a player."""

from __future__ import annotations

from typing import Annotated, Any

import asyncpg
from litestar import Request, get, patch, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import Parameter

from ..communities.identity import organiser_guard, require_manage, viewer_of
from ..core import core_of
from ..fairplay.commitment import commitment, new_salt
from ..lib.http import printable, strict_body
from ..operations.openapi import ORGANISER, errors
from ..play.runtime import play_of
from ..tournaments import messages as tm
from ..tournaments import organiser
from ..tournaments import store as tournament_store
from ..tournaments.creation import settings_from, together_times, tournament_name
from ..watch.boards import boards_of
from . import messages as m
from . import store
from .routes import current, find_bracket, one_deal


async def managed(request: Request[Any, Any, Any], bracket_id: int) -> asyncpg.Record:
    """The bracket (404), if the caller runs it or organises its club (else 403 ``not your bracket``)."""
    row = await find_bracket(core_of(request).db, bracket_id)
    require_manage(await viewer_of(request), row, "bracket")
    return row


@patch(
    "/api/brackets/{bracket_id:int}",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def edit_bracket(request: Request[Any, Any, Any], bracket_id: int) -> m.Bracket:
    """Organiser: change a bracket's name, settings, opening or break before it opens (a new
    commitment, to a new salt); 409 once it opened."""
    db = core_of(request).db
    row = await managed(request, bracket_id)
    data = await strict_body(request, m.BracketEdit)
    if row["bracket_status"] != "scheduled":
        raise HTTPException(
            status_code=409, detail=f"the bracket is {row['bracket_status']}: only a scheduled one changes"
        )
    settings = settings_from(data.settings) if data.settings is not None else row["settings"]
    one_deal(settings)
    name = tournament_name(data.name) if data.name is not None else row["name"]
    opens_at, closes_at = together_times(data.opens_at or row["opens_at"], settings["time_limit"])
    salt = new_salt()
    seed = row["seed"]
    if not await tournament_store.edit_tournament(
        db, bracket_id, name, settings, seed, salt, commitment(seed, settings, salt), opens_at, closes_at
    ):
        raise HTTPException(status_code=409, detail="the bracket opened meanwhile: it can no longer change")
    if data.break_seconds is not None:
        await store.edit_break(db, bracket_id, data.break_seconds)
    return await current(db, bracket_id, await viewer_of(request))


@post(
    "/api/brackets/{bracket_id:int}/cancel",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404, 409),
)
async def cancel_bracket(request: Request[Any, Any, Any], bracket_id: int) -> m.Bracket:
    """Organiser: cancel a bracket not over. Its games in play end now, nothing more is played or
    ranked, and the seed and the games played so far are published."""
    db = core_of(request).db
    row = await managed(request, bracket_id)
    if not await store.settle(db, bracket_id):  # the clock leaves it alone from now on
        raise HTTPException(status_code=409, detail=f"the bracket is {row['bracket_status']}: it cannot be cancelled")
    play, boards = play_of(request), boards_of(request)
    for game in await store.games(db, bracket_id):
        if not game["over"]:
            await organiser.cancel(db, play, boards, game["tournament_id"])
    await organiser.cancel(db, play, boards, bracket_id)
    return await current(db, bracket_id, await viewer_of(request))


@post(
    "/api/brackets/{bracket_id:int}/disqualify",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def disqualify(request: Request[Any, Any, Any], bracket_id: int) -> m.Bracket:
    """Organiser: ``{"player": ID, "reason": "..."}``. Before the seeding the player is left out;
    during the bracket it loses its current pairing (its game ends now) and its opponent advances;
    it is in no final place. 404 for a player who did not join; 409 when already disqualified or the
    bracket is over."""
    db = core_of(request).db
    row = await managed(request, bracket_id)
    data = await strict_body(request, m.BracketDisqualify)
    reason = printable(data.reason, "the reason")
    if row["bracket_status"] not in ("scheduled", "running"):
        raise HTTPException(
            status_code=409, detail=f"the bracket is {row['bracket_status']}: nobody is disqualified now"
        )
    entry = await store.registration(db, bracket_id, data.player)
    if entry is None:
        raise NotFoundException(f"player {data.player} did not join bracket {bracket_id}")
    play, boards = play_of(request), boards_of(request)
    if await tournament_store.disqualify(db, bracket_id, entry["id"], reason) == "already":
        raise HTTPException(status_code=409, detail=f"player {data.player} is already disqualified")
    # A round the clock is opening now holds the bracket's row: its games are looked for once it is open.
    await db.execute("SELECT 1 FROM brackets WHERE id = $1 FOR UPDATE", bracket_id)
    game = await store.current_game(db, bracket_id, data.player)
    if game is not None:  # its game ends now, out of its ranking: the opponent advances
        await organiser.disqualify(db, play, boards, game["tournament_id"], game["entry_id"], reason)
    return await current(db, bracket_id, await viewer_of(request))


@get(
    "/api/brackets/{bracket_id:int}/entries",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404),
)
async def list_entrants(
    request: Request[Any, Any, Any],
    bracket_id: int,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[tm.OrganiserEntry]:
    """Organiser: who joined the bracket, in the order they joined (``disqualified`` set for those
    left out), as a tournament's entries list: whom to disqualify before the seeding."""
    await managed(request, bracket_id)
    rows = await tournament_store.organiser_entries(core_of(request).db, bracket_id, offset, limit)
    return [tm.OrganiserEntry(**dict(r)) for r in rows]


ROUTES = [edit_bracket, cancel_bracket, disqualify, list_entrants]
