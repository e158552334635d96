"""A TCP proxy that a test can cut and restore, or stall and resume: its own event loop in a thread.

    with TcpProxy("127.0.0.1", 5432) as proxy:   # listens on proxy.port
        ...                                       # connect to 127.0.0.1:proxy.port
        proxy.cut()       # every connection through it is closed; new ones are refused
        proxy.restore()   # listening again on the same port
        proxy.stall()     # connections stay open but nothing flows; new ones are accepted, then silence
        proxy.resume()    # everything held back flows again, in order
        proxy.reset()     # every connection through it is reset (RST); new ones are let through

While cut, the port is closed, so a client gets "connection refused" at once, as when the
server behind it is down. ``reset`` is a network fault of the moment instead: each side of
every open connection sees a reset, not a clean close, and the next connection works.

While stalled, the server behind it is alive but answers nothing, as when it is frozen (stopped,
its disk hung) or a network path silently drops packets: no connection is closed, every byte sent
either way waits, a new connection is accepted (by the kernel, as a frozen server's are) and then
hears nothing, and a client gets no error at all, only silence. ``resume()`` lets it all flow
again rather than closing anything, because that is what such a server does when it wakes or the
path heals: TCP delivers what was held back, in order, and whatever a client gave up on meanwhile
(a connection it closed, a cancel request it sent) reaches the server then, late. A stalled proxy
holds each waiting byte in the operating system's socket buffers (it stops reading), plus at most
one read of 64 KiB a direction. ``cut()`` ends a stall too.

``TcpProxy.for_database(url)`` proxies a PostgreSQL URL, TCP or unix socket (``?host=/dir``, as the
embedded server gives), and ``proxy.url`` is the URL through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, port: int | None = None, unix: str | None = None) -> None:
        self.target = (target_host, target_port)
        self.unix = unix  # a unix socket's path to connect to instead of the host and port
        self.url = ""  # for_database: the database's URL through the proxy
        self.port = port or _free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="tcp-proxy", daemon=True)
        self.server: asyncio.base_events.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.connections = 0  # accepted since the start
        self.received = 0  # bytes the target sent back through the proxy since the start
        self.flowing = asyncio.Event()  # cleared while stalled
        self.flowing.set()

    @classmethod
    def for_database(cls, url: str) -> TcpProxy:
        """A proxy in front of the PostgreSQL that ``url`` names; ``proxy.url`` reaches it through the proxy."""
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        folder = query.pop("host", "")
        port = parts.port or 5432
        proxy = cls(
            parts.hostname or "127.0.0.1", port, unix=f"{folder}/.s.PGSQL.{port}" if folder.startswith("/") else None
        )
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{proxy.port}" if auth else f"127.0.0.1:{proxy.port}"
        proxy.url = urlunsplit(parts._replace(netloc=netloc, query=urlencode(query)))
        return proxy

    @classmethod
    def for_redis(cls, url: str) -> TcpProxy:
        """A proxy in front of the Redis that ``url`` names; ``proxy.url`` reaches it through the proxy."""
        parts = urlsplit(url)
        proxy = cls(parts.hostname or "127.0.0.1", parts.port or 6379)
        auth = parts.netloc.rpartition("@")[0]
        netloc = f"{auth}@127.0.0.1:{proxy.port}" if auth else f"127.0.0.1:{proxy.port}"
        proxy.url = urlunsplit(parts._replace(netloc=netloc))
        return proxy

    # -- called from the test's thread

    def start(self) -> TcpProxy:
        self.thread.start()
        self._call(self._listen())
        return self

    def cut(self) -> None:
        self._call(self._cut())

    def restore(self) -> None:
        self._call(self._listen())

    def stall(self) -> None:
        self._call(self._stall(True))

    def resume(self) -> None:
        self._call(self._stall(False))

    def reset(self) -> None:
        self._call(self._reset())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._call(self._cut())
        with contextlib.suppress(Exception):
            self._call(self._finish_handlers())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    # -- in the proxy's loop

    async def _stall(self, stalled: bool) -> None:
        if stalled:
            self.flowing.clear()
        else:
            self.flowing.set()

    async def _listen(self) -> None:
        if self.server is None:
            self.server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)

    async def _cut(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for w in list(self.writers):
            w.transport.abort()
        self.writers.clear()
        self.flowing.set()  # what waited for the end of a stall finds its connections closed

    async def _reset(self) -> None:
        for w in list(self.writers):
            sock = w.get_extra_info("socket")
            if sock is not None:  # linger 0: the close sends RST, not FIN
                # A connection its peer closed a moment ago has no descriptor left (EBADF): nothing to reset.
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            w.transport.abort()
        self.writers.clear()

    async def _finish_handlers(self) -> None:
        """Cancel and await every connection's handler, so none is left pending when the loop closes."""
        me = asyncio.current_task()
        tasks = [t for t in asyncio.all_tasks() if t is not me]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        if not self.flowing.is_set():  # accepted, then silence: connected to the target only on resume
            self.writers.add(writer)
            await self.flowing.wait()
            self.writers.discard(writer)
            if writer.transport.is_closing():
                return
        try:
            if self.unix:
                up_reader, up_writer = await asyncio.open_unix_connection(self.unix)
            else:
                up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers.update((writer, up_writer))
        flowing = self.flowing

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while True:
                    try:
                        data = await src.read(65536)
                    except OSError:  # reset: an end like any other, told on only when the stall ends
                        data = b""
                    if not flowing.is_set():  # held back until the stall ends, the end of the stream too
                        await flowing.wait()
                    if not data or dst.transport.is_closing():
                        break
                    if src is up_reader:
                        self.received += len(data)
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers.discard(writer)
        self.writers.discard(up_writer)
