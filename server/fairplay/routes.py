"""The organiser's integrity report over HTTP (admin token)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from litestar import Request, get
from litestar.exceptions import NotFoundException

from ..core import core_of
from ..lib.http import admin_guard, valid_id
from ..operations.openapi import ADMIN, errors
from . import store
from .integrity import report
from .messages import IntegrityReport


@get(
    "/api/tournaments/{tournament_id:int}/integrity",
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def integrity(request: Request[Any, Any, Any], tournament_id: int) -> IntegrityReport:
    """Organiser (admin token): shared client addresses, undo peeks and scouting entries, each
    with its evidence. Nothing is done about them: the organiser decides."""
    db = core_of(request).db
    tour = await store.tournament(db, tournament_id) if valid_id(tournament_id) else None
    if tour is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    rows = await store.integrity_rows(db, tournament_id)
    # Replaying every game is CPU work: off the event loop, so play goes on meanwhile.
    return await asyncio.to_thread(report, tour, rows, datetime.now(UTC))


ROUTES = [integrity]
