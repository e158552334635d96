"""What the matches' tests share: servers of their own (each on a database of its own, with formats
and timings of its own), asking for matches, and playing a seat over the real play socket."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import asyncpg

from tests.client import Api, Player, bearer
from tests.conftest import server_env
from tests.server.helpers import FREE, unique
from tests.serverproc import ServerProcess

TWO_SUITS = {"variant": "spider78", "suits": 2, "time_limit": 600}
# One format per test that seats players, so that no test's waiting matches seat another's players.
FORMATS = [
    *({"name": f"duo{i}", "settings": TWO_SUITS, "seats": 2} for i in range(16)),
    {"name": "trio", "settings": TWO_SUITS, "seats": 3},
    {"name": "race2", "settings": TWO_SUITS, "seats": 2},
    {"name": "race3", "settings": TWO_SUITS, "seats": 3},
    {"name": "blitz", "settings": {**TWO_SUITS, "time_limit": 2}, "seats": 2},
    {"name": "varied", "settings": {**TWO_SUITS, "deal_variation": True}, "seats": 2},
    {"name": "unrated", "settings": TWO_SUITS, "seats": 2, "rated": False},
]


def env(redis_prefix: str, **settings: str) -> dict[str, str]:
    return {**server_env(redis_prefix), "MATCH_FORMATS": json.dumps(FORMATS), **settings}


def start_server(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str, **settings: str
) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, redis_url, admin_token, env=env(redis_prefix, **settings)).start()
    try:
        yield proc
    finally:
        proc.stop()


def ask(api: Api, token: str, fmt: str) -> dict[str, Any]:
    r = api.http.post("/api/matches", json={"format": fmt}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def match(api: Api, match_id: int, token: str | None = None) -> dict[str, Any]:
    r = api.http.get(f"/api/matches/{match_id}", headers=bearer(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def wait_for(api: Api, match_id: int, status: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (found := match(api, match_id))["status"] != status:
        assert time.monotonic() < deadline, f"match {match_id} is {found['status']}, never {status}"
        time.sleep(0.1)
    return found


async def play(ws_url: str, entry_id: int, token: str, reveal: bool = False, end: bool = True) -> dict[str, Any]:
    """Start the seat's game; with ``reveal`` move column 0's top card to the free column (a reveal);
    end it. Returns the last answer (``over`` when ended)."""
    player, _ = await Player.connect(ws_url, entry_id, token)
    try:
        answer = await player.start()
        assert answer["type"] == "state", answer
        if reveal:
            answer = await player.play({"type": "move", "from": 0, "count": 1, "to": FREE})
            assert answer["type"] == "result", answer
        if end:
            answer = await player.play({"type": "end"})
            if answer["type"] == "result":
                answer = await player.recv()
            assert answer["type"] == "over", answer
        return answer
    finally:
        await player.close()


def players(api: Api, count: int, name: str = "m") -> list[tuple[int, str]]:
    return [api.register(unique(name)) for _ in range(count)]


async def set_rating(database_url: str, player_id: int, ordinal: float, game: str = "spider78/2") -> None:
    """A player rated ``ordinal`` (mu - 3 sigma) in ``game``, as a finished tournament leaves it."""
    sigma = 8.0
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(
            """INSERT INTO ratings (player_id, game, mu, sigma, games) VALUES ($1, $2, $3, $4, 1)
               ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma""",
            player_id,
            game,
            ordinal + 3 * sigma,
            sigma,
        )
    finally:
        await conn.close()


async def execute(database_url: str, sql: str, *args: Any) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()
