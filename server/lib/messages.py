"""Messages both websockets send (play and watch), and the JSON encoder they share."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect
from msgspec import Struct

log = logging.getLogger("spidertour.ws")


class Error(Struct, tag="error"):
    code: str
    reason: str
    seq: int | None = None


class Pong(Struct, tag="pong"):
    server_time: datetime


def now() -> datetime:
    return datetime.now(UTC)


encoder = msgspec.json.Encoder()


async def send_text(socket: WebSocket[Any, Any, Any], text: str, who: str) -> bool:
    """Send a frame; False (and an INFO line) when the client has gone before it. That is neither a
    fault nor a database failure: the framework says ``WebSocketDisconnect``, the server below it
    ``ClientDisconnected``, an OSError that a handler of database failures would otherwise take."""
    try:
        await socket.send_data(text, mode="text")
    except (WebSocketDisconnect, OSError) as err:
        log.info("%s: the client left before its answer (%s)", who, type(err).__name__)
        return False
    return True
