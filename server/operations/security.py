"""What every response carries against other sites, and the one body type the API reads.

- Every HTTP response gets a Content-Security-Policy (scripts, styles, images and connections
  from this server only; never framed), ``X-Frame-Options: DENY`` and
  ``X-Content-Type-Options: nosniff``.
- A request body must be JSON sent as ``application/json`` (a route may take ``text/csv`` too). A
  browser sends a cross-site form or a ``text/plain`` body without asking first; a JSON or CSV
  content type needs its permission, which this server never gives. So a body of any other type
  is refused with 415 before it is read.
- A path names what exists only in plain words: a segment that Python's ``int`` reads but that is
  not plain ASCII digits (``+1``, `` 1``, ``1_0``, Arabic-Indic digits) names no id, and a segment
  longer than a file name may be names no file; both are 404, and a path past ``MAX_PATH`` bytes
  is 414.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.exceptions import HTTPException, NotFoundException
from litestar.handlers import BaseRouteHandler
from litestar.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the client and the API page set element styles
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",  # also the same host's ws:// and wss:// (and its PLAY_PORT: security_headers_with)
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
_NAMES = {name for name, _ in HEADERS}
BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
MAX_SEGMENT = 255  # bytes: the longest file name the static files' file system takes
MAX_PATH = 2048  # bytes


def security_headers(app: ASGIApp) -> ASGIApp:
    """ASGI middleware: the headers above on every HTTP response, errors and static files included."""
    return security_headers_with(None)(app)


_HOST = re.compile(rb"([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")


def _headers_for(play_port: int | None, scope: Scope) -> list[tuple[bytes, bytes]]:
    """HEADERS, the page's connections allowed to the play port (``PLAY_PORT``) of the host it was
    asked of as well: a websocket to another port is another origin, which 'self' does not cover."""
    if play_port is None:
        return HEADERS
    host = next((value for name, value in scope["headers"] if name == b"host"), b"")
    found = _HOST.fullmatch(host)
    if found is None:
        return HEADERS
    name = found.group(1).decode()
    policy = CSP.replace("connect-src 'self'", f"connect-src 'self' ws://{name}:{play_port} wss://{name}:{play_port}")
    return [(b"content-security-policy", policy.encode()), *HEADERS[1:]]


def security_headers_with(play_port: int | None) -> Callable[[ASGIApp], ASGIApp]:
    """``security_headers`` for a server whose play socket is also on ``play_port``."""

    def wrap(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != ScopeType.HTTP:
                await app(scope, receive, send)
                return

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = [h for h in message.get("headers", []) if h[0].lower() not in _NAMES]
                    message["headers"] = [*headers, *_headers_for(play_port, scope)]
                await send(message)

            await app(scope, receive, send_with_headers)

        return middleware

    return wrap


def json_bodies_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Guard: a body sent with a method that has one must be ``application/json`` (else 415), or
    one of the route's own ``body_types`` (``opt``; ``text/csv`` needs a browser's permission too)."""
    if connection.scope["type"] != ScopeType.HTTP or connection.scope.get("method") not in BODY_METHODS:
        return
    headers = connection.headers
    media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
    has_body = headers.get("content-length", "0").strip() not in ("", "0") or "transfer-encoding" in headers
    allowed = handler.opt.get("body_types", ("application/json",))
    if media_type in allowed or (not media_type and not has_body):
        return
    types = " or ".join(f"'Content-Type: {t}'" for t in allowed)
    got = media_type or "no type"
    raise HTTPException(status_code=415, detail=f"send the body as JSON with {types} (got {got!r})")


def _lenient_int(segment: str) -> bool:
    """Would ``int()`` take this segment though it is not plain ASCII digits?"""
    if segment.isascii() and segment.isdigit():
        return False
    try:
        int(segment)
    except ValueError:
        return False
    return True


def plain_paths(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: 404 for an id not written in plain digits or a segment too long to name a file, 414
    for a path too long to be one of ours (HTTP and websockets alike)."""
    path = connection.scope.get("path", "")
    if len(path.encode("utf-8", "surrogateescape")) > MAX_PATH:
        raise HTTPException(status_code=414, detail=f"the path is longer than {MAX_PATH} bytes")
    for segment in path.split("/"):
        if len(segment.encode("utf-8", "surrogateescape")) > MAX_SEGMENT or _lenient_int(segment):
            raise NotFoundException()
