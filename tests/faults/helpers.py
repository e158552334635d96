"""What the fault tests share: servers they own, bots, and reading PostgreSQL directly."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from spidertour.engine import Game, Settings, move_from_json
from spidertour.server.cli.bots.config import BotConfig
from spidertour.server.cli.bots.swarm import Swarm
from tests.conftest import server_env
from tests.serverproc import ServerProcess


def start_server(database_url: str, redis_url: str, admin_token: str, redis_prefix: str) -> ServerProcess:
    return ServerProcess(database_url, redis_url, admin_token, env=server_env(redis_prefix)).start()


async def swarm_of(
    url: str,
    tournament_id: int,
    players: int,
    ack_log: str | None = None,
    pace: float = 20.0,
    seed: int = 1,
    watchers: int = 0,
) -> Swarm:
    """Bots joined and connected, games started, ready to ``play``."""
    swarm = Swarm(
        BotConfig(
            servers=[url],
            tournament_id=tournament_id,
            players=players,
            watchers=watchers,
            pace=pace,
            policy="random",
            seed=seed,
            duration=60,
            name_prefix=f"t{tournament_id}",
        ),
        ack_log,
    )
    await swarm.setup()
    await swarm.connect()
    return swarm


async def wait_for(check: Callable[[], bool | Awaitable[bool]], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        ok = check()
        if not isinstance(ok, bool):
            ok = await ok
        if ok:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


async def fetch(database_url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(database_url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def stored_moves(database_url: str, entry_id: int) -> list[dict[str, Any]]:
    rows = await fetch(
        database_url, "SELECT n, seq, move::text AS move, t FROM moves WHERE entry_id = $1 ORDER BY n", entry_id
    )
    return [{"n": r["n"], "seq": r["seq"], "move": json.loads(r["move"]), "t": r["t"]} for r in rows]


def replayed(settings: dict[str, Any], seed: str, moves: list[dict[str, Any]]) -> Game:
    """The game as the engine alone rebuilds it from the stored moves and their times."""
    game = Game(Settings.from_json(settings), seed)
    for m in moves:
        game.play(move_from_json(m["move"]), m["t"])
    return game


async def row_counts(database_url: str) -> dict[str, int]:
    rows = await fetch(
        database_url,
        """SELECT (SELECT count(*) FROM tournaments) AS tournaments,
                                               (SELECT count(*) FROM players) AS players,
                                               (SELECT count(*) FROM entries) AS entries,
                                               (SELECT count(*) FROM moves) AS moves""",
    )
    return dict(rows[0])
