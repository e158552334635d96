"""Overload: past MOVES_WAITING moves waiting to commit on a process, a move is answered
``try_again`` at once (before it changes anything), and the same move sent again later is played;
nothing is acknowledged before its commit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest

from spidertour.engine import Game, Settings
from tests.client import Api, Player
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}
SEED = "busy"


def two_moves() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two card moves, one after the other, legal on the tournament's deal."""
    game = Game(Settings(**SETTINGS), SEED)
    first = next(m for m in game.legal_moves() if m.type != "deal")
    game.play(first)
    second = next(m for m in game.legal_moves() if m.type != "deal")
    return first.to_json(), second.to_json()


@pytest.fixture(scope="module")
def slow_commits(database_url: str, redis_url: str, admin_token: str) -> Iterator[ServerProcess]:
    # One move may wait; commits start at least 3 s apart, so a second one waits its turn for seconds.
    env = {**server_env(unique_name("st_busy")), "MOVES_WAITING": "1", "COMMIT_INTERVAL_MS": "3000"}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


async def started(api: Api, proc: ServerProcess, tournament_id: int, name: str) -> tuple[Player, int]:
    _, token = api.register(name)
    entry = api.join(tournament_id, token)
    player, _ = await Player.connect(proc.ws_url, entry["id"], token)
    assert (await player.start())["status"] == "playing"
    return player, int(entry["id"])


async def stored(database_url: str, entry_ids: list[int]) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM moves WHERE entry_id = ANY($1)", entry_ids))
    finally:
        await conn.close()


async def test_past_the_moves_waiting_a_move_is_try_again_and_changes_nothing(
    slow_commits: ServerProcess, admin_token: str, database_url: str
) -> None:
    api = Api(slow_commits.url, admin_token)
    tournament = api.create_tournament(name="busy", seed=SEED, **SETTINGS)
    (a, a_entry), (b, b_entry) = [await started(api, slow_commits, tournament["id"], n) for n in ("busy-a", "busy-b")]
    move, next_move = two_moves()
    first = await a.play(move)  # commits at once (the first commit of a quiet spell)
    assert first["type"] == "result" and first["n"] == 1
    await a.send({**next_move, "seq": 2})  # waits for the next commit, seconds away
    await asyncio.sleep(0.3)
    refused = await b.play(move)  # one is waiting already: refused, at once
    assert refused["type"] == "error" and refused["code"] == "try_again" and refused["seq"] == 1
    assert "busy" in refused["reason"]
    waited = await a.recv()  # the waiting move was committed, then acknowledged
    assert waited["type"] == "result" and waited["n"] == 2
    again = await b.play(move, seq=1)  # the same move sent again: played as if it came first
    assert again["type"] == "result" and again["n"] == 1 and again["seq"] == 1
    assert again["view"] == first["view"]  # the refusal changed nothing
    assert await stored(database_url, [a_entry, b_entry]) == 3
    await a.close()
    await b.close()
