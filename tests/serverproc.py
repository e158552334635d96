"""A real spidertour server process (uvicorn) on a free port, for websocket and fault tests."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
# Every server this test run starts carries this in its environment, and so do the processes it
# starts (the solver's workers): what carries it after the run was left behind (see conftest.py).
RUN_MARK = ("SPIDERTOUR_TEST_RUN", secrets.token_hex(8))
# The servers' logs, one folder for the run: removed at its end when every test passed, else kept
# (and named in the run's summary) for the failures' reports (see conftest.py).
LOG_DIR = Path(tempfile.gettempdir()) / f"spidertour-tests-{RUN_MARK[1]}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def silent_listener() -> socket.socket:
    """A port that takes connections and never answers (as a firewall that lets a connection in and
    drops what follows): the kernel completes the TCP handshake, nobody reads. Close it when done."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    return s


class ServerProcess:
    def __init__(
        self,
        database_url: str,
        redis_url: str,
        admin_token: str,
        port: int | None = None,
        env: dict[str, str] | None = None,
        log_level: str = "warning",
    ) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.admin_token = admin_token
        self.port = port or free_port()
        self.play_port = free_port()  # the play socket's own port (PLAY_PORT; env {"PLAY_PORT": ""}: none)
        self.extra_env = env or {}
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = LOG_DIR / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "ADMIN_TOKEN": self.admin_token,
            "PORT": str(self.port),
            "PLAY_PORT": str(self.play_port),
            # A busy test machine starves a server's event loop for longer than a busy process's
            # signal allows: moves would be answered try_again at random (test_busy turns it on).
            "LOOP_LAG_MS": "0",
            RUN_MARK[0]: RUN_MARK[1],
            **self.extra_env,
        }
        env = {k: v for k, v in env.items() if v != ""}  # "" in env: leave that variable out
        LOG_DIR.mkdir(exist_ok=True)
        log = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the child's lifetime
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spidertour.server.cli", "serve", "--log-level", self.log_level],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not become healthy: {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """kill -9: no shutdown of any kind."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def log_sizes() -> dict[Path, int]:
    """How long each server log of this test process is now (for ``logs_since``)."""
    if not LOG_DIR.exists():
        return {}
    return {path: path.stat().st_size for path in LOG_DIR.glob("*.log")}


def logs_since(sizes: dict[Path, int], limit: int = 8000) -> str:
    """What the servers logged since ``sizes`` were taken, each log named, the last ``limit``
    characters at most: for the report of a test that failed."""
    parts = []
    for path in sorted(LOG_DIR.glob("*.log")) if LOG_DIR.exists() else []:
        with path.open("rb") as log:
            log.seek(sizes.get(path, 0))
            text = log.read().decode(errors="replace").strip()
        if text:
            parts.append(f"--- {path.name}\n{text}")
    return "\n".join(parts)[-limit:]


def end_of_run(passed: bool) -> Path | None:
    """The servers' logs at the end of the run: removed when it passed; else their folder, kept."""
    if not LOG_DIR.exists():
        return None
    if passed:
        shutil.rmtree(LOG_DIR, ignore_errors=True)
        return None
    return LOG_DIR


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def running(pid: int) -> bool:
    """The process exists and is not a zombie (an exited child nobody has reaped holds no CPU)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def descendants(pid: int) -> set[int]:
    """Every running process below ``pid`` (children, their children, ...)."""
    parents = {p: stat[1] for p in _pids() if (stat := _stat(p)) is not None and stat[0] not in ("Z", "X")}
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def marked_processes() -> list[int]:
    """Running processes started by this test run's servers (RUN_MARK in their environment)."""
    mark = f"{RUN_MARK[0]}={RUN_MARK[1]}".encode()
    found = []
    for pid in _pids():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if mark in environ.split(b"\0") and running(pid):
            found.append(pid)
    return found
