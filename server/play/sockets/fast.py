"""The play port (``PLAY_PORT``): ``/ws/play/{entry_id}`` and ``/ws/watch/{tournament_id}`` served
by picows in the server's own process and event loop, beside the Litestar app on ``PORT``.

The same ``PlaySession`` runs over it as over Litestar's websocket (``transport.Transport``), and
the same watch code (``watch.socket.watch``): the same messages, authentication, per-address cap
(``fairplay.sockets``, counted with the Litestar port's), rate limits and metrics. What it spares is
the ASGI stack around each frame (uvicorn's protocol, its queues, Litestar's wrappers): a frame goes
from the socket to the session with one wake-up, and a watcher's update is sent by the feed's offer
itself, with no task woken for it. At shutdown every connection is closed with 1012 (restarting),
as uvicorn does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections import deque
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import parse_qs

from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, WSUpgradeRequest, ws_create_server

from ...core import Core
from ...fairplay.addresses import address_of
from ...fairplay.limits import Limiter
from ...fairplay.sockets import CLOSE_TOO_MANY, Sockets, refuse
from ...watch.boards import Boards
from ...watch.socket import watch
from ..runtime import Play
from ..session import PlaySession
from . import serve

log = logging.getLogger("spidertour.play")

PATH = re.compile(rb"/ws/(play|watch)/([0-9]{1,100})(?:\?(.*))?")
MAX_MESSAGE = 1 << 20  # as the Litestar port's (uvicorn's ws_max_size); the session refuses past 4 KiB
CLOSE_SHUTDOWN = 1012
LINGER = 2.0  # seconds a closed connection waits for the client's close before the socket is shut


class FastTransport(WSListener):
    """One connection on the play port, a player's (``kind`` "play", ``id`` its entry) or a watcher's
    ("watch", the tournament): frames in through a small inbox, text out at once."""

    def __init__(self, server: FastPlay, kind: str, id: int, query: str, forwarded: list[str]) -> None:
        super().__init__()
        self.server = server
        self.loop = asyncio.get_running_loop()  # asked once: on Python 3.11 each ask costs a getpid()
        self.kind, self.id = kind, id
        self.params = parse_qs(query, keep_blank_values=True)
        self.forwarded = forwarded
        self.on_writable: Callable[[], None] | None = None  # a watcher's: sends what waits once the client reads
        self.address = ""
        self.ws: WSTransport | None = None
        self.inbox: deque[bytes | None] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.parts: list[bytes] = []  # a message in several frames, so far
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone = False
        self.closing = False
        self.queued: list[bytes] = []  # answers to send at the end of this turn of the loop (``FastPlay.later``)

    # ------------------------------------------------------------------ picows's side

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.ws = transport
        peer = transport.underlying_transport.get_extra_info("peername")
        host = str(peer[0]) if peer else "unknown"
        self.address = address_of(host, self.forwarded, self.server.core.config.proxies)
        self.server.start(self)

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind in (WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.CONTINUATION):
            if frame.fin and not self.parts:
                self._put(frame.get_payload_as_bytes())
                return
            self.parts.append(frame.get_payload_as_bytes())
            if sum(len(p) for p in self.parts) > MAX_MESSAGE:
                self.parts.clear()
                self._shut(1009, "message too big")
            elif frame.fin:
                self._put(b"".join(self.parts))
                self.parts.clear()
        elif kind == WSMsgType.CLOSE:
            if not self.closing:
                self.closing = True
                with contextlib.suppress(Exception):
                    transport.send_close(frame.get_close_code(), b"")
            transport.disconnect()
            self._put(None)

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.gone = True
        self.queued.clear()
        self.writable.set()
        self._put(None)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()
        if self.on_writable is not None:
            self.on_writable()

    def _put(self, data: bytes | None) -> None:
        self.inbox.append(data)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _shut(self, code: int, reason: str) -> None:
        """Send a close and shut the socket once the client has answered it, or after ``LINGER``."""
        ws = self.ws
        if ws is None or self.gone or self.closing:
            return
        self.flush_queued()  # what the session sent before its close goes first
        self.closing = True
        with contextlib.suppress(Exception):
            ws.send_close(cast(WSCloseCode, code), reason.encode())  # any code: picows sends its number
        self.loop.call_later(LINGER, ws.disconnect)

    # ------------------------------------------------------------------ the session's side (Transport)

    async def accept(self) -> None:
        """Accepted already: the upgrade was answered before the connection reached the session."""

    async def receive(self) -> str | bytes | None:
        while not self.inbox:
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.inbox.popleft()

    async def send_message(self, data: bytes, who: str) -> bool:
        if not self.writable.is_set():  # the client reads slower than it is sent to: wait for it
            await self.writable.wait()
        ws = self.ws
        if ws is None or self.gone or self.closing:
            log.info("%s: the client left before its answer (closed)", who)
            return False
        self._queue(data)
        return True

    def _queue(self, data: bytes) -> None:
        """Keep ``data`` for the end of this turn of the loop; the first of a turn asks ``FastPlay.later``."""
        if not self.queued:
            self.server.later(self)
        self.queued.append(data)

    def flush_queued(self) -> None:
        """Send the answers queued in this turn of the loop, in order."""
        queued, self.queued = self.queued, []
        ws = self.ws
        if ws is not None and not self.gone and not self.closing:  # nothing after a close frame
            for data in queued:
                ws.send(WSMsgType.TEXT, data)

    async def close(self, code: int, reason: str) -> None:
        self._shut(code, reason)

    # ------------------------------------------------------------------ a watcher's (watch.socket.WatchTransport)

    def query(self, name: str) -> str | None:
        values = self.params.get(name)
        return None if values is None else values[-1]

    def direct(self) -> FastTransport:
        return self

    def can_send(self) -> bool:
        return self.writable.is_set() and self.ws is not None and not self.gone and not self.closing

    def send_now(self, data: bytes) -> None:
        """Sent at the end of this turn of the loop, with the other watchers' (``FastPlay.later``)."""
        if self.ws is not None and not self.gone and not self.closing:
            self._queue(data)

    def when_writable(self, callback: Callable[[], None] | None) -> None:
        self.on_writable = callback


class FastPlay:
    """The play port's server: its listener, and every connection's session task."""

    def __init__(self, core: Core, play: Play, boards: Boards, limiter: Limiter, sockets: Sockets) -> None:
        self.core, self.play, self.boards, self.limiter, self.sockets = core, play, boards, limiter, sockets
        self.server: asyncio.Server | None = None
        self.connections: dict[FastTransport, asyncio.Task[None]] = {}
        self.outgoing: list[FastTransport] = []  # connections with answers queued in this turn of the loop

    def later(self, connection: FastTransport) -> None:
        """Send ``connection``'s queued answers at the end of this turn of the loop, with every other
        connection's: the answers of a commit's moves go out back to back, not each between two
        sessions' Python."""
        if not self.outgoing:
            connection.loop.call_soon(self._send_queued)
        self.outgoing.append(connection)

    def _send_queued(self) -> None:
        outgoing, self.outgoing = self.outgoing, []
        for connection in outgoing:
            try:
                connection.flush_queued()
            except Exception:  # one broken socket never holds back the others' answers
                log.warning("could not send to a %s connection of %s", connection.kind, connection.id, exc_info=True)

    async def open(self, listener: socket.socket | None = None) -> None:
        """Listen on ``listener``, or on HOST at PLAY_PORT."""
        config = self.core.config
        where: dict[str, Any] = (
            {"sock": listener} if listener is not None else {"host": config.host, "port": config.play_port}
        )
        self.server = await ws_create_server(
            self._route,
            **where,
            websocket_handshake_timeout=config.header_timeout,
            enable_auto_ping=True,
            auto_ping_idle_timeout=20,
            auto_ping_reply_timeout=20,
            max_frame_size=MAX_MESSAGE,
            read_buffer_init_size=4096,
            logger_name="spidertour.play.port",
        )

    def _route(self, request: WSUpgradeRequest) -> FastTransport | None:
        """The upgrade's path: ``/ws/play/{entry_id}`` or ``/ws/watch/{tournament_id}``, anything else 404."""
        found = PATH.fullmatch(request.path)
        if request.method != b"GET" or found is None:
            return None
        kind, id, query = found.group(1).decode(), int(found.group(2)), (found.group(3) or b"").decode("latin-1")
        return FastTransport(self, kind, id, query, request.headers.getall("x-forwarded-for", []))

    def start(self, connection: FastTransport) -> None:
        task = asyncio.get_running_loop().create_task(self._serve(connection))
        self.connections[connection] = task
        task.add_done_callback(lambda _: self.connections.pop(connection, None))

    async def _serve(self, connection: FastTransport) -> None:
        key = self.sockets.open_address(connection.address)
        if key is None:
            await connection.send_message(refuse(self.sockets).encode(), "refused")
            await connection.close(CLOSE_TOO_MANY, "too many connections")
            return
        try:
            if connection.kind == "watch":
                try:
                    await watch(self.core, self.boards, connection, connection.id)
                finally:
                    self.sockets.close(key)
            else:
                session = PlaySession(self.core, self.play, self.boards, self.limiter, connection, connection.id)
                await serve(session, lambda: self.sockets.close(key))
        except Exception:
            whose = "entry" if connection.kind == "play" else "tournament"
            log.exception("%s connection of %s %s failed", connection.kind, whose, connection.id)
            await connection.close(1011, "server error")

    async def close(self, grace: float = 5.0) -> None:
        """Stop listening, close every connection (1012: the client reconnects), and let their
        sessions end (at most ``grace`` seconds)."""
        if self.server is not None:
            self.server.close()
        for connection in list(self.connections):
            connection._shut(CLOSE_SHUTDOWN, "server restarting")
        tasks = list(self.connections.values())
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
