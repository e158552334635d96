"""Asking for a match (``POST /api/matches``) against a real server with thousands of matches waiting,
and a move of a match next to a move of a tournament.

Run by hand (not a test), from the project folder:

    .venv/bin/python bench/match_bench.py                       # 2,000 waiting, 200 asks a second
    .venv/bin/python bench/match_bench.py --rates 100,200,400 --seconds 10 --json asks.json
    .venv/bin/python bench/match_bench.py --moves 0             # the asks only

What it does:

1. makes a fresh database on PostgreSQL (``--pg``) and uses Redis (``--redis``) under a unique
   ``REDIS_PREFIX``, both cleaned up at the end; starts one server (``spidertour serve``) pinned to
   the machine's other cores, and pins itself to core 0 (``--pin none`` leaves both to the
   scheduler), with the per-address limits lifted (every asker comes from this one machine);
2. registers the players it needs (not measured), and seats ``--waiting`` hosts, each in a match of
   its own (``--format``, head to head by default), so that that many matches wait;
3. for each rate of ``--rates``, two steps of ``--seconds`` each, open loop (an ask's latency
   counts from when it was due): fresh players of the hosts' ratings ask, each filling the oldest
   waiting match of its band (the bench first seats as many new hosts as the step will fill, so at
   least ``--waiting`` matches wait throughout, and ANALYZEs the database as autovacuum would have
   by then on a PostgreSQL left at its defaults; ``--no-analyze`` skips it); then players of
   ratings far from all others ask, each opening a match (a fresh seed and its commitment). The
   ratings are written to PostgreSQL (``ratings``) before the players ask, as a finished rated
   event leaves them. Reports asks a
   second answered, latency p50/p95/p99/max, statuses, and the server's and PostgreSQL's CPU per ask;
4. ``--moves RATE`` (default 1,000 a second): ``--players`` bots seated in matches and as many in a
   tournament of the same game play legal moves (bench/loadgen.py) at RATE for ``--seconds`` each:
   a move of a match next to a move of a tournament (latency, server and PostgreSQL CPU per move).

The target: p99 at or under 50 ms at 200 asks a second with 2,000 matches waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from benchkit import (  # noqa: E402
    LIFTED_LIMITS,
    PgCpu,
    Proc,
    create_db,
    drop_db,
    drop_redis_keys,
    free_port,
    machine,
    pinning,
)

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))], 1)


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def _machine_cpu() -> float:
    """CPU seconds the whole machine spent busy so far, every process's (Linux; 0 elsewhere)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


SPACING = 40.0  # rating points between two hosts: far more than the band (and its growth while the bench runs)


class Askers:
    """Registered players, each with the rating the bench gives it in the format's game, handed out
    once each: a player asks once in the bench."""

    def __init__(self, http: Any, url: str, db_url: str, game: str) -> None:
        self.http = http
        self.url = url
        self.db_url = db_url
        self.game = game
        self.players: list[tuple[int, str]] = []  # (id, token) not yet used
        self.next_rating = 1000.0  # fresh players (the move comparison's bots) are at 0

    async def register(self, n: int, concurrency: int = 32) -> None:
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int) -> tuple[int, str]:
            async with sem:
                r = await self.http.post(f"{self.url}/api/players", json={"name": f"asker-{i}"})
                if r.status_code != 201:
                    raise RuntimeError(f"register: {r.status_code} {r.text[:200]}")
                return int(r.json()["id"]), str(r.json()["token"])

        base = len(self.players)
        self.players += await asyncio.gather(*(one(base + i) for i in range(n)))

    async def take(self, ratings: list[float]) -> list[str]:
        """Players for ``ratings`` (ordinals in the format's game, written to PostgreSQL as a
        finished rated event would leave them): their tokens."""
        import asyncpg

        if len(self.players) < len(ratings):
            raise RuntimeError("not enough players registered")
        taken, self.players = self.players[: len(ratings)], self.players[len(ratings) :]
        conn = await asyncpg.connect(self.db_url)
        try:
            await conn.executemany(
                """INSERT INTO ratings (player_id, game, mu, sigma, games) VALUES ($1, $2, $3 + 3, 1, 1)
                   ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, sigma = 1""",
                [(pid, self.game, r) for (pid, _), r in zip(taken, ratings, strict=True)],
            )
        finally:
            await conn.close()
        return [token for _, token in taken]

    def far(self, n: int) -> list[float]:
        """``n`` ratings far from every other player's: each asks alone in its band."""
        out = [self.next_rating + SPACING * i for i in range(n)]
        self.next_rating += SPACING * n
        return out

    async def ask(self, token: str, fmt: str) -> int:
        r = await self.http.post(
            f"{self.url}/api/matches", json={"format": fmt}, headers={"authorization": f"Bearer {token}"}
        )
        return int(r.status_code)


async def analyze(db_url: str) -> None:
    """Statistics as autovacuum keeps them on a PostgreSQL left at its defaults (a machine whose
    PostgreSQL runs with autovacuum off would plan on none: ``--no-analyze`` measures that)."""
    import asyncpg

    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def waiting(http: Any, url: str, fmt: str) -> int:
    formats = (await http.get(f"{url}/api/matches/formats")).json()
    return int(next(f for f in formats if f["name"] == fmt).get("waiting", 0))


async def seat_hosts(askers: Askers, fmt: str, n: int, concurrency: int = 16) -> list[float]:
    """``n`` hosts, each alone in its band: ``n`` more matches of ``fmt`` wait. Their ratings."""
    ratings = askers.far(n)
    tokens = await askers.take(ratings)
    sem = asyncio.Semaphore(concurrency)

    async def one(token: str) -> None:
        async with sem:
            status = await askers.ask(token, fmt)
            if status != 201:
                raise RuntimeError(f"seating a host: {status}")

    await asyncio.gather(*(one(t) for t in tokens))
    return ratings


async def step(askers: Askers, server: Proc, pg: PgCpu, fmt: str, ratings: list[float], rate: float) -> dict[str, Any]:
    """Players of ``ratings`` ask at ``rate`` a second, open loop (a latency counts from when the ask was due)."""
    tokens = await askers.take(ratings)
    n = len(tokens)
    clock = time.perf_counter  # the event loop's clock may count whole milliseconds only
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    await pg.refresh()
    c0, p0, b0, m0 = server.cpu(), pg.read(), _own_cpu(), _machine_cpu()
    t0 = clock() + 0.05

    async def one(i: int, token: str) -> None:
        due = t0 + i / rate
        await asyncio.sleep(max(0.0, due - clock()))
        try:
            status = str(await askers.ask(token, fmt))
        except Exception as err:
            status = type(err).__name__
        latencies.append(clock() - due)
        statuses[status] = statuses.get(status, 0) + 1

    await asyncio.gather(*(one(i, t) for i, t in enumerate(tokens)))
    elapsed = clock() - t0
    server_cpu, bench_cpu, machine_cpu = server.cpu() - c0, _own_cpu() - b0, _machine_cpu() - m0
    p1 = pg.read()
    pg_cpu = sum(v - p0.get(pid, v) for pid, v in p1.items())
    ok = statuses.get("201", 0)
    return {
        "offered_per_second": rate,
        "answered_per_second": round(len(latencies) / elapsed, 1),
        "asks": n,
        "statuses": statuses,
        "error_count": n - ok,
        "ask_ms": {
            "p50": _pct(latencies, 50),
            "p95": _pct(latencies, 95),
            "p99": _pct(latencies, 99),
            "max": round(1000 * max(latencies), 1) if latencies else None,
        },
        "server_us_per_ask": round(1e6 * server_cpu / max(ok, 1)),
        "postgres_us_per_ask": round(1e6 * pg_cpu / max(ok, 1)),
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "bench_us_per_ask": round(1e6 * bench_cpu / max(n, 1)),  # the askers' own cost (another core)
        # The whole machine busy (of 100% a core), and the part of it neither the server, PostgreSQL
        # nor the bench: other work on a shared machine, Redis, the kernel's own.
        "machine_cpu_percent": round(100 * machine_cpu / elapsed, 1),
        "others_cpu_percent": round(100 * (machine_cpu - server_cpu - pg_cpu - bench_cpu) / elapsed, 1),
    }


async def moves(
    args: argparse.Namespace, server: Proc, pg: PgCpu, admin: str, fmt: str, settings: dict[str, Any]
) -> dict[str, Any]:
    """A move of a match next to a move of a tournament: the same game, bots, rate and seconds."""
    from loadgen import Generator
    from wire import ms, percentile

    from spidertour.server.cli.bots.config import BotConfig
    from spidertour.server.cli.bots.swarm import Swarm

    out: dict[str, Any] = {"rate": args.moves, "players": args.players}
    for kind in ("tournament", "match"):
        cfg = BotConfig(
            servers=[server.url],
            admin_token=admin,
            players=args.players,
            seed=1,
            name_prefix=f"mv-{kind}",
            variant=settings["variant"],
            suits=settings["suits"],
            time_limit=settings["time_limit"],
        )
        if kind == "match":
            cfg.match_format = fmt
        swarm = Swarm(cfg)
        await swarm.setup()
        gen = Generator(server.url.replace("http://", "ws://"), swarm.settings)
        try:
            await gen.connect_players([(b.token, b.entry_id) for b in swarm.bots])
            await asyncio.sleep(1)
            await pg.refresh()
            c0, p0 = server.cpu(), pg.read()
            w, acked = await gen.paced(args.moves, args.seconds)
            server_cpu, p1 = server.cpu() - c0, pg.read()
            acks = max(w.acks, 1)
            out[kind] = {  # read before the sockets close (their closing is no error of the run)
                "acked_per_second": round(acked, 1),
                "ack_ms": {"p50": ms(percentile(w.latency, 50)), "p99": ms(percentile(w.latency, 99))},
                "server_us_per_move": round(1e6 * server_cpu / acks, 1),
                "postgres_us_per_move": round(1e6 * sum(v - p0.get(pid, v) for pid, v in p1.items()) / acks, 1),
                "errors": dict(w.errors),
                "refused_by_engine": dict(w.refused),
            }
        finally:
            gen.close()
            await swarm.close()
        print(f"  moves of a {kind}: {out[kind]}", file=sys.stderr, flush=True)
    return out


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    name = f"match_bench_{secrets.token_hex(4)}"
    prefix = f"mb_{secrets.token_hex(4)}"
    admin = "bench-" + secrets.token_hex(8)
    gen_cores, server_cores = pinning(args.pin)
    if gen_cores:
        os.sched_setaffinity(0, gen_cores)
    out: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": machine(),
        "format": args.format,
        "waiting_at_least": args.waiting,
        "seconds": args.seconds,
        "pinning": {"bench": gen_cores, "server": server_cores},
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }
    db_url = await create_db(args.pg, name)
    pg = PgCpu(args.pg, name)
    server: Proc | None = None
    try:
        env = {
            "DATABASE_URL": db_url,
            "REDIS_URL": args.redis,
            "REDIS_PREFIX": prefix,
            "ADMIN_TOKEN": admin,
            "DB_POOL_SIZE": str(args.pool),
            "RATE_PER_SECOND": "1000",
            "RATE_BURST": "1000",
            **LIFTED_LIMITS,
        }
        for item in args.server_env:
            key, _, value = item.partition("=")
            env[key] = value
        port = free_port()
        logdir = Path(os.environ.get("TMPDIR", "/tmp"))
        server = Proc(
            [sys.executable, "-m", "spidertour.server.cli", "serve", "--log-level", "warning"],
            {**env, "PORT": str(port)},
            port,
            "/health",
            logdir / f"match-bench-server-{port}.log",
            server_cores,
        )
        server.wait_ready()
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=args.connections)) as http:
            formats = {f["name"]: f for f in (await http.get(f"{server.url}/api/matches/formats")).json()}
            if args.format not in formats:
                raise SystemExit(f"the server offers {', '.join(formats)}: give --format of these")
            settings = formats[args.format]["settings"]
            askers = Askers(http, server.url, db_url, f"{settings['variant']}/{settings['suits']}")
            per_step = [int(r * args.seconds) for r in args.rates]
            t = time.monotonic()
            await askers.register(args.waiting + 3 * sum(per_step))
            out["register_seconds"] = round(time.monotonic() - t, 1)
            t = time.monotonic()
            hosts = await seat_hosts(askers, args.format, args.waiting)
            out["seat_hosts_seconds"] = round(time.monotonic() - t, 1)
            print(f"{await waiting(http, server.url, args.format)} matches of {args.format} waiting", file=sys.stderr)
            out["steps"] = []
            for rate, n in zip(args.rates, per_step, strict=True):
                # As many new hosts as the step fills: at least --waiting matches wait throughout. The
                # askers take the seats of the oldest hosts, one each (a rating of its band).
                hosts += await seat_hosts(askers, args.format, n)
                if args.analyze:
                    await analyze(db_url)
                before = await waiting(http, server.url, args.format)
                filled, hosts = hosts[:n], hosts[n:]
                row = await step(askers, server, pg, args.format, filled, rate)
                after = await waiting(http, server.url, args.format)
                row.update(kind="fills a waiting match", waiting_before=before, waiting_after=after)
                print(f"  fills {rate}/s: {json.dumps(row)}", file=sys.stderr, flush=True)
                out["steps"].append(row)
                row = await step(askers, server, pg, args.format, askers.far(n), rate)
                row.update(kind="opens a match", waiting_before=after)
                row["waiting_after"] = await waiting(http, server.url, args.format)
                print(f"  opens {rate}/s: {json.dumps(row)}", file=sys.stderr, flush=True)
                out["steps"].append(row)
        if args.moves:
            out["moves"] = await moves(args, server, pg, admin, args.format, settings)
        return out
    finally:
        if server is not None:
            server.stop()
        if args.keep_db:
            print(f"kept database {name} (drop it yourself)", file=sys.stderr)
        else:
            await drop_db(args.pg, name)
        await drop_redis_keys(args.redis, prefix)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="match_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default=PG_DEFAULT, help="PostgreSQL admin URL (a scratch database, dropped after)")
    parser.add_argument("--redis", default=REDIS_DEFAULT)
    parser.add_argument("--format", default="spider78-1suit-5min", help="the format asked for (matches of it wait)")
    parser.add_argument("--waiting", type=int, default=2000, help="matches waiting throughout")
    parser.add_argument("--rates", default="200", help="asks a second, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds a step")
    parser.add_argument("--moves", type=float, default=1000.0, help="moves a second for the move comparison (0: none)")
    parser.add_argument("--players", type=int, default=200, help="bots for the move comparison, each way")
    parser.add_argument("--connections", type=int, default=64, help="HTTP connections of the askers")
    parser.add_argument("--pool", type=int, default=10, help="the server's DB_POOL_SIZE")
    parser.add_argument("--pin", choices=["cores", "none"], default="cores")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument(
        "--no-analyze",
        dest="analyze",
        action="store_false",
        help="do not ANALYZE the database once the hosts are seated (as autovacuum would)",
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards (to look into its plans)")
    args = parser.parse_args(argv)
    args.rates = [float(r) for r in args.rates.split(",")]
    try:
        import uvloop

        result = uvloop.run(bench(args))
    except ImportError:
        result = asyncio.run(bench(args))
    text = json.dumps(result, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
