"""A real server process's log under clients' mistakes on the wire: a body cut short by a client that
leaves, a path too long to name a file, a body that is not UTF-8. Each is an INFO line at most: no
ERROR, no traceback, no 500, and the server answers the next client as before."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.client import Api
from tests.serverproc import ServerProcess


@pytest.fixture
def logged(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str, server: Any
) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        database_url,
        redis_url,
        admin_token,
        log_level="info",
        env={"REDIS_PREFIX": redis_prefix + "_mistakes", "LOG_FORMAT": "json"},
    )
    proc.log_path.unlink(missing_ok=True)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _records(proc: ServerProcess) -> list[dict[str, Any]]:
    lines = Path(proc.log_path).read_text().splitlines()[1:]  # the first is the address, in words
    return [json.loads(line) for line in lines if line.strip()]


def _players(proc: ServerProcess) -> int:
    """How many players there are, as the server counts registrations (a fresh one's id)."""
    r = httpx.post(proc.url + "/api/players", json={"name": "counter"}, timeout=10)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_a_client_that_leaves_mid_body_is_logged_quietly(logged: ServerProcess) -> None:
    before = _players(logged)
    for cut in (b"", b'{"name":', b'{"name": "half a na'):
        with socket.create_connection(("127.0.0.1", logged.port), timeout=5) as s:
            s.sendall(
                b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n" + cut
            )
            time.sleep(0.3)  # the server is waiting for the rest of the body
    time.sleep(0.5)
    assert _players(logged) == before + 1  # nothing made by the cut requests
    records = _records(logged)
    http = [r for r in records if r["logger"] == "spidertour.http"]
    left = [r for r in http if "left before sending its whole body" in r["message"]]
    assert len(left) == 3 and all(r["level"] == "INFO" and "exc_info" not in r for r in left), http
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")], records
    assert "Traceback" not in Path(logged.log_path).read_text()


@pytest.mark.parametrize(
    ("path", "status"),
    [("/" + "a" * 300, 404), ("/js/" + "b" * 256, 404), ("/" + "%C3%A9" * 200, 404), ("/xy" * 1000, 414)],
)
def test_long_paths_are_answered_without_a_traceback(logged: ServerProcess, path: str, status: int) -> None:
    r = httpx.get(logged.url + path, timeout=10)
    assert r.status_code == status and r.json()["status_code"] == status, r.text
    with socket.create_connection(("127.0.0.1", logged.port), timeout=5) as s:  # the raw bytes, unnormalised
        s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert s.recv(100).startswith(f"HTTP/1.1 {status}".encode())
    time.sleep(0.3)
    records = _records(logged)
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")], records
    assert "Traceback" not in Path(logged.log_path).read_text()


def test_a_body_that_is_not_utf8_is_an_info_line(logged: ServerProcess, admin_token: str) -> None:
    for path, headers in (("/api/players", {}), ("/api/tournaments", {"authorization": f"Bearer {admin_token}"})):
        r = httpx.post(
            logged.url + path,
            content=b'{"name": "\xff"}',
            headers={**headers, "content-type": "application/json"},
            timeout=10,
        )
        assert r.status_code == 400 and "UTF-8" in r.json()["detail"], r.text
    time.sleep(0.3)
    records = _records(logged)
    http = [r for r in records if r["logger"] == "spidertour.http"]
    assert [r["level"] for r in http] == ["INFO", "INFO"], http
    assert "Traceback" not in Path(logged.log_path).read_text()


def _db_errors(proc: ServerProcess) -> float:
    text = httpx.get(proc.url + "/metrics", timeout=10).text
    return float(next(line.split()[1] for line in text.splitlines() if line.startswith("spidertour_db_errors_total")))


def _leave_a_websocket(port: int, path: str, frames: list[str], reset: bool) -> None:
    """Open a websocket, send these frames and go at once, closing the TCP connection (with a reset,
    or not) without waiting for any answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        for frame in frames:
            payload, mask = frame.encode(), os.urandom(4)
            assert len(payload) < 126
            s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        if reset:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_client_that_leaves_before_its_answer_is_no_fault(logged: ServerProcess, admin_token: str) -> None:
    """A player gone right after its auth (or its start), a watcher gone at once: the server has
    nobody to answer. At most an INFO line: no ERROR, no traceback, no database failure said or counted."""
    api = Api(logged.url, admin_token)
    tour = api.create_tournament(name="left early", variant="spider78", suits=1)
    _, token = api.register("leaver")
    entry = api.join(tour["id"], token)["id"]
    errors_before = _db_errors(logged)
    auth = json.dumps({"type": "auth", "token": token})
    for _ in range(3):
        for reset in (False, True):
            _leave_a_websocket(logged.port, f"/ws/play/{entry}", [auth], reset)
            _leave_a_websocket(logged.port, f"/ws/play/{entry}", [auth, '{"type": "start"}'], reset)
            _leave_a_websocket(logged.port, f"/ws/watch/{tour['id']}", [], reset)
    time.sleep(1)
    # The server goes on answering.
    r = httpx.get(f"{logged.url}/api/tournaments/{tour['id']}", timeout=10)
    assert r.status_code == 200, r.text
    records = _records(logged)
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")], records
    assert not [r for r in records if "database" in r["message"] and r["level"] != "INFO"], records
    assert "Traceback" not in Path(logged.log_path).read_text()
    assert _db_errors(logged) == errors_before
