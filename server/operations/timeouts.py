"""Slow clients: a request's headers and its body within time, or the connection is closed.

uvicorn closes a kept-alive connection left idle between requests (``timeout_keep_alive``) but has
no timeout for a request being sent: a connection that sends nothing, or part of its headers, or
trickles its body a byte at a time, is held open as long as the client likes. ``http_protocol``
makes uvicorn's own HTTP protocol (httptools) with two deadlines more:

- the headers: all of them within ``HEADER_TIMEOUT`` seconds of the connection's start (on a
  kept-alive connection, of the first byte of its next request);
- the body: at most ``BODY_TIMEOUT`` seconds between two of its chunks (the time the server itself
  has stopped reading, while the application has not yet taken what came, does not count).

Past either, the client is answered 408 (when nothing else is being answered on the connection)
and the connection is closed; a connection that sent nothing at all is only closed. A websocket's
handshake is a request like any other; once upgraded, the connection is the websocket layer's.
Nothing here runs per websocket message.
"""

from __future__ import annotations

import asyncio
import logging
from typing import ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("spidertour.http")

HEADERS, BODY = "headers", "body"


class TimedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request comes too slowly."""

    header_timeout: ClassVar[float] = 10.0
    body_timeout: ClassVar[float] = 30.0

    _timer: asyncio.TimerHandle | None = None
    _waiting: str | None = None  # HEADERS or BODY: what the timer waits for
    _last = 0.0  # the loop's time of the body's last chunk
    _begun = False  # a byte of the next request has come

    def _arm(self, what: str, delay: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._waiting = what
        self._timer = self.loop.call_later(delay, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(HEADERS, self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._begun = True
        if self._waiting is None:  # the next request on a kept-alive connection (the first one's runs already)
            self._arm(HEADERS, self.header_timeout)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._last = self.loop.time()
            self._arm(BODY, self.body_timeout)  # disarmed at once by the message's end when it has no body

    def on_body(self, body: bytes) -> None:
        self._last = self.loop.time()
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        self._begun = False
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def _expired(self) -> None:
        self._timer = None
        if self._waiting == BODY:
            idle = self.loop.time() - self._last
            waiting = self.cycle is not None and self.cycle.waiting_for_100_continue
            if self.flow.read_paused or waiting:  # the server is not reading yet: the client cannot be slow
                self._last = self.loop.time()
                self._arm(BODY, self.body_timeout)
                return
            if idle < self.body_timeout:
                self._arm(BODY, self.body_timeout - idle)
                return
        self._close_slow(self._waiting or HEADERS)

    def _close_slow(self, what: str) -> None:
        self._waiting = None
        if self.transport.is_closing():
            return
        seconds = self.header_timeout if what == HEADERS else self.body_timeout
        if what == HEADERS and not self._begun:  # nothing asked (a browser's spare connection): nothing to answer
            log.debug("closed a connection that sent nothing within %g s", seconds)
            self.transport.close()
            return
        log.info("closed a connection: its request's %s did not come within %g s", what, seconds)
        cycle = self.cycle
        if what == HEADERS and cycle is not None and not cycle.response_complete:
            self.transport.close()  # a pipelined request behind one still being answered: no room for a 408
            return
        if what == BODY:
            if cycle is None or cycle.response_started:
                self.transport.close()  # the request's answer has begun (or been given): only the close is left
                return
            cycle.disconnected = True  # the application, reading the body, is told the client has gone
            cycle.message_event.set()
        self._send_408(f"the request's {what} did not come within {seconds:g} s")

    def _send_408(self, msg: str) -> None:
        body = msg.encode()
        content = [b"HTTP/1.1 408 Request Timeout\r\n"]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: text/plain; charset=utf-8\r\n",
                b"content-length: " + str(len(body)).encode() + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()


def http_protocol(header_timeout: float, body_timeout: float) -> type[TimedHttpProtocol]:
    """The HTTP protocol class for uvicorn (``http=``) with these two deadlines, in seconds."""

    class Configured(TimedHttpProtocol):
        pass

    Configured.header_timeout = header_timeout
    Configured.body_timeout = body_timeout
    return Configured
