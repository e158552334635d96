"""What a play session needs of its connection: ``Transport``. Two servers carry the play socket:
Litestar's own websocket (``lib.litestar_socket.LitestarSocket``, on the server's port) and the lighter one on
``PLAY_PORT`` (``sockets.fast.FastTransport``); the session is the same over either."""

from __future__ import annotations

from typing import Protocol


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
