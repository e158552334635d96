"""Who may put a tournament in a series: the series' organisers (its organiser, its club's
organisers, the owner), with a tournament of the series' club when the series is a club's."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar.exceptions import HTTPException, PermissionDeniedException

from ...communities.identity import Viewer
from ...lib.http import valid_id
from . import store


def club_refusal(series: Any, club_id: int | None) -> str | None:
    """Why a tournament of this club (None: of no club) cannot join the series, if it cannot."""
    if series["club_id"] is not None and series["club_id"] != club_id:
        return f"series {series['id']} takes only the tournaments of club {series['club_id']}"
    return None


async def require_series_use(db: asyncpg.Pool, viewer: Viewer, series_id: int | None, club_id: int | None) -> None:
    """A tournament or schedule created for this series: it exists (400), the caller manages it
    (403 ``not your series``) and the tournament's club fits it (400)."""
    if series_id is None:
        return
    row = await store.series(db, series_id) if valid_id(series_id) else None
    if row is None:
        raise HTTPException(status_code=400, detail=f"no series {series_id}")
    if not viewer.manages(row["organiser_id"], row["club_id"]):
        raise PermissionDeniedException(f"not your series: series {series_id} is run by others")
    refusal = club_refusal(row, club_id)
    if refusal is not None:
        raise HTTPException(status_code=400, detail=f"{refusal}: give its club")
