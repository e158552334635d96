"""Websockets open at once from one client address, on this process: play and watch together.

A websocket is cheap to open and, answering pings, lives as long as its client likes: without a
cap one address could hold thousands. ``Sockets.open`` counts one at the connection's start and
``close`` gives its place back at its end; nothing is counted per message. The address is the
client's as ``addresses`` decides it (behind a trusted proxy, the one it forwarded for), an IPv6
one by its /64, as the other per-address limits count.
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

from litestar import WebSocket
from litestar.connection import ASGIConnection

from ..config import Network
from ..lib.messages import Error, encoder
from ..operations.metrics import REFUSALS
from .addresses import bucket, client_address

CLOSE_TOO_MANY = 4029  # as HTTP's 429


class Sockets:
    def __init__(self, per_address: int, proxies: tuple[Network, ...]) -> None:
        self.per_address = per_address
        self.proxies = proxies
        self.counts: dict[str, int] = {}

    def open(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
        """Count a new websocket of this client: the key to ``close`` it with, or None when the
        client's address already has ``per_address`` open (the new one is then to be refused)."""
        return self.open_address(client_address(connection, self.proxies))

    def open_address(self, address: str) -> str | None:
        """``open`` for a client address already decided (``addresses.address_of``)."""
        key = bucket(address)
        count = self.counts.get(key, 0)
        if count >= self.per_address:
            return None
        self.counts[key] = count + 1
        return key

    def close(self, key: str) -> None:
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
        else:
            self.counts.pop(key, None)


def sockets_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Sockets:
    return cast(Sockets, connection.app.state.sockets)


async def admit(socket: WebSocket[Any, Any, Any]) -> str | None:
    """Count a new websocket: its key (``sockets_of(socket).close(key)`` at its end), or None when its
    address has too many open: then it was refused (``too_many_connections``, close 4029)."""
    sockets = sockets_of(socket)
    key = sockets.open(socket)
    if key is None:
        reason = refuse(sockets)
        with contextlib.suppress(Exception):  # the client may be gone already
            await socket.accept()
            await socket.send_data(reason)
            await socket.close(code=CLOSE_TOO_MANY, reason="too many connections")
    return key


def refuse(sockets: Sockets) -> str:
    """A refusal counted: the error to send before closing with ``CLOSE_TOO_MANY``."""
    REFUSALS.labels("too_many_connections").inc()
    reason = f"too many connections from your address (at most {sockets.per_address} at once): close one first"
    return encoder.encode(Error(code="too_many_connections", reason=reason)).decode()
