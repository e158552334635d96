"""Messages both websockets send (play and watch), and the JSON encoder they share."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
from msgspec import Struct


class Error(Struct, tag="error"):
    code: str
    reason: str
    seq: int | None = None


class Pong(Struct, tag="pong"):
    server_time: datetime


def now() -> datetime:
    return datetime.now(UTC)


encoder = msgspec.json.Encoder()
