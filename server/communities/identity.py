"""Who is asking: the owner (the admin token), an organiser (its own token, or a session of the
account it is, unless revoked), a player, or nobody; and what each may manage or see.

An organiser manages what it owns (``organiser_id``) and what belongs to a club it organises
(``club_id``); the owner manages everything. ``organiser_guard`` lets the owner and organisers in
(before the body is read); ``viewer_of`` knows any caller, for routes everyone may read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import asyncpg
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, NotAuthorizedException, PermissionDeniedException
from litestar.handlers import BaseRouteHandler

from ..core import core_of
from ..lib.http import bearer, valid_id
from ..lib.tokens import same_secret, token_hash
from ..players.auth import require_player
from . import store

NEEDED = "the admin token or an organiser's token is needed for this"  # or an organiser's session
_KEY = "spidertour.viewer"  # where a request keeps the caller once known


@dataclass(frozen=True)
class Viewer:
    """The caller. ``organised``: the clubs an organiser organises; ``member_of``: a player's clubs."""

    owner: bool = False
    organiser_id: int | None = None
    organiser_name: str | None = None
    player_id: int | None = None
    organised: frozenset[int] = frozenset()
    member_of: frozenset[int] = frozenset()

    @property
    def organiser(self) -> bool:
        """The owner or an organiser: may create tournaments, schedules and clubs."""
        return self.owner or self.organiser_id is not None

    def manages(self, organiser_id: int | None, club_id: int | None) -> bool:
        """May it manage what this organiser (None: the owner) or club owns?"""
        if self.owner:
            return True
        if self.organiser_id is None:
            return False
        return organiser_id == self.organiser_id or (club_id is not None and club_id in self.organised)

    def sees(self, listed: bool, organiser_id: int | None, club_id: int | None) -> bool:
        """Is a tournament in its list? Listed ones for everyone, unlisted for its organisers and club."""
        return listed or self.manages(organiser_id, club_id) or (club_id is not None and club_id in self.member_of)

    @property
    def clubs(self) -> list[int]:
        """The clubs whose unlisted tournaments it sees."""
        return sorted(self.organised | self.member_of)


OWNER = Viewer(owner=True)
NOBODY = Viewer()


async def _organiser(db: asyncpg.Pool, token: str) -> Viewer | None:
    row = await store.organiser_by_token(db, token_hash(token))
    if row is None:
        return None
    clubs = await store.organised_clubs(db, row["id"])
    return Viewer(organiser_id=row["id"], organiser_name=row["name"], organised=frozenset(clubs))


async def _resolve(connection: ASGIConnection[Any, Any, Any, Any]) -> Viewer:
    """The caller by its bearer token (NOBODY without one, or with one nobody holds)."""
    if "authorization" not in connection.headers:
        return NOBODY
    try:
        token = bearer(connection)
    except NotAuthorizedException:
        return NOBODY
    core = core_of(connection)
    if same_secret(token, core.admin_token):
        return OWNER
    organiser = await _organiser(core.db, token)
    if organiser is not None:
        return organiser
    try:
        player = await require_player(cast(Any, connection))
    except NotAuthorizedException:
        return NOBODY
    found = await store.player_viewer(core.db, player["id"])
    member_of = frozenset(found["member_of"])
    if found["id"] is None:  # no organiser, or a revoked one
        return Viewer(player_id=player["id"], member_of=member_of)
    return Viewer(
        organiser_id=found["id"],
        organiser_name=found["name"],
        player_id=player["id"],
        organised=frozenset(found["clubs"]),
        member_of=member_of,
    )


async def viewer_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Viewer:
    """The caller, looked up once a request."""
    scope = cast(dict[str, Any], connection.scope)
    if _KEY not in scope:
        scope[_KEY] = await _resolve(connection)
    return cast(Viewer, scope[_KEY])


async def organiser_guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: the owner or an unrevoked organiser (401 without a token, 403 with another one)."""
    bearer(connection)
    if not (await viewer_of(connection)).organiser:
        raise PermissionDeniedException(NEEDED)


# What an organiser is told when it has as many of a kind as it may (``*_PER_ORGANISER``).
_FULL = {
    "schedules": "running schedules: stop one first",
    "clubs": "clubs",
    "series": "series",
}


def limit_reached(what: str, most: int) -> HTTPException:
    """409: the organiser has as many ``what`` as an organiser may (the owner has no limit)."""
    return HTTPException(status_code=409, detail=f"an organiser may have at most {most} {_FULL[what]}")


def require_manage(viewer: Viewer, row: Any, what: str = "tournament") -> None:
    """403 ``not your tournament`` (or schedule, club) unless the caller manages this row."""
    if not viewer.manages(row["organiser_id"], row["club_id"]):
        raise PermissionDeniedException(f"not your {what}")


async def require_club_use(db: asyncpg.Pool, viewer: Viewer, club_id: int | None) -> None:
    """A tournament or schedule for this club: the club exists (400) and the caller organises it (403)."""
    if club_id is None:
        return
    if not valid_id(club_id) or await store.club(db, club_id) is None:
        raise HTTPException(status_code=400, detail=f"no club {club_id}")
    if not (viewer.owner or club_id in viewer.organised):
        raise PermissionDeniedException(f"not your club: club {club_id} is organised by others")
