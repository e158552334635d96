"""What the brackets' tests share: a server of their own, brackets created, joined and opened soon,
and waiting for a bracket to reach a status."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from tests.client import Api, bearer
from tests.conftest import server_env
from tests.server.helpers import stamp, unique
from tests.serverproc import ServerProcess

BLITZ = {"variant": "spider78", "suits": 2, "time_limit": 2}  # a round with nobody connected: 2 s


def start_server(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str, **settings: str
) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, redis_url, admin_token, env={**server_env(redis_prefix), **settings}).start()
    try:
        yield proc
    finally:
        proc.stop()


def create(api: Api, opens_in: float = 600, **fields: Any) -> dict[str, Any]:
    body = {"name": unique("cup"), "settings": BLITZ, "opens_at": stamp(opens_in), "break_seconds": 0, **fields}
    r = api.http.post("/api/brackets", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def join(api: Api, bracket_id: int, token: str, **body: Any) -> dict[str, Any]:
    r = api.http.post(f"/api/brackets/{bracket_id}/entries", json=body or None, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def open_soon(api: Api, bracket_id: int, seconds: float = 1.0) -> dict[str, Any]:
    """Bring the opening near (an organiser's edit before it opens)."""
    r = api.http.patch(f"/api/brackets/{bracket_id}", json={"opens_at": stamp(seconds)}, headers=api.admin())
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def bracket(api: Api, bracket_id: int) -> dict[str, Any]:
    r = api.http.get(f"/api/brackets/{bracket_id}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def wait_for(api: Api, bracket_id: int, status: str, timeout: float = 60, rounds: int = 0) -> dict[str, Any]:
    """The bracket once it has ``status`` (and at least ``rounds`` rounds)."""
    deadline = time.monotonic() + timeout
    while True:
        found = bracket(api, bracket_id)
        if found["status"] == status and len(found["rounds"]) >= rounds:
            return found
        assert time.monotonic() < deadline, f"bracket {bracket_id} is {found['status']}, never {status}"
        time.sleep(0.1)


def players(api: Api, count: int) -> list[tuple[int, str]]:
    return [api.register(unique("k")) for _ in range(count)]


def seeds_of(found: dict[str, Any], round_: int = 1) -> list[list[int]]:
    """The seeds of each pairing of a round, in slot order."""
    return [[p["seed"] for p in pairing["players"]] for pairing in found["rounds"][round_ - 1]["pairings"]]


async def play_game(ws_url: str, entry_id: int, token: str, reveal: bool = True) -> dict[str, Any]:
    """Wait for the server to start the game (together), turn column 0's top card over, and end it."""
    from tests.client import Player
    from tests.server.helpers import FREE

    player, state = await Player.connect(ws_url, entry_id, token)
    try:
        while state["status"] != "playing":
            state = await player.recv()
        if reveal:
            answer = await player.play({"type": "move", "from": 0, "count": 1, "to": FREE})
            assert answer["type"] == "result", answer
        answer = await player.play({"type": "end"})
        if answer["type"] == "result":
            answer = await player.recv()
        assert answer["type"] == "over", answer
        return answer
    finally:
        await player.close()
