"""The doors to a play session: Litestar's websocket on PORT, the lighter one on PLAY_PORT, and
where clients find them."""

from __future__ import annotations

from collections.abc import Callable

from ...operations.metrics import PLAY_CONNECTIONS
from ..session import PlaySession


async def serve(session: PlaySession, release: Callable[[], None]) -> None:
    """Run a connection's session, counted in ``PLAY_CONNECTIONS`` while it runs, then ``release``
    its place under the per-address cap (either door: ``asgi``, ``fast``)."""
    PLAY_CONNECTIONS.inc()
    try:
        await session.run()
    finally:
        PLAY_CONNECTIONS.dec()
        release()
