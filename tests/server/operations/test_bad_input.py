"""Bytes a client may send that are not what they seem: bodies that are not UTF-8, ids written with
signs, spaces or other scripts' digits, paths too long to name anything. Each gets a clear 4xx in the
project's error shape and changes nothing; /metrics names its type once."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest
import websockets

from tests.client import Api, bearer, play_url
from tests.server.helpers import assert_error, unique
from tests.serverproc import ServerProcess

NOT_UTF8 = [b'{"name": "\xff"}', b'{"name": "ok", "\xc3\x28": 1}', b'["\xfe\xff"]', b'{"reason": "\xed\xa0\x80"}']


async def _counts(database_url: str) -> tuple[int, ...]:
    conn = await asyncpg.connect(database_url)
    try:
        row = await conn.fetchrow(
            """SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM tournaments),
                      (SELECT count(*) FROM schedules),
                      (SELECT count(*) FROM entries WHERE disqualified_at IS NOT NULL),
                      (SELECT coalesce(max(id), 0) FROM tournaments)"""
        )
        assert row is not None
        return tuple(int(v) for v in row)
    finally:
        await conn.close()


@pytest.mark.parametrize("body", NOT_UTF8)
async def test_a_body_that_is_not_utf8_is_refused_on_every_json_route(api: Api, database_url: str, body: bytes) -> None:
    tour = api.create_tournament(name=unique("utf8"), opens_in=600, closes_in=1200)
    routes = [
        ("POST", "/api/players", {}),
        ("POST", "/api/tournaments", api.admin()),
        ("PATCH", f"/api/tournaments/{tour['id']}", api.admin()),
        ("POST", "/api/schedules", api.admin()),
        ("POST", f"/api/tournaments/{tour['id']}/entries/1/disqualify", api.admin()),
    ]
    before = await _counts(database_url)
    for method, path, headers in routes:
        r = api.http.request(
            method, path, content=body, headers={**headers, "content-type": "application/json; charset=utf-8"}
        )
        assert_error(r, 400, "not valid UTF-8")
    assert await _counts(database_url) == before
    assert api.tournament(tour["id"]) == tour


@pytest.mark.parametrize("raw", ["%D9%A1", "%EF%BC%91", "+1", "%201", "1%20", "1_0", "%091", "-1"])
def test_ids_not_in_plain_digits_name_nothing(api: Api, raw: str) -> None:
    tour = api.create_tournament(name=unique("digits"))
    real = str(tour["id"])
    assert api.http.get(f"/api/tournaments/{real}").status_code == 200
    for path in (
        f"/api/tournaments/{raw}",
        f"/api/tournaments/{raw}/standings",
        f"/api/tournaments/{raw}/leaderboard",
        f"/api/tournaments/{real}/leaderboard/around/{raw}",
    ):
        assert_error(api.http.get(path), 404)
    _, token = api.register(unique("digits"))
    assert_error(api.http.post(f"/api/tournaments/{raw}/entries", headers=bearer(token)), 404)
    assert api.http.get("/api/me/entries", headers=bearer(token)).json() == []


@pytest.mark.parametrize("raw", ["%D9%A1", "+1", "%201", "1_0"])
async def test_websocket_ids_not_in_plain_digits_name_nothing(api: Api, server: ServerProcess, raw: str) -> None:
    tour = api.create_tournament(name=unique("ws-digits"))
    ws = await websockets.connect(f"{server.ws_url}/ws/watch/{tour['id']}")
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert first["type"] == "snapshot"
    await ws.close()
    for kind in ("watch", "play"):
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(f"{server.ws_url}/ws/{kind}/{raw}")
        assert refused.value.response.status_code in (403, 404)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/" + "a" * 256, 404),
        ("/" + "é" * 128, 404),  # 256 bytes
        ("/js/" + "a" * 300 + ".js", 404),
        ("/api/tournaments/" + "1" * 300, 404),
        ("/" + "a/" * 1100, 414),
    ],
)
def test_paths_too_long_to_name_anything(api: Api, path: str, status: int) -> None:
    r = api.http.get(path)
    assert_error(r, status)
    assert api.http.get("/" + "a" * 255).status_code == 404  # just short enough: simply not there


async def test_binary_frames_that_are_not_utf8_are_answered_on_both_sockets(api: Api, server: ServerProcess) -> None:
    tour = api.create_tournament(name=unique("ws-utf8"))
    ws = await websockets.connect(f"{server.ws_url}/ws/watch/{tour['id']}")
    try:
        await asyncio.wait_for(ws.recv(), 10)
        await ws.send(b'{"type": "\xff"}')
        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert reply["type"] == "error" and reply["code"] == "bad_message"
        await ws.send('{"type": "ping"}')
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"  # still connected
    finally:
        await ws.close()
    _, token = api.register(unique("ws-utf8"))
    entry = api.join(tour["id"], token)
    ws = await websockets.connect(play_url(server.ws_url, entry["id"]))
    try:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        state = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert state["type"] == "state"
        await ws.send(b'{"type": "\xff"}')
        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert reply["type"] == "error" and "UTF-8" in reply["reason"], reply
        await ws.send(json.dumps({"type": "start"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["status"] == "playing"  # still connected
    finally:
        await ws.close()


def test_metrics_name_their_charset_once(api: Api) -> None:
    r = api.http.get("/metrics")
    assert r.status_code == 200
    content_type = r.headers["content-type"]
    assert content_type.startswith("text/plain; version=")
    assert content_type.count("charset") == 1, content_type
