"""The Litestar application: ``create_app(config)`` and the lifespan that opens and closes everything."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from litestar import Litestar, Request, Response
from litestar.datastructures import CacheControlHeader
from litestar.exceptions import HTTPException, ValidationException
from litestar.static_files import create_static_files_router
from redis.asyncio import Redis

from . import db, store
from .board_routes import BOARD_ROUTES
from .clock import run_clock
from .config import Config
from .hub import Hub
from .leaderboard import Leaderboard
from .limits import Limiter
from .logs import log_exception
from .metrics import metrics
from .openapi import ASSET_ROUTES, OPENAPI_CONFIG
from .organiser_routes import ORGANISER_ROUTES
from .play import play_socket
from .routes import ROUTES
from .security import json_bodies_only, security_headers
from .services import Embedded, Services
from .watch import watch_socket

log = logging.getLogger("spidertour")

STATIC_DIR = Path(__file__).resolve().parent / "static"  # the web client: plain HTML, CSS and JS modules


def validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[dict[str, Any]]:
    """Litestar's validation errors, with a plain reason where the framework's is cryptic."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    for item in extra:
        if isinstance(item, dict) and item.get("key") == "data" and item.get("message") == "'data'":
            item["message"] = "a JSON body is required"
    return Response({"status_code": 400, "detail": exc.detail, "extra": extra}, status_code=400)


def bad_path(request: Request[Any, Any, Any], exc: ValueError) -> Response[dict[str, Any]]:
    """A path the file system cannot name (a NUL byte) is simply not found."""
    if isinstance(exc, HTTPException):  # NotFoundException and friends are ValueErrors too
        body: dict[str, Any] = {"status_code": exc.status_code, "detail": exc.detail}
        if exc.extra:
            body["extra"] = exc.extra
        return Response(body, status_code=exc.status_code, headers=exc.headers)
    if "\x00" in request.url.path:
        return Response({"status_code": 404, "detail": "Not Found"}, status_code=404)
    return Response({"status_code": 500, "detail": "Internal Server Error"}, status_code=500)


def too_deep(request: Request[Any, Any, Any], exc: RecursionError) -> Response[dict[str, Any]]:
    """A JSON body nested past the decoder's depth."""
    return Response({"status_code": 400, "detail": "JSON is nested too deeply"}, status_code=400)


GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    """Fewer garbage collections. With Python's defaults (700, 10, 10) the collector ran every few
    dozen moves and, every so often, walked every object of every connection: a third of the
    server's CPU under load (py-spy --native). What was made at start-up is frozen (never walked
    again) and the collector runs once per 50,000 new container objects; cycles are still freed."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(config: Config | None = None) -> Litestar:
    config = config or Config.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        embedded = Embedded(config.data_dir)
        try:
            database_url = config.database_url or await asyncio.to_thread(embedded.postgres_url)
            redis_url = config.redis_url or await asyncio.to_thread(embedded.redis_url)
            pool = await db.create_pool(database_url, config.pool_size)
            async with pool.acquire() as conn:
                await db.migrate(conn)
            redis = Redis.from_url(redis_url)
            admin = config.admin_token
            if admin is None:
                admin = secrets.token_urlsafe(24)
                print(f"ADMIN_TOKEN={admin}  (generated; set ADMIN_TOKEN to choose one)", flush=True)
            board = Leaderboard(redis, config.redis_prefix)
            hub = Hub(redis, board, config.redis_prefix)
            key = config.address_key.encode() if config.address_key else await store.address_key(pool)
            limiter = Limiter(redis, config.redis_prefix, config.trusted_proxies, key)
            services = Services(
                config=config, db=pool, redis=redis, admin_token=admin, board=board, hub=hub, limiter=limiter
            )
            hub.on_takeover = services.taken_over_elsewhere
            app.state.services = services
            hub.start()
            tune_gc()
            services.tasks.append(asyncio.create_task(run_clock(services)))
            try:
                yield
            finally:
                for task in services.tasks:
                    task.cancel()
                if services.par_task is not None:
                    services.tasks.append(services.par_task)
                    services.par_task.cancel()
                await asyncio.gather(*services.tasks, return_exceptions=True)
                services.solver.close()
                await hub.stop()
                await redis.aclose()
                await pool.close()
        finally:
            await asyncio.to_thread(embedded.stop)

    return Litestar(
        route_handlers=[
            *ROUTES,
            *BOARD_ROUTES,
            *ORGANISER_ROUTES,
            play_socket,
            watch_socket,
            metrics,
            *ASSET_ROUTES,
            # no-cache: a browser never uses a stored copy unasked, so a new version of the client
            # (its files have no hashed names) is picked up at once.
            create_static_files_router(
                path="/",
                directories=[STATIC_DIR],
                html_mode=True,
                name="web",
                cache_control=CacheControlHeader(no_cache=True),
            ),
        ],
        lifespan=[lifespan],
        openapi_config=OPENAPI_CONFIG,
        logging_config=None,  # server/logs.py: configured by `spidertour serve`
        after_exception=[log_exception],
        middleware=[security_headers],
        guards=[json_bodies_only],
        exception_handlers={ValidationException: validation_error, ValueError: bad_path, RecursionError: too_deep},
    )
