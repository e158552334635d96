"""``spidertour serve`` and ``spidertour migrate``: the server itself, and its database's migrations.

Both read the configuration from the environment first: a bad value is one line naming the
variable, and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from ..config import Config, ConfigError

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


async def _migrate(config: Config) -> list[int]:
    from ..storage.embedded import Embedded
    from ..storage.migrations import migrate
    from ..storage.pool import connection

    embedded = Embedded(config.data_dir)
    try:
        url = config.database_url or embedded.postgres_url()
        async with connection(url, config.db_timeout) as conn:
            return await migrate(conn)
    finally:
        embedded.stop()


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
