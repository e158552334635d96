"""``spidertour serve``, ``spidertour migrate`` and ``spidertour ratings rebuild|show``: the server
itself, its database's migrations, and the ratings recomputed from (or read in) its database.

All read the configuration from the environment first: a bad value is one line naming the
variable, and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..competitions import rating_store, ratings
from ..config import Config, ConfigError
from ..storage.pool import Connection
from .args import an_id

LOG_LEVELS = ("debug", "info", "warning", "error")


def _config() -> Config | None:
    try:
        return Config.from_env()
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return None


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..app import create_app
    from ..operations.logs import configure
    from ..operations.timeouts import http_protocol

    config = _config()
    if config is None:
        return 2
    host = args.host or config.host
    port = args.port or config.port
    level = args.log_level or config.log_level
    log_config = configure(level, json_logs=config.log_format == "json")
    print(f"spidertour on http://{host}:{port}/", flush=True)
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        # uvicorn's httptools protocol, closing a connection whose request's headers or body come
        # too slowly (HEADER_TIMEOUT, BODY_TIMEOUT): uvicorn has no such timeouts of its own.
        http=http_protocol(config.header_timeout, config.body_timeout),
        ws_max_size=1 << 20,
        log_level=level,
        log_config=log_config,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        # The client's address is decided by the server's own TRUSTED_PROXIES setting
        # (server.fairplay.addresses), never by uvicorn, which would otherwise believe
        # X-Forwarded-For from any local peer.
        proxy_headers=False,
    )
    return 0


T = TypeVar("T")


async def _on_database(config: Config, work: Callable[[Connection], Awaitable[T]]) -> T:
    from ..storage.embedded import Embedded
    from ..storage.pool import connection

    embedded = Embedded(config.data_dir)
    try:
        url = config.database_url or embedded.postgres_url()
        async with connection(url, config.db_timeout) as conn:
            return await work(conn)
    finally:
        embedded.stop()


async def _migrate(config: Config) -> list[int]:
    from ..storage.migrations import migrate

    return await _on_database(config, migrate)


def run_migrate(args: argparse.Namespace) -> int:
    config = _config()
    if config is None:
        return 2
    applied = asyncio.run(_migrate(config))
    print(f"applied: {', '.join(f'{v:03d}' for v in applied) or 'nothing (up to date)'}")
    return 0


def port(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError("a port is a whole number from 1 to 65535")
    return int(text)


def add_commands(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the server (embedded PostgreSQL/Valkey unless DATABASE_URL/REDIS_URL)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=port)
    serve.add_argument("--log-level", choices=LOG_LEVELS, help="default $LOG_LEVEL or info")
    serve.set_defaults(run=run_serve)
    migrate = sub.add_parser("migrate", help="apply the SQL migrations of schema/ that are not yet applied")
    migrate.set_defaults(run=run_migrate)


def run_rebuild(args: argparse.Namespace) -> int:
    config = _config()
    if config is None:
        return 2

    async def work(conn: Connection) -> tuple[int, int]:
        return await ratings.rebuild(conn, args.game)

    tournaments, results = asyncio.run(_on_database(config, work))
    print(f"ratings rebuilt: {tournaments} rated tournaments applied in finish order, {results} results")
    return 0


def run_show(args: argparse.Namespace) -> int:
    config = _config()
    if config is None:
        return 2

    async def work(conn: Connection) -> list[dict[str, Any]]:
        rows = await rating_store.ratings_of(conn, args.player_id)
        return [
            {
                "game": r["game"],
                "mu": r["mu"],
                "sigma": r["sigma"],
                "ordinal": ratings.ordinal(rating_store.Rating(r["mu"], r["sigma"], r["games"])),
                "games": r["games"],
            }
            for r in rows
        ]

    rows = asyncio.run(_on_database(config, work))
    print(json.dumps(rows, indent=2))
    return 0


def add_ratings_commands(sub: Any) -> None:
    group = sub.add_parser("ratings", help="players' ratings per game (on the database of $DATABASE_URL)")
    commands = group.add_subparsers(dest="ratings_command", required=True)
    rebuild = commands.add_parser(
        "rebuild", help="recompute every rating from the stored standings of finished rated tournaments"
    )
    rebuild.add_argument("--game", help='only this game\'s ratings, e.g. "spider78/2"')
    rebuild.set_defaults(run=run_rebuild)
    show = commands.add_parser("show", help="a player's stored ratings as JSON")
    show.add_argument("player_id", type=an_id)
    show.set_defaults(run=run_show)
