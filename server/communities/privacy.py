"""Pupils' privacy: whose profile a caller may read, and making one public or private.

A roster makes its accounts private: such a profile is read by the member itself, the owner, and
the organisers and members of the member's clubs only; to anyone else it does not exist (404, as a
missing player, so ids cannot be walked). The member (``PATCH /api/me/profile``) or the club whose
roster made it (``PATCH /api/clubs/{id}/members/{player_id}/profile``) makes it public, or private
again. Any other player may make its own profile private, or public, the same way.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request, patch

from ..core import core_of
from ..lib.http import strict_body
from ..operations.openapi import ORGANISER, PLAYER, errors
from ..players.auth import player_guard
from . import messages as m
from . import store
from .clubs import club_member
from .identity import Viewer, organiser_guard


async def may_see_profile(db: asyncpg.Pool, viewer: Viewer, player_id: int, public: bool) -> bool:
    """May this caller read the profile of this player (public or not)?"""
    if public or viewer.owner or viewer.player_id == player_id:
        return True
    theirs = viewer.organised | viewer.member_of
    return bool(theirs) and not theirs.isdisjoint(await store.member_clubs(db, player_id))


@patch("/api/me/profile", security=PLAYER, guards=[player_guard], responses=errors(400, 401, 415))
async def show_my_profile(request: Request[Any, Any, Any], data: m.ProfileVisibility) -> m.ProfileShown:
    """Player: ``{"public": true}`` lets anyone read its profile; ``false`` keeps it to itself and
    its clubs (a roster's accounts start private)."""
    player_id = request.state.player["id"]
    data = await strict_body(request, m.ProfileVisibility)
    await store.set_profile_public(core_of(request).db, player_id, data.public)
    return m.ProfileShown(player_id=player_id, public=data.public)


@patch(
    "/api/clubs/{club_id:int}/members/{player_id:int}/profile",
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 415),
)
async def show_member_profile(
    request: Request[Any, Any, Any], club_id: int, player_id: int, data: m.ProfileVisibility
) -> m.ProfileShown:
    """The organiser of the club whose roster made the member (403 for another club): its profile
    made public (``{"public": true}``) or private again."""
    await club_member(request, club_id, player_id, "makes its profile public or private")
    data = await strict_body(request, m.ProfileVisibility)
    await store.set_profile_public(core_of(request).db, player_id, data.public)
    return m.ProfileShown(player_id=player_id, public=data.public)


ROUTES = [show_my_profile, show_member_profile]
