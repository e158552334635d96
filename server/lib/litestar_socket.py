"""Litestar's websocket as the play and watch code see a connection (``play.transport.Transport``,
``watch.socket.WatchTransport``): the same small interface as the play port's picows connection."""

from __future__ import annotations

import contextlib
from typing import Any, cast

from litestar import WebSocket

from .messages import send_text


class LitestarSocket:
    """A websocket on the server's own port (the Litestar app's ``/ws/play/...`` and ``/ws/watch/...``)."""

    def __init__(self, socket: WebSocket[Any, Any, Any], address: str = "") -> None:
        self.socket = socket
        self.address = address  # the client's, as the limits decide it (the play socket's)

    async def accept(self) -> None:
        await self.socket.accept()

    def query(self, name: str) -> str | None:
        return cast("str | None", self.socket.query_params.get(name))

    async def receive(self) -> str | bytes | None:
        event = await self.socket.receive()
        if event["type"] == "websocket.disconnect":
            return None
        data = cast("str | bytes | None", event.get("text"))
        if data is None:
            data = cast("bytes | None", event.get("bytes")) or b""
        return data

    async def send_message(self, data: bytes, who: str) -> bool:
        return await send_text(self.socket, data.decode(), who)

    async def close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code=code, reason=reason)

    def direct(self) -> None:
        """No send without waiting on this stack: a watcher's updates go through its own task."""
        return None
