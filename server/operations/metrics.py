"""Prometheus metrics of one server process, served at ``GET /metrics``.

The move path only increments counters and observes histograms (no I/O, nothing awaited);
figures that need the database (games and tournaments by status) are read when scraped.
"""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response, get
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry(auto_describe=True)

PLAY_CONNECTIONS = Gauge("spidertour_play_connections", "Play websocket connections open", registry=REGISTRY)
WATCHERS = Gauge("spidertour_watchers", "Watch websocket connections open", registry=REGISTRY)
MOVES = Counter("spidertour_moves", "Moves accepted and committed", registry=REGISTRY)
REFUSALS = Counter(
    "spidertour_refusals", "Error messages sent on play connections, by code", ["code"], registry=REGISTRY
)
ACK_SECONDS = Histogram(
    "spidertour_ack_seconds",
    "From a move's turn on its connection to its answer being sent (commit included)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
COMMIT_BATCH = Histogram(
    "spidertour_commit_batch_size",
    "Moves written by one commit",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
    registry=REGISTRY,
)
DB_ERRORS = Counter("spidertour_db_errors", "PostgreSQL calls that failed", registry=REGISTRY)
REDIS_ERRORS = Counter("spidertour_redis_errors", "Redis calls that failed", registry=REGISTRY)
REBUILDS = Counter("spidertour_leaderboard_rebuilds", "Leaderboards rebuilt from PostgreSQL", registry=REGISTRY)
GAMES = Gauge("spidertour_games", "Entries of unfinished tournaments, by status", ["status"], registry=REGISTRY)
TOURNAMENTS = Gauge("spidertour_tournaments", "Tournaments by status", ["status"], registry=REGISTRY)

ENTRY_STATUSES = ("joined", "playing", "won", "ended", "timed_out", "absent")
TOURNAMENT_STATUSES = ("scheduled", "open", "closing", "finished", "cancelled")


async def _read_database(request: Request[Any, Any, Any]) -> None:
    from . import store

    services = request.app.state.services
    try:
        games = await services.db.fetch(
            """SELECT e.status, count(*) AS n FROM tournaments t JOIN entries e ON e.tournament_id = t.id
                WHERE t.finished_at IS NULL GROUP BY e.status"""
        )
        tournaments = await services.db.fetch(
            f"SELECT {store.STATUS_SQL} AS status, count(*) AS n FROM tournaments t GROUP BY 1"
        )
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
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
