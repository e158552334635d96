"""What many server tests share: error checks, names, the database, the CLI, players and watchers."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import httpx
import pytest
import websockets

from spidertour.engine import Game, Settings
from tests.client import Api, Player
from tests.serverproc import ROOT

FREE = 8  # spider78's free column


def assert_error(r: httpx.Response, status: int, *needles: str) -> dict[str, Any]:
    """An HTTP error: the right status, a JSON body with the same status and a reason naming the problem."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert body["status_code"] == status
    assert isinstance(body["detail"], str) and body["detail"]
    text = (body["detail"] + " " + json.dumps(body.get("extra"))).lower()
    for needle in needles:
        assert needle.lower() in text, (needle, body)
    return body  # type: ignore[no-any-return]


def canonical_commitment(seed: str, settings: dict[str, Any], salt: str | None = None) -> str:
    """The commitment as docs/protocol.md defines it, computed here without the server's code."""
    committed: dict[str, Any] = {"seed": seed, "settings": settings}
    if salt is not None:
        committed["salt"] = salt
    text = json.dumps(committed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(4)}"


def body_for(name: str, **fields: Any) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {
        "name": name,
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        **fields,
    }


async def count_tournaments(database_url: str, name: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM tournaments WHERE name = $1", name))
    finally:
        await conn.close()


def wait_status(api: Api, tournament_id: int, status: str, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        tour = api.tournament(tournament_id)
        if tour["status"] == status:
            return tour
        assert time.monotonic() < deadline, f"tournament {tournament_id} is {tour['status']}, never {status}"
        time.sleep(0.1)


async def fetch(database_url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(database_url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


def reveal_move(seed: str) -> dict[str, Any]:
    """Column 0's exposed card onto the free column: one reveal, 25 points."""
    game = Game(Settings(variant="spider78", suits=2), seed)
    result = game.play_json({"type": "move", "from": 0, "count": 1, "to": FREE})
    assert result.revealed == 1 and game.score == 25
    return {"type": "move", "from": 0, "count": 1, "to": FREE}


async def watcher(ws_url: str, tournament_id: int | str) -> tuple[websockets.ClientConnection, dict[str, Any]]:
    ws = await websockets.connect(f"{ws_url}/ws/watch/{tournament_id}")
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return ws, first


async def next_update(ws: websockets.ClientConnection, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == "update":
            return msg


async def refused_watch(url: str, close_code: int) -> dict[str, Any]:
    """Open a watch connection the server refuses: its error message, then the close code."""
    async with websockets.connect(url) as ws:
        msg: dict[str, Any] = json.loads(await ws.recv())
        assert msg["type"] == "error", msg
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == close_code
    return msg


async def new_player(api: Api, ws_url: str, tid: int, name: str) -> tuple[Player, dict[str, Any]]:
    _, token = api.register(name)
    entry = api.join(tid, token)
    player, _ = await Player.connect(ws_url, entry["id"], token)
    await player.start()
    return player, entry


def spidertour(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("ADMIN_TOKEN", "SPIDERTOUR_URL", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, "-m", "spidertour.server.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**clean, **env},
    )


def stamp(seconds_from_now: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds_from_now)).isoformat()
