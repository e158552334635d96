"""Websockets per client address: at most WEBSOCKETS_PER_ADDRESS open at once on one process, play
and watch together; past it a new one gets ``too_many_connections`` and close 4029, and one closing
frees a place. The address is the client's as TRUSTED_PROXIES decides it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import websockets

from tests.client import Api, play_url
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

Connection = websockets.ClientConnection
CAP = 3
CLIENT = "203.0.113.9"  # a documentation address (RFC 5737), as a proxy would forward it


@pytest.fixture(scope="module")
def capped(database_url: str, redis_url: str, admin_token: str) -> Iterator[ServerProcess]:
    # The test's own 127.0.0.1 is trusted as a proxy: without X-Forwarded-For it is the client itself.
    env = {
        **server_env(unique_name("st_cap")),
        "WEBSOCKETS_PER_ADDRESS": str(CAP),
        "TRUSTED_PROXIES": "127.0.0.1",
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def tournament_id(capped: ServerProcess, admin_token: str) -> int:
    tournament = Api(capped.url, admin_token).create_tournament(name="capped", variant="spider78", suits=1)
    return int(tournament["id"])


def headers(forwarded: str | None) -> dict[str, str]:
    return {"X-Forwarded-For": forwarded} if forwarded else {}


async def first_message(url: str, forwarded: str | None = None) -> tuple[websockets.ClientConnection, dict[str, Any]]:
    ws = await websockets.connect(url, additional_headers=headers(forwarded))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 10))


async def assert_refused(url: str, forwarded: str | None = None) -> None:
    ws, msg = await first_message(url, forwarded)
    async with ws:
        assert msg["type"] == "error" and msg["code"] == "too_many_connections", msg
        assert f"at most {CAP} at once" in msg["reason"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4029


@contextlib.asynccontextmanager
async def watchers(url: str, count: int, forwarded: str | None = None) -> AsyncIterator[list[Connection]]:
    opened: list[Connection] = []
    try:
        for _ in range(count):
            ws, msg = await first_message(url, forwarded)
            opened.append(ws)
            assert msg["type"] == "snapshot", msg
        yield opened
    finally:
        for ws in opened:
            await ws.close()


async def test_one_address_past_the_cap_is_refused_until_one_closes(capped: ServerProcess, tournament_id: int) -> None:
    url = f"{capped.ws_url}/ws/watch/{tournament_id}"
    async with watchers(url, CAP) as opened:
        await assert_refused(url)
        await assert_refused(play_url(capped.ws_url, 1))  # play (on the play port) and watch count together
        await assert_refused(f"{capped.ws_url}/ws/play/1")  # and on the server's own port
        await assert_refused(f"ws://127.0.0.1:{capped.play_port}/ws/watch/{tournament_id}")  # a watcher there too
        await opened.pop().close()
        # Its place is free once the server has seen it close (soon after; at most a generous bound).
        for _ in range(100):
            ws, msg = await first_message(url)
            if msg["type"] == "snapshot":
                opened.append(ws)
                break
            await ws.close()
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the closed watcher's place was never freed")
        await assert_refused(url)  # full again
        # Those that were let in are served as ever.
        await opened[0].send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(opened[0].recv(), 10))["type"] == "pong"


async def test_each_forwarded_client_has_its_own_count(capped: ServerProcess, tournament_id: int) -> None:
    url = f"{capped.ws_url}/ws/watch/{tournament_id}"
    async with watchers(url, CAP), watchers(url, CAP, forwarded=CLIENT):
        await assert_refused(url, forwarded=CLIENT)
        await assert_refused(play_url(capped.ws_url, 1), forwarded=CLIENT)  # the play port decides it alike
        await assert_refused(url)
        # A client that writes its own X-Forwarded-For after the proxy's still counts as the one the
        # proxy saw (the right-most address that is not a trusted proxy).
        await assert_refused(url, forwarded=f"198.51.100.1, {CLIENT}")
    async with watchers(url, CAP, forwarded="198.51.100.1"):
        pass
