"""A watcher that connects while PostgreSQL is out of reach (the proxy cut) gets the documented
try_again frame and close 1011, as a player does, and the leaderboard routes answer 503, rather
than a server error with a traceback."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.client import Api
from tests.faults.helpers import start_server, wait_for
from tests.faults.proxy import TcpProxy


async def test_watch_while_postgres_is_cut(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    with TcpProxy.for_database(fresh_database_url) as proxy:
        proc = start_server(proxy.url, redis_url, admin_token, redis_prefix + "_watchcut")
        try:
            api = Api(proc.url, admin_token)
            tid = api.create_tournament(name="watch cut", seed="fault-watch-cut")["id"]
            async with websockets.connect(f"{proc.ws_url}/ws/watch/{tid}") as ws:
                assert json.loads(await ws.recv())["type"] == "snapshot"
            logged = proc.log_path.stat().st_size

            proxy.cut()
            for path in (f"/ws/watch/{tid}", f"/ws/watch/{tid}?follow=1", "/ws/watch/999"):
                async with websockets.connect(f"{proc.ws_url}{path}") as ws:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 15))
                    assert frame == {
                        "type": "error",
                        "code": "try_again",
                        "reason": "the database is unavailable: reconnect in a moment",
                        "seq": None,
                    }, frame
                    await asyncio.wait_for(ws.wait_closed(), 15)
                    assert (ws.close_code, ws.close_reason) == (1011, "database unavailable")
            # The leaderboard over HTTP: 503, not a server error.
            for path in (f"/api/tournaments/{tid}/leaderboard", f"/api/tournaments/{tid}/leaderboard/around/1"):
                r = api.http.get(path)
                assert r.status_code == 503 and r.headers["retry-after"] == "1", (path, r.status_code, r.text)
                assert r.json() == {"status_code": 503, "detail": "the database is unavailable: try again in a moment"}
            with proc.log_path.open() as f:
                f.seek(logged)
                log = f.read()
            assert "database unavailable; closing a watcher of tournament" in log, log
            assert "-> 500" not in log and "watch/socket.py" not in log, log  # no server error, no traceback of it

            proxy.restore()
            await wait_for(lambda: api.http.get("/health").status_code == 200, 15, "healthy again")
            async with websockets.connect(f"{proc.ws_url}/ws/watch/{tid}") as ws:
                assert json.loads(await asyncio.wait_for(ws.recv(), 15))["type"] == "snapshot"
        finally:
            proc.stop()
