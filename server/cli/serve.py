"""``spidertour serve``, ``spidertour migrate`` and ``spidertour ratings rebuild|show``: the server
itself, its database's migrations, and the ratings recomputed from (or read in) its database.

All read the configuration from the environment first: a bad value is one line naming the
variable, and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..config import Config, ConfigError
from .args import an_id

if TYPE_CHECKING:  # the ratings and the database are imported by the commands that use them
    from ..storage.pool import Connection

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
    # The address is taken before anything starts: one taken already (a second server, say) is one
    # line and status 2, with no embedded PostgreSQL or Valkey started for nothing.
    if config.play_port == port:
        print(f"error: PLAY_PORT: the play port must differ from the server's port ({port})", file=sys.stderr)
        return 2
    try:
        listener = listen(host, port)
    except ListenError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        play_listener = None if config.play_port is None else listen(host, config.play_port, "PLAY_PORT")
    except ListenError as err:
        listener.close()
        print(f"error: {err}", file=sys.stderr)
        return 2
    log_config = configure(level, json_logs=config.log_format == "json")
    if config.database_url is not None:  # one not reached (after the start's wait) is one line, not a traceback
        problem = asyncio.run(_unreachable(config.database_url))
        if problem is not None:
            listener.close()
            if play_listener is not None:
                play_listener.close()
            print(f"error: DATABASE_URL: {problem}", file=sys.stderr)
            return 2
    also = (
        ""
        if config.play_port is None
        else f" (the play and watch sockets also on ws://{host}:{config.play_port}/ws/play/ and /ws/watch/)"
    )
    print(f"spidertour on http://{host}:{port}/{also}", flush=True)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config, play_listener),
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
    )
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C: the server has shut down already (uvicorn raises it again after)
        return 130
    finally:
        listener.close()
        if play_listener is not None:
            play_listener.close()
    return 0


async def _unreachable(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used (a refused password, an unknown database, no answer
    within the start's wait), in one line; None when it answers."""
    import asyncpg

    from ..storage.available import wait_for_database

    try:
        await wait_for_database(url)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
        text = " ".join(str(err).split()) or type(err).__name__
        return f"PostgreSQL cannot be used: {text}"
    return None


class ListenError(Exception):
    """The server cannot listen where it is told to: the message says why, in one line."""


def listen(host: str, port: int, variable: str = "PORT") -> socket.socket:
    """A socket listening on ``host``:``port`` (an address or a name of this machine); ``variable``
    names the setting of the port in the errors."""
    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError):
        raise ListenError(f"HOST: {host!r} is not an address of this machine") from None
    try:
        listener = socket.create_server(address[:2], family=family)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise ListenError(
                f"{variable}: port {port} is in use on {host} (another server?): choose another with {variable}"
                + (" or --port" if variable == "PORT" else "")
            ) from None
        if err.errno == errno.EADDRNOTAVAIL:
            raise ListenError(f"HOST: {host!r} is not an address of this machine") from None
        if err.errno == errno.EACCES:
            raise ListenError(f"{variable}: port {port} on {host} needs privileges this user lacks") from None
        raise ListenError(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    listener.set_inheritable(True)
    return listener


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
    serve.add_argument("--host", help="the address to listen on (default $HOST or 127.0.0.1)")
    serve.add_argument("--port", type=port, help="the HTTP port (default $PORT or 8000)")
    serve.add_argument("--log-level", choices=LOG_LEVELS, help="default $LOG_LEVEL or info")
    serve.set_defaults(run=run_serve)
    migrate = sub.add_parser("migrate", help="apply the SQL migrations of schema/ that are not yet applied")
    migrate.set_defaults(run=run_migrate)


def run_rebuild(args: argparse.Namespace) -> int:
    from ..competitions import ratings

    config = _config()
    if config is None:
        return 2

    async def work(conn: Connection) -> tuple[int, int]:
        return await ratings.rebuild(conn, args.game)

    tournaments, results = asyncio.run(_on_database(config, work))
    print(f"ratings rebuilt: {tournaments} rated tournaments applied in finish order, {results} results")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ..competitions import rating_scale, rating_store, ratings

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
                "rating": rating_scale.shown_of(r["mu"], r["sigma"]),  # as pages show it
                "provisional": rating_scale.provisional(r["games"]),
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
