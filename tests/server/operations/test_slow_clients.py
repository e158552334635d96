"""Slow clients: a request's headers must come within HEADER_TIMEOUT of the connection's start, and
its body without a pause longer than BODY_TIMEOUT; past either the server answers 408 and closes.
A real server, raw TCP sockets."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator

import pytest
import websockets

from tests.client import Api
from tests.conftest import server_env
from tests.server.helpers import fetch
from tests.serverproc import ServerProcess
from tests.services import unique_name

HEADER_TIMEOUT, BODY_TIMEOUT = 1, 2
BOUND = 15.0  # seconds: closed long before this, or the test fails (no timing beyond that)


@pytest.fixture(scope="module")
def slow(database_url: str, redis_url: str, admin_token: str) -> Iterator[ServerProcess]:
    env = {
        **server_env(unique_name("st_slow")),
        "HEADER_TIMEOUT": str(HEADER_TIMEOUT),
        "BODY_TIMEOUT": str(BODY_TIMEOUT),
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env, log_level="info").start()
    try:
        yield proc
    finally:
        proc.stop()


def connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
    sock.settimeout(BOUND)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (socket.timeout past BOUND)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def one_response(sock: socket.socket) -> bytes:
    """One whole response with a Content-Length, the connection left open."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    lengths = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")]
    length = lengths[0]
    while len(body) < length:
        body += sock.recv(65536)
    return head


def post_head(length: int) -> str:
    return (
        "POST /api/players HTTP/1.1\r\nHost: localhost\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    )


def assert_408(data: bytes, what: str) -> None:
    assert data.startswith(b"HTTP/1.1 408 "), data[:200]
    assert b"connection: close" in data.lower() and f"request's {what} did not come".encode() in data, data


def test_a_connection_that_sends_nothing_is_closed(slow: ServerProcess) -> None:
    with connect(slow) as sock:
        assert read_until_closed(sock) == b""  # nothing was asked: nothing to answer


def test_partial_headers_then_nothing_are_closed(slow: ServerProcess) -> None:
    with connect(slow) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        assert_408(read_until_closed(sock), "headers")


def test_headers_trickled_a_byte_at_a_time_are_closed_from_the_connections_start(slow: ServerProcess) -> None:
    """Each byte comes well within the timeout, but the headers as a whole do not."""
    request = b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    with connect(slow) as sock:
        deadline = time.monotonic() + BOUND
        try:
            for byte in request:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
                assert time.monotonic() < deadline, "still open"
        except OSError:  # closed while sending: what follows reads the 408
            pass
        assert_408(read_until_closed(sock), "headers")


def test_a_kept_alive_connection_is_timed_from_its_next_requests_first_byte(slow: ServerProcess) -> None:
    with connect(slow) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert one_response(sock).startswith(b"HTTP/1.1 200 ")
        sock.sendall(b"GET /health HTTP/1.1\r\nHo")  # the idle timer (uvicorn's keep-alive) stops here
        assert_408(read_until_closed(sock), "headers")


async def test_a_body_trickled_slower_than_the_body_timeout_is_closed(slow: ServerProcess, database_url: str) -> None:
    name = unique_name("trickle")
    body = json.dumps({"name": name}).encode()
    head = post_head(len(body))
    with connect(slow) as sock:
        sock.sendall(head.encode() + body[:3])
        try:
            for i in range(3, len(body)):  # one byte every BODY_TIMEOUT + 1 s: closed at the first pause
                time.sleep(BODY_TIMEOUT + 1)
                sock.sendall(body[i : i + 1])
        except OSError:
            pass
        data = read_until_closed(sock)
        assert_408(data, "body")
    # Nothing was made of it, and the server logged one line, no traceback.
    assert (await fetch(database_url, "SELECT count(*) FROM players WHERE name = $1", name))[0][0] == 0
    log = slow.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "did not come within 2 s" in log


def test_a_body_whose_chunks_come_within_the_timeout_is_read_however_long_it_takes(slow: ServerProcess) -> None:
    name = unique_name("patient")
    body = json.dumps({"name": name}).encode()
    head = post_head(len(body))
    chunks = [body[i : i + 8] for i in range(0, len(body), 8)]
    with connect(slow) as sock:
        sock.sendall(head.encode())
        for chunk in chunks:  # longer than BODY_TIMEOUT in all, never that long between two chunks
            time.sleep(BODY_TIMEOUT / 4)
            sock.sendall(chunk)
        assert one_response(sock).startswith(b"HTTP/1.1 201 ")


async def test_a_websocket_outlives_the_header_timeout(slow: ServerProcess, admin_token: str) -> None:
    tournament = Api(slow.url, admin_token).create_tournament(name="slow-watch", variant="spider78", suits=1)
    async with websockets.connect(f"{slow.ws_url}/ws/watch/{tournament['id']}") as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"
        await asyncio.sleep(HEADER_TIMEOUT + BODY_TIMEOUT)  # past both: the upgraded connection is not an HTTP request
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"
