"""Clubs: creating one, its organisers, its members (list, join by invite code) and the invite
code; a member's sign-in code replaced (by the club whose roster made the account only)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, get, patch, post
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, NotAuthorizedException, NotFoundException, PermissionDeniedException
from litestar.handlers import BaseRouteHandler
from litestar.params import Parameter

from ..core import core_of
from ..fairplay.limits import limit_guard
from ..lib.http import printable, strict_body, valid_id
from ..lib.tokens import same_secret
from ..operations.openapi import ORGANISER, PLAYER, errors
from ..players.auth import player_guard
from ..players.hashing import hashed
from ..players.signouts import signouts_of
from . import messages as m
from . import store
from .codes import new_code, new_invite
from .identity import NOBODY, Viewer, limit_reached, organiser_guard, viewer_of

NO_STORE = {"Cache-Control": "no-store"}
CHOSE_PASSWORD = "this member signs in with a password, not a code"


def club_out(row: Any) -> m.Club:
    return m.Club(
        id=row["id"],
        name=row["name"],
        organisers=msgspec.convert(row["organisers"], list[m.OrganiserRef]),
        members=row["members"],
        public_names=row["public_names"],
    )


async def find_club(request: Request[Any, Any, Any], club_id: int) -> Any:
    row = await store.club(core_of(request).db, club_id) if valid_id(club_id) else None
    if row is None:
        raise NotFoundException(f"no club {club_id}")
    return row


def require_club(viewer: Viewer, club_id: int) -> None:
    if not (viewer.owner or club_id in viewer.organised):
        raise PermissionDeniedException("not your club")


async def managed_club(request: Request[Any, Any, Any], club_id: int) -> Any:
    """The club (404), if the caller organises it (403 ``not your club``)."""
    row = await find_club(request, club_id)
    require_club(await viewer_of(request), club_id)
    return row


@post(
    "/api/clubs",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 409, 415),
)
async def create_club(request: Request[Any, Any, Any], data: m.ClubCreate) -> m.Club:
    """Organiser (or the owner): a new club, organised by its creator."""
    data = await strict_body(request, m.ClubCreate)
    name = printable(data.name)
    viewer = await viewer_of(request)
    core = core_of(request)
    most = core.config.clubs_per_organiser
    club_id = await store.create_club(core.db, name, new_invite(), viewer.organiser_id, most)
    if club_id is None:
        raise limit_reached("clubs", most)
    return club_out(await find_club(request, club_id))


async def known_guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: any caller the server knows (401 before the query or body is looked at)."""
    if await viewer_of(connection) == NOBODY:
        raise NotAuthorizedException("send a token: an organiser's, the admin token or a player's")


@get("/api/clubs", security=[*ORGANISER, *PLAYER], guards=[known_guard], responses=errors(400, 401))
async def my_clubs(
    request: Request[Any, Any, Any],
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
) -> list[m.Club]:
    """The caller's clubs, by name, a page at a time (?offset=0&limit=100): those an organiser
    organises (every club for the owner), those a player belongs to."""
    viewer = await viewer_of(request)
    ids = None if viewer.owner else viewer.clubs
    return [club_out(r) for r in await store.clubs(core_of(request).db, ids, limit, offset)]


@get("/api/clubs/{club_id:int}", responses=errors(404))
async def get_club(request: Request[Any, Any, Any], club_id: int) -> m.Club:
    """Anyone: a club's name, organisers and member count."""
    return club_out(await find_club(request, club_id))


@patch(
    "/api/clubs/{club_id:int}",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 415),
)
async def edit_club(request: Request[Any, Any, Any], club_id: int, data: m.ClubEdit) -> m.Club:
    """A club's organiser: ``{"public_names": true}`` shows the public the full names and handles
    of the members its roster made; ``false`` (the default) their names as initials and no handle,
    on every public route and export at once."""
    await managed_club(request, club_id)
    data = await strict_body(request, m.ClubEdit)
    await store.set_public_names(core_of(request).db, club_id, data.public_names)
    return club_out(await find_club(request, club_id))


@post(
    "/api/clubs/{club_id:int}/organisers",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 415),
)
async def add_organiser(request: Request[Any, Any, Any], club_id: int, data: m.ClubOrganiserAdd) -> m.Club:
    """A club's organiser: another organiser organises the club too."""
    await managed_club(request, club_id)
    data = await strict_body(request, m.ClubOrganiserAdd)
    db = core_of(request).db
    other = await store.organiser(db, data.organiser) if valid_id(data.organiser) else None
    if other is None or other["revoked_at"] is not None:
        raise NotFoundException(f"no organiser {data.organiser}")
    await store.add_club_organiser(db, club_id, data.organiser)
    return club_out(await find_club(request, club_id))


@get(
    "/api/clubs/{club_id:int}/members",
    security=[*ORGANISER, *PLAYER],
    responses=errors(401, 403, 404),
)
async def list_members(request: Request[Any, Any, Any], club_id: int) -> list[m.Member]:
    """The club's organisers and members: every member, by name."""
    viewer = await viewer_of(request)
    if viewer == NOBODY:  # no token (401), or one nobody holds (403), before anything else
        if "authorization" not in request.headers:
            raise HTTPException(status_code=401, detail="the club's organisers and members only: send a token")
        raise PermissionDeniedException("the club's organisers and members only")
    await find_club(request, club_id)
    if not (viewer.owner or club_id in viewer.organised or club_id in viewer.member_of):
        raise PermissionDeniedException("the club's organisers and members only")
    return [m.Member(**dict(r)) for r in await store.members(core_of(request).db, club_id)]


@get(
    "/api/clubs/{club_id:int}/invite",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404),
)
async def get_invite(request: Request[Any, Any, Any], club_id: int) -> m.Invite:
    """A club's organiser: the invite code to hand out."""
    row = await managed_club(request, club_id)
    return m.Invite(invite=row["invite_code"])


@post(
    "/api/clubs/{club_id:int}/invite",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404),
)
async def rotate_invite(request: Request[Any, Any, Any], club_id: int) -> m.Invite:
    """A club's organiser: a new invite code; the old one stops admitting at once."""
    await managed_club(request, club_id)
    invite = new_invite()
    await store.set_invite(core_of(request).db, club_id, invite)
    return m.Invite(invite=invite)


@post(
    "/api/clubs/{club_id:int}/members",
    status_code=201,
    security=PLAYER,
    guards=[limit_guard("join"), player_guard],
    responses=errors(400, 401, 403, 404, 415, 429),
)
async def join_club(request: Request[Any, Any, Any], club_id: int, data: m.ClubJoin) -> m.Club:
    """A player with an account: join the club with its invite code (limited per client address)."""
    player = request.state.player  # player_guard's: 401 before the body is read
    data = await strict_body(request, m.ClubJoin)
    db = core_of(request).db
    row = await find_club(request, club_id)
    account = await store.player(db, player["id"])
    if account is None or account["handle"] is None:
        raise PermissionDeniedException("an account (a handle) is needed to join a club: a guest has none")
    if not same_secret(data.invite.strip().lower(), row["invite_code"]):
        raise PermissionDeniedException("wrong invite code")
    await store.join_club(db, club_id, player["id"])
    return club_out(await find_club(request, club_id))


async def club_member(request: Request[Any, Any, Any], club_id: int, player_id: int, doing: str) -> Any:
    """A member the caller may manage the account of: the club's organiser (403), the member in the
    club (404), and the account made by this club's roster (403: only that club manages it)."""
    await managed_club(request, club_id)
    db = core_of(request).db
    member = await store.player(db, player_id) if valid_id(player_id) else None
    if member is None or not await store.is_member(db, club_id, player_id):
        raise NotFoundException(f"no member {player_id} in club {club_id}")
    if member["roster_club_id"] != club_id:
        raise PermissionDeniedException(
            f"member {player_id} was not made by this club's roster: only the club that made the account {doing}"
        )
    return member


@post(
    "/api/clubs/{club_id:int}/members/{player_id:int}/code",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(401, 403, 404, 409),
)
async def replace_code(request: Request[Any, Any, Any], club_id: int, player_id: int) -> m.MemberCode:
    """The organiser of the club whose roster made the member (403 for another club it joined): a
    new sign-in code (shown once); the old one stops working and every session the member had ends,
    on every server process. A member who chose a password keeps it: 409."""
    member = await club_member(request, club_id, player_id, "replaces its code")
    if member["code_hash"] is None:
        raise HTTPException(status_code=409, detail=CHOSE_PASSWORD)
    code = new_code()
    ended = await store.replace_code(core_of(request).db, player_id, await hashed(code))
    if ended is None:  # it chose a password while its code was hashed
        raise HTTPException(status_code=409, detail=CHOSE_PASSWORD)
    await signouts_of(request).ended(ended)
    return m.MemberCode(player_id=player_id, name=member["name"], handle=member["handle"], code=code)


ROUTES = [
    create_club,
    my_clubs,
    get_club,
    edit_club,
    add_organiser,
    list_members,
    get_invite,
    rotate_invite,
    join_club,
    replace_code,
]
