"""``GET /api/me/organised``: what the caller organises (its tournaments, brackets, schedules,
series and clubs), newest first, a page at a time, never the whole server's."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Request, get
from litestar.params import Parameter

from ...core import core_of
from ...operations.openapi import ORGANISER, errors
from .. import messages as m
from ..identity import organiser_guard, viewer_of
from .organised_store import organised

Kind = Literal["tournament", "bracket", "schedule", "series", "club"]
Phase = Literal["running", "coming", "finished"]


@get("/api/me/organised", guards=[organiser_guard], security=ORGANISER, responses=errors(400, 401, 403))
async def my_organised(
    request: Request[Any, Any, Any],
    kind: Annotated[Kind | None, Parameter(query="kind")] = None,
    phase: Annotated[Phase | None, Parameter(query="phase")] = None,
    offset: Annotated[int, Parameter(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=200)] = 50,
) -> m.Organised:
    """An organiser (a signed-in account's session or a token; the owner: what no organiser runs):
    what it manages, newest first (?kind=tournament|bracket|schedule|series|club,
    ?phase=running|coming|finished, ?offset=0&limit=50), and how many of each kind in each phase."""
    viewer = await viewer_of(request)
    page, counts = await organised(core_of(request).db, viewer.organiser_id, kind, phase, limit, offset)
    totals: dict[str, dict[str, int]] = {}
    for row in counts:
        totals.setdefault(row["kind"], {})[row["phase"]] = row["n"]
    return m.Organised(items=[m.OrganisedItem(**dict(r)) for r in page], counts=totals, offset=offset, limit=limit)


ROUTES = [my_organised]
