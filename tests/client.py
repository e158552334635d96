"""A small client of the spidertour API for tests: HTTP with httpx, play over a real websocket."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets


class Api:
    def __init__(self, base_url: str, admin_token: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10)
        self.admin_token = admin_token

    def register(self, name: str = "player") -> tuple[int, str]:
        r = self.http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        return body["id"], body["token"]

    def create_tournament(
        self,
        name: str = "test",
        seed: str | None = None,
        opens_in: float = -1,
        closes_in: float = 3600,
        **settings: Any,
    ) -> dict[str, Any]:
        now = datetime.now(UTC)
        body: dict[str, Any] = {
            "name": name,
            "settings": settings,
            "opens_at": (now + timedelta(seconds=opens_in)).isoformat(),
            "closes_at": (now + timedelta(seconds=closes_in)).isoformat(),
        }
        if seed is not None:
            body["seed"] = seed
        r = self.http.post("/api/tournaments", json=body, headers=self.admin())
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]

    def join(self, tournament_id: int, token: str) -> dict[str, Any]:
        r = self.http.post(f"/api/tournaments/{tournament_id}/entries", headers=bearer(token))
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]

    def tournament(self, tournament_id: int) -> dict[str, Any]:
        r = self.http.get(f"/api/tournaments/{tournament_id}")
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def admin(self) -> dict[str, str]:
        return bearer(self.admin_token)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def seat_waiting(url: str, match_format: str) -> None:
    """Seat a new guest in every match of this format that waits (left by another test on the same
    server), so that the next ask hosts a match of its own."""
    for _ in range(50):
        formats = {f["name"]: f for f in httpx.get(f"{url}/api/matches/formats").json()}
        if formats[match_format]["waiting"] == 0:
            return
        guest = httpx.post(f"{url}/api/players", json={"name": "Filler"}).json()
        r = httpx.post(f"{url}/api/matches", json={"format": match_format}, headers=bearer(guest["token"]))
        assert r.status_code in (200, 201), r.text
    raise AssertionError(f"matches of {match_format} still wait")


def apply_result(view: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The view after a ``result``: the one before, its changed columns replaced and its fields merged."""
    columns = list(view["columns"])
    for i, cards in zip(result["changed"], result["columns"], strict=True):
        columns[i] = cards
    return {**view, **result["fields"], "columns": columns}


def play_url(ws_url: str, entry_id: int) -> str:
    """The play socket of an entry on the server at ``ws_url``, found as the web client finds it
    (``GET /api/play/socket``): on the play port when the server has one, else on its own port."""
    parts = urlsplit(ws_url)
    http = ("https" if parts.scheme == "wss" else "http") + "://" + parts.netloc
    port = httpx.get(f"{http}/api/play/socket", timeout=10).json()["port"]
    if port is None:
        return f"{ws_url}/ws/play/{entry_id}"
    host = f"[{parts.hostname}]" if parts.hostname and ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port}/ws/play/{entry_id}"


class Player:
    """One play connection. Every message received is kept in ``received`` (raw text).

    It keeps the last whole view (from ``state``) up to date with every ``result``, and puts the
    view after the move in the result it returns as ``view``, so tests compare whole views.
    """

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[str] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None

    @classmethod
    async def connect(cls, ws_url: str, entry_id: int, token: str) -> tuple[Player, dict[str, Any]]:
        ws = await websockets.connect(play_url(ws_url, entry_id), max_size=1 << 22)
        player = cls(ws)
        await player.send({"type": "auth", "token": token})
        state = await player.recv()
        return player, state

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.received.append(raw if isinstance(raw, str) else raw.decode())
        msg: dict[str, Any] = json.loads(raw)
        if msg.get("type") == "state":
            self.view = msg.get("view")
        elif msg.get("type") == "result" and self.view is not None:
            msg["view"] = self.view = apply_result(self.view, msg)
        return msg

    async def request(self, obj: Any, timeout: float = 10) -> dict[str, Any]:
        await self.send(obj)
        return await self.recv(timeout)

    async def start(self) -> dict[str, Any]:
        return await self.request({"type": "start"})

    async def play(self, move: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        if seq is None:
            self.seq += 1
            seq = self.seq
        return await self.request({**move, "seq": seq})

    async def close(self) -> None:
        await self.ws.close()
