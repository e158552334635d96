"""``spidertour ratings rebuild`` (recompute every rating from PostgreSQL) and ``spidertour ratings
show PLAYER_ID`` (a player's ratings as stored), both on the database of $DATABASE_URL."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..competitions import rating_store, ratings
from ..config import Config
from ..storage.pool import Connection
from .args import an_id
from .serve import _config

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


def add_commands(sub: Any) -> None:
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
