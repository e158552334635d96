"""What the server benchmark (server_bench.py) measures with: server processes, a fresh database,
Redis keys, CPU readings of the server, PostgreSQL and Redis, and py-spy profiles."""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------------------- processes


def pinning(pin: str) -> tuple[list[int] | None, list[int] | None]:
    """The cores of the load generator (the first) and of the servers (the others), or no pinning
    with ``pin == "none"`` or a single core."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if pin == "none" or len(cores) < 2:
        return None, None
    return [cores[0]], cores[1:]


# Every client of a bench comes from this one machine: the per-address limits lifted.
def add_server_env(parser: Any) -> None:
    """The benches' --server-env KEY=VALUE, repeatable: a setting for every server process."""
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the servers (e.g. COMMIT_INTERVAL_MS=50); repeatable",
    )


def add_play_socket(parser: Any) -> None:
    """The benches' --play-socket and --watch-socket: where the players and the watchers connect."""
    parser.add_argument(
        "--play-socket",
        choices=["port", "asgi"],
        default="port",
        help="port: the players on each server's PLAY_PORT (picows); asgi: on its PORT (Litestar on uvicorn)",
    )
    parser.add_argument(
        "--watch-socket",
        choices=["port", "asgi"],
        default="port",
        help="port: the watchers on each server's PLAY_PORT too, as the live board does (with --play-socket "
        "port); asgi: on its PORT",
    )


def server_env(items: list[str]) -> dict[str, str]:
    """The --server-env items as a mapping."""
    pairs = [item.partition("=") for item in items]
    return {key: value for key, _, value in pairs}


LIFTED_LIMITS = {
    "REGISTER_PER_MINUTE": "1000000",
    "REGISTER_BURST": "1000000",
    "JOIN_PER_MINUTE": "1000000",
    "JOIN_BURST": "1000000",
    "WEBSOCKETS_PER_ADDRESS": "1000000",
}


_GIVEN: set[int] = set()


def free_port() -> int:
    """A port free now, and not one this process has handed out already (the system may offer a
    port again once its probe socket is closed: PORT and PLAY_PORT would then clash)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port


class Proc:
    def __init__(
        self, argv: list[str], env: dict[str, str], port: int, health: str, log: Path, cores: list[int] | None
    ) -> None:
        self.port = port
        self.log = log
        self.health = health
        if cores and shutil.which("taskset"):
            argv = ["taskset", "-c", ",".join(map(str, cores)), *argv]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                argv, cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT
            )
        self.ps = psutil.Process(self.proc.pid)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60) -> None:
        import httpx

        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"process exited: {self.log.read_text()[-2000:]}")
            try:
                if self.health == "tcp":
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                elif httpx.get(self.url + self.health, timeout=2).status_code == 200:
                    return
            except (OSError, httpx.HTTPError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"not ready after {timeout} s: {self.log.read_text()[-2000:]}")

    def rss(self) -> int:
        return int(self.ps.memory_info().rss)

    def cpu(self) -> float:
        t = self.ps.cpu_times()
        return float(t.user + t.system)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# ---------------------------------------------------------------------------------------- services


async def create_db(admin_url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(admin_url)._replace(path="/" + name))


async def drop_db(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def drop_redis_keys(url: str, prefix: str) -> int:
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    n = 0
    try:
        async for key in redis.scan_iter(match=f"{prefix}:*", count=1000):
            n += await redis.delete(key)
    finally:
        await redis.aclose()
    return n


class PgCpu:
    """CPU of the PostgreSQL backends serving one database (their pids from pg_stat_activity)."""

    def __init__(self, admin_url: str, database: str) -> None:
        self.admin_url = admin_url
        self.database = database
        self.procs: dict[int, psutil.Process] = {}

    async def refresh(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.admin_url)
        try:
            rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", self.database)
        finally:
            await conn.close()
        for r in rows:
            if r["pid"] not in self.procs:
                with contextlib.suppress(psutil.Error):
                    self.procs[r["pid"]] = psutil.Process(r["pid"])

    def read(self) -> dict[int, float]:
        out = {}
        for pid, p in list(self.procs.items()):
            try:
                t = p.cpu_times()
                out[pid] = t.user + t.system
            except psutil.Error:
                del self.procs[pid]
        return out


async def commit_counts(servers: list[Proc]) -> tuple[float, float]:
    """(commits, moves committed) so far, from every server's /metrics (0, 0 when it has none)."""
    import httpx

    commits = moves = 0.0
    async with httpx.AsyncClient(timeout=10) as http:
        for s in servers:
            try:
                text = (await http.get(s.url + "/metrics")).text
            except httpx.HTTPError:
                continue
            for line in text.splitlines():
                if line.startswith("spidertour_commit_batch_size_count"):
                    commits += float(line.split()[-1])
                elif line.startswith("spidertour_commit_batch_size_sum"):
                    moves += float(line.split()[-1])
    return commits, moves


async def wal_position(admin_url: str) -> int:
    """The WAL's write position in bytes (the whole cluster's: others' writes count too)."""
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        return int(await conn.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"))
    finally:
        await conn.close()


async def redis_commands(url: str) -> float:
    """Commands this Redis has processed so far (every client's: on a shared Redis, an upper bound)."""
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    try:
        return float((await redis.info("stats"))["total_commands_processed"])
    finally:
        await redis.aclose()


def all_postgres_cpu() -> float:
    """Every postgres process on the machine (others' work included: an upper bound)."""
    total = 0.0
    for p in psutil.process_iter(["name", "cpu_times"]):
        if (p.info["name"] or "").startswith("postgres") and p.info["cpu_times"] is not None:
            total += p.info["cpu_times"].user + p.info["cpu_times"].system
    return total


def redis_cpu() -> float:
    total = 0.0
    for p in psutil.process_iter(["name", "cpu_times"]):
        if (p.info["name"] or "").startswith(("redis", "valkey")) and p.info["cpu_times"] is not None:
            total += p.info["cpu_times"].user + p.info["cpu_times"].system
    return total


def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": model or platform.processor(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_before": list(os.getloadavg()),
    }


# ---------------------------------------------------------------------------------------- profile


def summarise_profile(path: Path, top: int = 30) -> dict[str, Any]:
    """py-spy's raw (collapsed) stacks: the functions where samples end (self) and that they pass through."""
    own: Counter[str] = Counter()
    through: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        n = int(count_text)
        total += n
        frames = [f.strip() for f in stack.split(";") if f.strip()]
        if frames:
            own[_short(frames[-1])] += n
        for f in {_short(f) for f in frames}:
            through[f] += n

    def pct(c: Counter[str]) -> list[tuple[str, float]]:
        return [(k, round(100 * v / max(total, 1), 1)) for k, v in c.most_common()][:top]

    return {"samples": total, "self": pct(own), "inclusive": pct(through)}


def _short(frame: str) -> str:
    # "function (path/to/module.py:123)" -> "function (module.py)"
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    file = where.rsplit(":", 1)[0]
    parts = Path(file).parts
    if "site-packages" in parts:
        file = "/".join(parts[parts.index("site-packages") + 1 :][:2])
    elif "server" in parts or "engine" in parts:
        file = "/".join(parts[-2:])
    else:
        file = Path(file).name
    return f"{name} ({file})"
