"""The watch websocket: anyone may follow a tournament's standings live, no account needed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import msgspec
from litestar import WebSocket, websocket

from . import protocol as p
from . import store
from .hub import TOP
from .leaderboard import Row
from .metrics import WATCHERS
from .services import Services

log = logging.getLogger("spidertour.watch")

CLOSE_BAD_REQUEST = 4000
CLOSE_NOT_FOUND = 4004
MAX_ID = 2**63 - 1  # PostgreSQL bigint
MAX_FOLLOW = 100


def parse_follow(raw: str | None) -> frozenset[int] | None:
    """``?follow=12,15``: the entries whose changes the watcher wants (absent: all; empty: none)."""
    if raw is None:
        return None
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if len(parts) > MAX_FOLLOW:
        raise ValueError(f"follow at most {MAX_FOLLOW} entries (got {len(parts)})")
    ids = set()
    for part in parts:
        if not part.isdecimal() or not 0 < int(part) <= MAX_ID:
            raise ValueError(f"follow takes entry ids separated by commas, not {part[:30]!r}")
        ids.add(int(part))
    return frozenset(ids)


class Snapshot(msgspec.Struct, tag="snapshot", omit_defaults=True):
    """Watch websocket: the first message, the standings as they are now."""

    tournament_id: int
    status: str
    entrants: int
    top: list[Row]
    at: float = 0.0


async def snapshot(services: Services, tournament_id: int, status: str, limit: int = TOP) -> Snapshot:
    rows = await standings_page(services, tournament_id, status, 0, limit)
    entrants = await ranked(services, tournament_id, status)
    return Snapshot(tournament_id=tournament_id, status=status, entrants=entrants, top=rows, at=time.time())


async def ranked(services: Services, tournament_id: int, status: str) -> int:
    """How many entries the ranking holds (counted where they are, never loaded)."""
    if status == "cancelled":
        return 0
    if status == "finished":
        return int(await services.db.fetchval("SELECT count(*) FROM standings WHERE tournament_id = $1", tournament_id))
    return await services.board.count(tournament_id)


async def standings_page(services: Services, tournament_id: int, status: str, offset: int, limit: int) -> list[Row]:
    """Final standings from PostgreSQL once finished, else the live ones from Redis (none once cancelled)."""
    if status == "cancelled":
        return []
    if status == "finished":
        return [
            Row(
                entry_id=r["entry_id"],
                player=r["player"],
                score=r["score"],
                status=r["status"],
                time_left=r["time_left"],
                rank=r["rank"],
            )
            for r in await store.standings(services.db, tournament_id, offset, limit)
        ]
    await services.board.ensure(services.db, tournament_id)
    return await services.board.page(tournament_id, offset, limit)


async def _refuse(socket: WebSocket, error: p.Error, close_code: int, close_reason: str) -> None:
    """Say why in an error message, then close: the watcher gets nothing else."""
    await socket.send_data(p.encoder.encode(error).decode())
    await socket.close(code=close_code, reason=close_reason)


@websocket("/ws/watch/{tournament_id:int}")
async def watch_socket(socket: WebSocket, tournament_id: int) -> None:
    """Watch a tournament: a snapshot first, then coalesced updates. See docs/protocol.md."""
    services: Services = socket.app.state.services
    await socket.accept()
    try:
        follow = parse_follow(socket.query_params.get("follow"))
    except ValueError as err:
        await _refuse(socket, p.Error(code="bad_message", reason=str(err)), CLOSE_BAD_REQUEST, "bad follow list")
        return
    tour = await store.tournament(services.db, tournament_id) if 0 < tournament_id <= MAX_ID else None
    if tour is None:
        error = p.Error(code="not_found", reason=f"no tournament {tournament_id}")
        await _refuse(socket, error, CLOSE_NOT_FOUND, "no such tournament")
        return
    watcher = services.hub.watch(tournament_id, follow)  # before the snapshot: nothing falls between
    sender: asyncio.Task[Any] | None = None
    WATCHERS.inc()
    try:
        first = await snapshot(services, tournament_id, tour["status"])
        await socket.send_data(p.encoder.encode(first).decode())

        async def send_updates() -> None:
            while True:
                await watcher.ready.wait()
                await socket.send_data(watcher.take(tournament_id).decode())

        sender = asyncio.create_task(send_updates())
        while True:
            event = await socket.receive()
            if event["type"] == "websocket.disconnect":
                break
            frame = event.get("text") or event.get("bytes") or b""
            try:
                asked = msgspec.json.decode(frame) if len(frame) <= services.config.max_message_bytes else None
            except (msgspec.DecodeError, RecursionError):
                asked = None
            reply: Any = (
                p.Pong(server_time=p.now())
                if isinstance(asked, dict) and asked.get("type") == "ping"
                else p.Error(code="bad_message", reason='a watch connection only listens (or answers {"type": "ping"})')
            )
            await socket.send_data(p.encoder.encode(reply).decode())
    except Exception:
        log.debug("watcher of tournament %s left", tournament_id, exc_info=True)
    finally:
        if sender is not None:
            sender.cancel()
        WATCHERS.dec()
        services.hub.unwatch(tournament_id, watcher)
        with contextlib.suppress(Exception):
            await socket.close()
