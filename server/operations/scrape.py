"""``GET /metrics``: the process's metrics in Prometheus' text format, with the figures that need
the database (games of unfinished tournaments and tournaments by status) read as they are scraped."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response, get
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..core import core_of
from ..storage.sql import STATUS_SQL
from .metrics import DB_ERRORS, GAMES, REGISTRY, TOURNAMENTS

ENTRY_STATUSES = ("joined", "playing", "won", "ended", "timed_out", "absent")
TOURNAMENT_STATUSES = ("scheduled", "open", "closing", "finished", "cancelled")


async def _read_database(request: Request[Any, Any, Any]) -> None:
    db = core_of(request).db
    try:
        games = await db.fetch(
            """SELECT e.status, count(*) AS n FROM tournaments t JOIN entries e ON e.tournament_id = t.id
                WHERE t.finished_at IS NULL GROUP BY e.status"""
        )
        tournaments = await db.fetch(f"SELECT {STATUS_SQL} AS status, count(*) AS n FROM tournaments t GROUP BY 1")
    except Exception:
        DB_ERRORS.inc()
        return
    counts = {r["status"]: r["n"] for r in games}
    for status in {*ENTRY_STATUSES, *counts}:
        GAMES.labels(status).set(counts.get(status, 0))
    counts = {r["status"]: r["n"] for r in tournaments}
    for status in {*TOURNAMENT_STATUSES, *counts}:
        TOURNAMENTS.labels(status).set(counts.get(status, 0))


@get("/metrics", media_type=MediaType.TEXT, include_in_schema=False)
async def metrics(request: Request[Any, Any, Any]) -> Response[bytes]:
    """Prometheus text format."""
    await _read_database(request)
    # The type as prometheus-client gives it, charset included: as a media type, the framework
    # would add its own charset after it.
    return Response(generate_latest(REGISTRY), headers={"content-type": CONTENT_TYPE_LATEST})
