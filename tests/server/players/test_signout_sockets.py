"""An ended session closes its play sockets at once, on every server process; with Redis silent,
the periodic check of open sockets' sessions closes them within seconds."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

import asyncpg
import pytest
import websockets

from tests.client import Api, Player, bearer
from tests.serverproc import ServerProcess


def two_devices(api: Api) -> tuple[int, str, str, int]:
    """An account signed in twice, joined to a tournament: (player, token 1, token 2, entry)."""
    h = "s" + secrets.token_hex(5)
    body = api.http.post("/api/players", json={"name": "Dee", "handle": h, "password": "two devices"}).json()
    second = api.http.post("/api/sessions", json={"handle": h, "password": "two devices"}).json()["token"]
    tour = api.create_tournament("sign out", suits=1)
    entry = api.join(tour["id"], body["token"])
    return body["id"], body["token"], second, entry["id"]


async def closed_within(player: Player, seconds: float) -> tuple[list[dict[str, Any]], int, float]:
    """Messages until the server closes the socket, its close code, and how long it took."""
    began = time.monotonic()
    messages = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            raw = await asyncio.wait_for(player.ws.recv(), seconds - (time.monotonic() - began))
            messages.append(json.loads(raw))
    assert closed.value.rcvd is not None
    return messages, closed.value.rcvd.code, time.monotonic() - began


@pytest.mark.parametrize("where", ["same process", "other process"])
async def test_signing_out_everywhere_closes_the_play_socket(
    api: Api, server: ServerProcess, other_process: ServerProcess, where: str
) -> None:
    _, token, other_token, entry_id = two_devices(api)
    ws_url = server.ws_url if where == "same process" else other_process.ws_url
    player, state = await Player.connect(ws_url, entry_id, token)
    assert state["type"] == "state"
    assert (await player.request({"type": "ping"}))["type"] == "pong"
    r = api.http.delete("/api/sessions", headers=bearer(other_token))
    assert r.status_code == 204
    messages, code, took = await closed_within(player, 3.0)
    assert [m.get("code") for m in messages] == ["session_ended"]
    assert code == 4003 and took < 1.5  # Redis told it: far sooner than the periodic check
    # The ended token opens nothing any more.
    again, refused = await Player.connect(ws_url, entry_id, token)
    assert refused["type"] == "error" and refused["code"] == "unauthorised"
    await again.close()


async def test_signing_out_of_another_device_leaves_this_socket_open(api: Api, server: ServerProcess) -> None:
    _, token, other_token, entry_id = two_devices(api)
    player, _ = await Player.connect(server.ws_url, entry_id, token)
    assert api.http.delete("/api/sessions/current", headers=bearer(other_token)).status_code == 204
    await asyncio.sleep(0.5)
    assert (await player.request({"type": "ping"}))["type"] == "pong"
    assert api.http.delete("/api/sessions/current", headers=bearer(token)).status_code == 204
    messages, code, _ = await closed_within(player, 3.0)
    assert messages[-1]["code"] == "session_ended" and code == 4003


async def test_a_session_ended_without_a_word_on_redis_closes_within_seconds(
    api: Api, server: ServerProcess, database_url: str
) -> None:
    """As when Redis was out of reach at the sign-out: the check of open sessions finds it."""
    _, token, _, entry_id = two_devices(api)
    player, _ = await Player.connect(server.ws_url, entry_id, token)
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(
            "UPDATE sessions SET ended_at = now() WHERE player_id = (SELECT player_id FROM entries WHERE id = $1)",
            entry_id,
        )
    finally:
        await conn.close()
    messages, code, _ = await closed_within(player, 6.0)
    assert messages[-1]["code"] == "session_ended" and code == 4003
