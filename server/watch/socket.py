"""The watch websocket: anyone may follow a tournament's standings live, no account needed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

import msgspec
from litestar import WebSocket, websocket

from ..core import Core, core_of
from ..fairplay.sockets import admit, sockets_of
from ..lib.http import valid_id
from ..lib.litestar_socket import LitestarSocket
from ..lib.messages import Error, Pong, encoder, now
from ..operations.metrics import DB_ERRORS, WATCHERS
from ..storage.pool import UNAVAILABLE
from . import store
from .boards import Boards, boards_of
from .feeds import Direct
from .messages import Teams
from .standings import snapshot, team_standings
from .teams import teams_top

log = logging.getLogger("spidertour.watch")

CLOSE_BAD_REQUEST = 4000
CLOSE_NOT_FOUND = 4004
CLOSE_UNAVAILABLE = 1011  # as the play websocket's
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
        if not part.isdecimal() or not valid_id(int(part)):
            raise ValueError(f"follow takes entry ids separated by commas, not {part[:30]!r}")
        ids.add(int(part))
    return frozenset(ids)


class WatchTransport(Protocol):
    """What the watch code needs of its connection: Litestar's websocket on PORT
    (``lib.litestar_socket.LitestarSocket``) or the play port's lighter one (``play.sockets.fast``),
    which can also send at once (``direct``)."""

    async def accept(self) -> None: ...

    def query(self, name: str) -> str | None:
        """A parameter of the upgrade's query string (None: absent)."""
        ...

    async def receive(self) -> str | bytes | None:
        """The next message, or None once the client has gone."""
        ...

    async def send_message(self, data: bytes, who: str) -> bool:
        """Send a message (its JSON, UTF-8) as a text frame; False when the client has gone before it."""
        ...

    async def close(self, code: int, reason: str) -> None: ...

    def direct(self) -> Direct | None:
        """The connection as a ``Direct`` sender, when it can send without waiting."""
        ...


async def _refuse(socket: WatchTransport, error: Error, close_code: int, close_reason: str) -> None:
    """Say why in an error message, then close: the watcher gets nothing else (if it is still there)."""
    with contextlib.suppress(Exception):
        await socket.send_message(encoder.encode(error), "a refused watcher")
        await socket.close(close_code, close_reason)


async def _unavailable(socket: WatchTransport, tournament_id: int, err: Exception) -> None:
    """PostgreSQL out of reach or not answering: try_again, then close 1011, as the play websocket does."""
    DB_ERRORS.inc()
    log.warning("database unavailable; closing a watcher of tournament %s: %r", tournament_id, err)
    error = Error(code="try_again", reason="the database is unavailable: reconnect in a moment")
    await _refuse(socket, error, CLOSE_UNAVAILABLE, "database unavailable")


@websocket("/ws/watch/{tournament_id:int}")
async def watch_socket(socket: WebSocket[Any, Any, Any], tournament_id: int) -> None:
    """Watch a tournament: a snapshot first, then coalesced updates. See docs/protocol.md."""
    key = await admit(socket)  # at most WEBSOCKETS_PER_ADDRESS open from one address (with play's)
    if key is None:
        return
    try:
        await watch(core_of(socket), boards_of(socket), LitestarSocket(socket), tournament_id)
    finally:
        sockets_of(socket).close(key)


async def watch(core: Core, boards: Boards, socket: WatchTransport, tournament_id: int) -> None:
    """One watcher, on either port, from its snapshot to its end."""
    await socket.accept()
    try:
        follow = parse_follow(socket.query("follow"))
    except ValueError as err:
        await _refuse(socket, Error(code="bad_message", reason=str(err)), CLOSE_BAD_REQUEST, "bad follow list")
        return
    try:
        status = await store.status(core.db, tournament_id) if valid_id(tournament_id) else None
    except UNAVAILABLE as err:
        await _unavailable(socket, tournament_id, err)
        return
    if status is None:
        error = Error(code="not_found", reason=f"no tournament {tournament_id}")
        await _refuse(socket, error, CLOSE_NOT_FOUND, "no such tournament")
        return
    try:
        top = await teams_top(core.db, tournament_id)
    except UNAVAILABLE as err:
        await _unavailable(socket, tournament_id, err)
        return
    watcher = boards.hub.watch(tournament_id, follow, top)  # before the snapshot: nothing falls between
    sender: asyncio.Task[Any] | None = None
    who = f"a watcher of tournament {tournament_id}"
    WATCHERS.inc()
    try:
        try:
            first = await snapshot(core.db, boards, tournament_id, status)
            teams = None if top is None else await team_standings(core.db, boards, tournament_id, status, top)
        except UNAVAILABLE as err:
            await _unavailable(socket, tournament_id, err)
            return
        if not await socket.send_message(encoder.encode(first), who):
            return
        if teams is not None:  # a team battle: its team standings follow the snapshot
            await socket.send_message(encoder.encode(Teams(teams=teams)), who)
        direct = socket.direct()
        if direct is not None:  # sent by the feed's offer itself: no task to wake per update
            watcher.attach(direct, tournament_id)
        else:

            async def send_updates() -> None:
                while True:
                    await watcher.ready.wait()
                    for data in watcher.take_all(tournament_id):
                        if not await socket.send_message(data, who):
                            return

            sender = asyncio.create_task(send_updates())
        while True:
            frame = await socket.receive()
            if frame is None:
                break
            try:
                asked = msgspec.json.decode(frame) if len(frame) <= core.config.max_message_bytes else None
            except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
                asked = None
            reply: Any = (
                Pong(server_time=now())
                if isinstance(asked, dict) and asked.get("type") == "ping"
                else Error(code="bad_message", reason='a watch connection only listens (or answers {"type": "ping"})')
            )
            if not await socket.send_message(encoder.encode(reply), who):
                break
    except Exception:
        log.debug("watcher of tournament %s left", tournament_id, exc_info=True)
    finally:
        if sender is not None:
            sender.cancel()
        watcher.detach()
        WATCHERS.dec()
        boards.hub.unwatch(tournament_id, watcher)
        await socket.close(1000, "bye")
