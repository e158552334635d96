"""Server load benchmark: bots against real server processes, and a bare websocket echo ceiling.

Run by hand (not a test), from the project folder:

    .venv/bin/python bench/server_bench.py --players 200 --watchers 100 --seconds 10
    .venv/bin/python bench/server_bench.py --players 2000 --watchers 1000 --seconds 30 --processes 2
    spidertour bench --players 2000 --watchers 1000 --seconds 30        # the same

What it does:

1. creates a fresh database on PostgreSQL (``--pg``, default this machine's
   postgresql://postgres@127.0.0.1:5432) and uses Redis (``--redis``) under a unique
   ``REDIS_PREFIX``; both are cleaned up at the end;
2. starts 1 or 2 server processes (``spidertour serve``; bots and watchers are split between
   them), registers the players and joins them to one tournament;
3. reads each server's memory (RSS) before and after the players connect and start their games,
   then after the watchers connect;
4. the paced run: every bot plays ``--pace`` moves a second (with jitter) for ``--seconds``;
   acknowledged durable moves a second, acknowledgement latency, watcher lag, errors, server and
   load generator CPU;
5. the saturation run (``--max-seconds``, 0 to skip): every bot plays as fast as answers come;
6. the ceiling: a bare websocket echo server on the same stack (Litestar + uvicorn, the tiny app
   in this file) with the same number of connections, each sending a move-sized message and
   waiting for it to come back, as fast as it can;
7. prints the figures (and ``--json FILE``); ``--profile FILE`` records the first server process
   with py-spy during the paced run and prints where its time goes.

The load generator runs in this process and shares the machine's cores with the servers: its CPU
is reported next to theirs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from server.bots import BotConfig, BotError, Stats, Swarm, percentile  # noqa: E402

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
MOVE_TEXT = '{"type":"move","seq":%d,"from":0,"count":1,"to":8}'


# ---------------------------------------------------------------------------------------- the echo app


def echo_app() -> Any:
    from litestar import Litestar, WebSocket, websocket

    @websocket("/ws/echo")
    async def echo(socket: WebSocket) -> None:
        await socket.accept()
        while True:
            event = await socket.receive()
            if event["type"] == "websocket.disconnect":
                return
            data = event.get("text")
            await socket.send_data(data if data is not None else (event.get("bytes") or b"").decode(), mode="text")

    return Litestar(route_handlers=[echo])


def serve_echo(port: int) -> None:
    import uvicorn

    uvicorn.run(echo_app(), host="127.0.0.1", port=port, ws_max_size=1 << 20, log_level="warning",
                ws_ping_interval=20, ws_ping_timeout=20)


# ---------------------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    def __init__(self, argv: list[str], env: dict[str, str], port: int, health: str, log: Path) -> None:
        self.port = port
        self.log = log
        self.health = health
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, **env}, stdout=out,
                                         stderr=subprocess.STDOUT)
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


# ---------------------------------------------------------------------------------------- echo clients


async def run_echo(url: str, connections: int, seconds: float, pace: float, concurrency: int) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    stats = Stats()
    sem = asyncio.Semaphore(concurrency)
    sockets: list[Any] = []

    async def open_one() -> None:
        async with sem:
            sockets.append(await connect(url, compression=None, ping_interval=None, open_timeout=30))

    await asyncio.gather(*(open_one() for _ in range(connections)))
    stop = asyncio.Event()

    async def client(ws: Any, k: int) -> None:
        seq = 0
        next_at = time.monotonic() + (k % 100) / 100 / pace if pace > 0 else 0.0
        while not stop.is_set():
            if pace > 0:
                wait = next_at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                next_at += 1 / pace
            seq += 1
            sent = time.perf_counter()
            await ws.send(MOVE_TEXT % seq)
            await ws.recv()
            stats.ack(0, time.perf_counter() - sent, False)

    cpu0, t0 = time.process_time(), time.monotonic()
    tasks = [asyncio.create_task(client(ws, k)) for k, ws in enumerate(sockets)]
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.monotonic() - t0
    await asyncio.gather(*tasks, return_exceptions=True)
    cpu = time.process_time() - cpu0
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "connections": connections,
        "messages_per_second": round(stats.acks / elapsed, 1),
        "p50_ms": _ms(percentile(stats.latency, 50)),
        "p99_ms": _ms(percentile(stats.latency, 99)),
        "loadgen_cpu_percent": round(100 * cpu / elapsed, 1),
    }


def _ms(v: float | None) -> float | None:
    return None if v is None else round(v * 1000, 2)


# ---------------------------------------------------------------------------------------- profile


def summarise_profile(path: Path, top: int = 25) -> dict[str, Any]:
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

    root = max(through.values(), default=0)  # the chain every sample passes through says nothing

    def pct(c: Counter[str]) -> list[tuple[str, float]]:
        return [(k, round(100 * v / max(total, 1), 1)) for k, v in c.most_common() if v < root][:top]

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


# ---------------------------------------------------------------------------------------- the run


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    name = f"spidertour_bench_{secrets.token_hex(4)}"
    prefix = f"bench_{secrets.token_hex(4)}"
    admin = "bench-" + secrets.token_hex(8)
    logdir = Path(os.environ.get("TMPDIR", "/tmp"))
    servers: list[Proc] = []
    echo: Proc | None = None
    out: dict[str, Any] = {
        "players": args.players, "watchers": args.watchers, "seconds": args.seconds, "processes": args.processes,
        "pace": args.pace, "policy": args.policy, "cores": os.cpu_count(), "compression": args.compression,
    }
    db_url = await create_db(args.pg, name)
    swarm: Swarm | None = None
    try:
        env = {"DATABASE_URL": db_url, "REDIS_URL": args.redis, "REDIS_PREFIX": prefix, "ADMIN_TOKEN": admin,
               "RATE_PER_SECOND": "1000", "RATE_BURST": "1000", "DB_POOL_SIZE": str(args.pool)}
        for _ in range(args.processes):
            port = free_port()
            servers.append(Proc([sys.executable, "-m", "server.cli", "serve", "--log-level", "warning"],
                                {**env, "PORT": str(port)}, port, "/health", logdir / f"bench-server-{port}.log"))
        for s in servers:
            s.wait_ready()
        print(f"servers: {', '.join(s.url for s in servers)} (logs in {logdir}/bench-server-*.log)", file=sys.stderr)
        cfg = BotConfig(
            servers=[s.url for s in servers], admin_token=admin, players=args.players, watchers=args.watchers,
            policy=args.policy, pace=args.pace, duration=args.seconds, time_limit=max(600, int(args.seconds * 4)),
            seed=1, compression=None if args.compression == "none" else args.compression,
            watch_sample=min(args.watchers, args.watch_sample), watch_all=args.watch_all, name_prefix="bench",
        )
        swarm = Swarm(cfg)
        t = time.monotonic()
        await swarm.setup()
        out["setup_seconds"] = round(time.monotonic() - t, 1)
        await asyncio.sleep(1)
        rss0 = [s.rss() for s in servers]
        t = time.monotonic()
        await swarm.connect(watchers=False)
        out["connect_seconds"] = round(time.monotonic() - t, 1)
        await asyncio.sleep(1)
        rss1 = [s.rss() for s in servers]
        await swarm.connect_watchers()
        await asyncio.sleep(1)
        rss2 = [s.rss() for s in servers]
        players = max(1, args.players)
        out["memory"] = {
            "server_rss_mib_before": [round(r / 2**20, 1) for r in rss0],
            "server_rss_mib_players": [round(r / 2**20, 1) for r in rss1],
            "server_rss_mib_watchers": [round(r / 2**20, 1) for r in rss2],
            "kib_per_player": round((sum(rss1) - sum(rss0)) / 1024 / players, 1),
            "kib_per_watcher": round((sum(rss2) - sum(rss1)) / 1024 / max(1, args.watchers), 1),
        }
        print(f"connected {args.players} players, {args.watchers} watchers; "
              f"{out['memory']['kib_per_player']} KiB per player", file=sys.stderr)

        profiler = None
        if args.profile:
            spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            profiler = subprocess.Popen(
                [spy, "record", "--pid", str(servers[0].proc.pid), "--duration", str(int(args.seconds)),
                 "--rate", "97", "--format", "raw", "--output", args.profile, "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        out["paced"] = await _measured(swarm, servers, args.seconds, args.pace)
        rss3 = [s.rss() for s in servers]
        out["memory"]["server_rss_mib_after_play"] = [round(r / 2**20, 1) for r in rss3]
        out["memory"]["kib_per_player_after_play"] = round((sum(rss3) - sum(rss0)) / 1024 / players, 1)
        if profiler is not None:
            profiler.wait(60)
            if Path(args.profile).exists():
                out["profile"] = summarise_profile(Path(args.profile))
                print("profile of the first server, paced run (% of samples; the rest is the idle event loop):",
                      file=sys.stderr)
                for name, pc in out["profile"]["inclusive"]:
                    print(f"  {pc:5.1f}%  {name}", file=sys.stderr)
        if args.max_seconds > 0:
            out["saturated"] = await _measured(swarm, servers, args.max_seconds, 0.0)
        await swarm.close()
        swarm = None
        for s in servers:
            s.stop()
        servers = []

        if args.echo_seconds > 0 and args.players > 0:
            port = free_port()
            echo = Proc([sys.executable, str(Path(__file__).resolve()), "--echo-server", str(port)], {}, port, "tcp",
                        logdir / f"bench-echo-{port}.log")
            echo.wait_ready()
            url = f"ws://127.0.0.1:{port}/ws/echo"
            c0, t0 = echo.cpu(), time.monotonic()
            out["echo"] = await run_echo(url, args.players, args.echo_seconds, 0.0, 64)
            out["echo"]["server_cpu_percent"] = round(100 * (echo.cpu() - c0) / (time.monotonic() - t0), 1)
            best = max(out["paced"]["moves_per_second"] or 0, (out.get("saturated") or {}).get("moves_per_second", 0))
            out["moves_to_echo_ratio"] = round(best / max(out["echo"]["messages_per_second"], 1e-9), 3)
        return out
    finally:
        if swarm is not None:
            with contextlib.suppress(Exception):
                await swarm.close()
        for s in servers:
            s.stop()
        if echo is not None:
            echo.stop()
        try:
            await drop_db(args.pg, name)
        except Exception as err:
            print(f"warning: could not drop the database {name}: {err!r}", file=sys.stderr)
        try:
            await drop_redis_keys(args.redis, prefix)
        except Exception as err:
            print(f"warning: could not delete the Redis keys {prefix}:*: {err!r}", file=sys.stderr)


async def _measured(swarm: Swarm, servers: list[Proc], seconds: float, pace: float) -> dict[str, Any]:
    swarm.cfg.pace = pace
    c0 = [s.cpu() for s in servers]
    services0 = _service_cpu()
    psutil.cpu_percent()  # starts the machine-wide measure
    l0, t0 = time.process_time(), time.monotonic()
    last = [0.0]

    def tick() -> None:
        now = time.monotonic() - t0
        if now - last[0] >= 5:
            last[0] = now
            st = swarm.stats
            print(f"  {now:4.0f} s  {st.acks / max(now, 1e-6):7.0f} moves/s  "
                  f"p99 {_ms(percentile(st.latency[-20000:], 99))} ms  errors {sum(st.errors.values())}",
                  file=sys.stderr, flush=True)

    elapsed = await swarm.play(seconds, on_tick=tick)
    wall = time.monotonic() - t0
    figures = swarm.figures(elapsed)
    keep = ("acknowledged_moves", "moves_per_second", "ack_ms", "errors", "error_count", "refused_by_engine",
            "reconnects", "outcomes", "watch_updates", "watch_bytes", "feed_lag_ms", "ack_to_watcher_ms")
    result = {k: figures[k] for k in keep}
    result["cpu_note"] = f"percent of one core; the machine has {os.cpu_count()}"
    result["server_cpu_percent"] = [round(100 * (s.cpu() - c) / wall, 1) for s, c in zip(servers, c0, strict=True)]
    result["loadgen_cpu_percent"] = round(100 * (time.process_time() - l0) / wall, 1)
    result["services_cpu_percent"] = {k: round(100 * (v - services0.get(k, 0.0)) / wall, 1)
                                      for k, v in _service_cpu().items()}
    result["machine_cpu_percent"] = round(psutil.cpu_percent() * (os.cpu_count() or 1), 1)
    ours = (sum(result["server_cpu_percent"]) + result["loadgen_cpu_percent"]
            + sum(result["services_cpu_percent"].values()))
    result["other_processes_cpu_percent"] = round(max(0.0, result["machine_cpu_percent"] - ours), 1)
    # the bots' games go on: the next run continues them
    for bot in swarm.bots:
        bot.end_at = None
    return result


def _service_cpu() -> dict[str, float]:
    """CPU seconds used so far by this machine's PostgreSQL and Redis processes (read only)."""
    out: dict[str, float] = {}
    for p in psutil.process_iter(["name", "cpu_times"]):
        name = p.info["name"] or ""
        kind = "postgres" if name.startswith("postgres") else "redis" if name.startswith(("redis", "valkey")) else None
        if kind and p.info["cpu_times"] is not None:
            out[kind] = out.get(kind, 0.0) + p.info["cpu_times"].user + p.info["cpu_times"].system
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="server_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0, help="the paced run")
    parser.add_argument("--pace", type=float, default=2.5, help="moves a second per bot in the paced run")
    parser.add_argument("--max-seconds", type=float, default=5.0, help="the saturation run; 0 to skip")
    parser.add_argument("--echo-seconds", type=float, default=5.0, help="the echo ceiling; 0 to skip")
    parser.add_argument("--processes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--policy", choices=["random", "greedy"], default="random")
    parser.add_argument("--compression", choices=["none", "deflate"], default="none")
    parser.add_argument("--watch-sample", type=int, default=20)
    parser.add_argument("--watch-all", action="store_true", help="every watcher follows every entry")
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_SIZE of each server")
    parser.add_argument("--pg", default=PG_DEFAULT, help="PostgreSQL admin URL (a fresh database is made)")
    parser.add_argument("--redis", default=REDIS_DEFAULT)
    parser.add_argument("--profile", metavar="FILE", help="py-spy raw profile of the first server, paced run")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        serve_echo(args.echo_server)
        return 0
    if args.players < 0 or args.watchers < 0 or args.seconds <= 0 or args.pace < 0:
        parser.error("players and watchers must be 0 or more, seconds positive, pace 0 or more")
    try:
        try:
            import uvloop

            out = uvloop.run(bench(args))
        except ImportError:
            out = asyncio.run(bench(args))
    except BotError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    paced = out["paced"]
    return 0 if paced["error_count"] == 0 and not paced["refused_by_engine"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
