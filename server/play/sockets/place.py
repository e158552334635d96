"""``GET /api/play/socket``: where a client opens the play socket (``/ws/play/{entry_id}``)."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from msgspec import Struct

from ...core import core_of
from ...operations.openapi import errors


class PlaySocketPlace(Struct):
    port: int | None  # the play socket's own port (PLAY_PORT) on this host; None: the page's own


@get("/api/play/socket", cache=False, responses=errors())
async def play_socket_place(request: Request[Any, Any, Any]) -> PlaySocketPlace:
    """Where to open ``/ws/play/{entry_id}``: on this host at ``port`` when it is set (the faster
    play port), else at the same address as this API. Both serve the same protocol."""
    return PlaySocketPlace(port=core_of(request).config.play_port)


ROUTES = [play_socket_place]
