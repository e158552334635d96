"""``/ws/play/{entry_id}``: one player's entry, one connection (``session.PlaySession``)."""

from __future__ import annotations

from typing import Any

from litestar import WebSocket, websocket

from ...core import core_of
from ...fairplay.addresses import client_address
from ...fairplay.limits import limiter_of
from ...fairplay.sockets import admit, sockets_of
from ...lib.litestar_socket import LitestarSocket
from ...watch.boards import boards_of
from ..runtime import play_of
from ..session import PlaySession
from . import serve


@websocket("/ws/play/{entry_id:int}")
async def play_socket(socket: WebSocket[Any, Any, Any], entry_id: int) -> None:
    """Play one entry. First message: {"type": "auth", "token": ...}. See docs/protocol.md."""
    key = await admit(socket)  # counted here and at the end only: nothing per move
    if key is None:
        return
    core = core_of(socket)
    transport = LitestarSocket(socket, client_address(socket, core.config.proxies))
    session = PlaySession(core, play_of(socket), boards_of(socket), limiter_of(socket), transport, entry_id)
    await serve(session, lambda: sockets_of(socket).close(key))
