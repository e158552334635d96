"""What a play session needs of its connection: ``Transport``. Two servers carry the play socket:
Litestar's own websocket (``LitestarTransport``, on the server's port) and the lighter one on
``PLAY_PORT`` (``sockets.fast.FastTransport``); the session is the same over either."""

from __future__ import annotations

import contextlib
from typing import Any, Protocol, cast

from litestar import WebSocket

from ..lib.messages import send_text


class Transport(Protocol):
    address: str  # the client's address, as the limits decide it (``fairplay.addresses``)

    async def accept(self) -> None: ...

    async def receive(self) -> str | bytes | None:
        """The next message, or None once the client has gone."""
        ...

    async def send_message(self, data: bytes, who: str) -> bool:
        """Send a message (its JSON, UTF-8) as a text frame; False when the client has gone before it."""
        ...

    async def close(self, code: int, reason: str) -> None: ...


class LitestarTransport:
    """The play socket on the server's own port (``/ws/play/{entry_id}`` of the Litestar app)."""

    def __init__(self, socket: WebSocket[Any, Any, Any], address: str) -> None:
        self.socket = socket
        self.address = address

    async def accept(self) -> None:
        await self.socket.accept()

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
