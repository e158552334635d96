"""Server load benchmark: a light load generator (bench/loadgen.py) against real server processes.

Run by hand (not a test), from the project folder:

    .venv/bin/python bench/server_bench.py                                   # 2,000 players, 1,000 watchers
    .venv/bin/python bench/server_bench.py --processes 2 --json two.json
    spidertour bench --players 200 --watchers 100 --rates 500,1000 --step-seconds 5   # the same script
    .venv/bin/python bench/readme_table.py one.json two.json                 # docs/performance.md's tables

What it does, with one JSON result per run (``--json FILE``, and on stdout):

1. creates a fresh database on PostgreSQL (``--pg``, default this machine's) and uses Redis
   (``--redis``) under a unique ``REDIS_PREFIX``; both are cleaned up at the end;
2. pins itself (the load generator: one process, picows clients on uvloop) to core 0 and the
   server processes (``spidertour serve``) to the other cores, when the machine has two or more
   (``--pin none`` leaves everything to the scheduler); PostgreSQL and Redis are not pinned;
3. registers the players over HTTP, joins them to one tournament, connects them and starts their
   games, then connects the watchers (each follows one player's entry and the top page); reads
   the servers' memory (RSS) before and after each;
4. steps the offered rate (``--rates``, moves a second in all, round robin over the players, open
   loop: a move's latency counts from when it was due) for ``--step-seconds`` each, and reports
   per step: acknowledged moves a second, latency p50/p95/p99, errors, server CPU and PostgreSQL
   CPU per acknowledged move (psutil on the server pids, and on the PostgreSQL backends serving
   the benchmark's database), the generator's own CPU, and the watchers' lag;
5. the capacity: the highest offered rate whose p99 stayed at or under ``--p99-ms`` (50) with
   no errors and at least 95% of it acknowledged (``--stop-after N`` stops stepping after N
   steps above it; by default every step runs);
6. the saturation run (every player sends its next move as soon as the last is answered);
7. the same-stack echo: a Litestar + uvicorn websocket echo app pinned like the server, the same
   number of connections, as fast as answers come (``--echo-seconds``, 0 to skip); with the
   players on the play port (``--play-socket port``) the same echo on picows too (``echo_picows``);
   ``--echo-rates 5000,10000`` runs each echo again at those rates, paced as the moves are;
8. ``--profile FILE``: py-spy records the first server during the ``--profile-rate`` step.

The players play legal moves chosen from their own view (see bench/loadgen.py); a refusal by the
engine would be counted under ``refused_by_engine`` and fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import psutil  # noqa: E402
from benchkit import (  # noqa: E402
    LIFTED_LIMITS,
    PgCpu,
    Proc,
    add_play_socket,
    add_server_env,
    all_postgres_cpu,
    commit_counts,
    create_db,
    drop_db,
    drop_redis_keys,
    free_port,
    machine,
    pinning,
    redis_commands,
    redis_cpu,
    server_env,
    summarise_profile,
    wal_position,
)
from echo import serve_echo, serve_picows_echo  # noqa: E402

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"

# ---------------------------------------------------------------------------------------- the run


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    from echo import echo_run
    from loadgen import Generator
    from wire import ms, percentile

    from spidertour.server.cli.bots.config import BotConfig
    from spidertour.server.cli.bots.swarm import Swarm

    name = f"perf_bench_{secrets.token_hex(4)}"
    prefix = f"pf_bench_{secrets.token_hex(4)}"
    admin = "bench-" + secrets.token_hex(8)
    logdir = Path(os.environ.get("TMPDIR", "/tmp"))
    gen_cores, server_cores = pinning(args.pin)
    if gen_cores:
        os.sched_setaffinity(0, gen_cores)
    servers: list[Proc] = []
    echo: Proc | None = None
    gen: Generator | None = None
    out: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": machine(),
        "players": args.players,
        "watchers": args.watchers,
        "processes": args.processes,
        "step_seconds": args.step_seconds,
        "p99_limit_ms": args.p99_ms,
        "pinning": {"loadgen": gen_cores, "servers": server_cores},
        "server_env": args.server_env,
        "play_socket": args.play_socket,
        "watch_socket": args.watch_socket,
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }
    db_url = await create_db(args.pg, name)
    pg = PgCpu(args.pg, name)
    try:
        env = {
            "DATABASE_URL": db_url,
            "REDIS_URL": args.redis,
            "REDIS_PREFIX": prefix,
            "ADMIN_TOKEN": admin,
            "RATE_PER_SECOND": "1000",
            "RATE_BURST": "1000",
            "DB_POOL_SIZE": str(args.pool),
            **LIFTED_LIMITS,  # every bot registers and joins from this one machine
        }
        env.update(server_env(args.server_env))
        play_ports: list[int] = []
        for _ in range(args.processes):
            port = free_port()
            play_port = free_port() if args.play_socket == "port" else None
            if play_port is not None:
                play_ports.append(play_port)
            servers.append(
                Proc(
                    [sys.executable, "-m", "spidertour.server.cli", "serve", "--log-level", "warning"],
                    {**env, "PORT": str(port), **({"PLAY_PORT": str(play_port)} if play_port else {})},
                    port,
                    "/health",
                    logdir / f"bench-server-{port}.log",
                    server_cores,
                )
            )
        for s in servers:
            s.wait_ready()
        print(f"servers: {', '.join(s.url for s in servers)} (logs in {logdir}/bench-server-*.log)", file=sys.stderr)

        cfg = BotConfig(
            servers=[s.url for s in servers],
            admin_token=admin,
            players=args.players,
            watchers=0,
            time_limit=args.time_limit,
            seed=1,
            name_prefix="bench",
        )
        swarm = Swarm(cfg)
        t = time.monotonic()
        await swarm.setup()
        out["setup_seconds"] = round(time.monotonic() - t, 1)
        assert swarm.tournament_id is not None
        await asyncio.sleep(1)
        rss0 = [s.rss() for s in servers]
        gen = Generator(
            [s.url.replace("http://", "ws://") for s in servers],
            swarm.settings,
            play_bases=[f"ws://127.0.0.1:{p}" for p in play_ports] or None,
            watch_bases=[f"ws://127.0.0.1:{p}" for p in play_ports] if args.watch_socket == "port" else None,
        )
        t = time.monotonic()
        await gen.connect_players([(b.token, b.entry_id) for b in swarm.bots])
        out["connect_seconds"] = round(time.monotonic() - t, 1)
        await asyncio.sleep(1)
        rss1 = [s.rss() for s in servers]
        await gen.connect_watchers(swarm.tournament_id, args.watchers)
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
        print(
            f"connected {args.players} players, {args.watchers} watchers; "
            f"{out['memory']['kib_per_player']} KiB per player",
            file=sys.stderr,
        )
        await pg.refresh()

        async def measured(kind: str, rate: float) -> dict[str, Any]:
            assert gen is not None
            await pg.refresh()
            k0 = await commit_counts(servers)
            rc0 = await redis_commands(args.redis)
            wal0 = await wal_position(args.pg)
            c0 = [s.cpu() for s in servers]
            p0 = pg.read()
            pga0, r0 = all_postgres_cpu(), redis_cpu()
            l0 = time.process_time()
            psutil.cpu_percent()
            t0 = time.monotonic()
            profiler = None
            if args.profile and kind == "paced" and rate == args.profile_rate:
                spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
                profiler = subprocess.Popen(
                    [
                        spy,
                        "record",
                        "--pid",
                        str(servers[0].proc.pid),
                        "--duration",
                        str(int(args.step_seconds)),
                        "--rate",
                        "199",
                        "--format",
                        "raw",
                        "--output",
                        args.profile,
                        *(["--native"] if args.profile_native else ["--nonblocking"]),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=open(logdir / "bench-py-spy.log", "ab"),  # noqa: SIM115
                )
            if kind == "paced":
                w, acked = await gen.paced(rate, args.step_seconds)
            else:
                w, acked = await gen.saturated(args.step_seconds)
            wall = args.step_seconds
            # CPU over the measured seconds and the drain that follows them, per acknowledged move
            elapsed = time.monotonic() - t0
            server_cpu = [s.cpu() - c for s, c in zip(servers, c0, strict=True)]
            p1 = pg.read()
            pg_cpu = sum(v - p0.get(pid, v) for pid, v in p1.items())
            pga, rc = all_postgres_cpu() - pga0, redis_cpu() - r0
            lcpu = time.process_time() - l0
            machine_pct = psutil.cpu_percent() * (os.cpu_count() or 1)
            if profiler is not None:
                profiler.wait(60)
            k1 = await commit_counts(servers)
            redis_ops = await redis_commands(args.redis) - rc0
            wal = await wal_position(args.pg) - wal0
            commits, committed = k1[0] - k0[0], k1[1] - k0[1]
            acks = max(w.acks, 1)
            result = {
                "offered_per_second": rate if kind == "paced" else None,
                "acked_per_second": round(acked, 1),
                "acknowledged": w.acks,
                "ack_ms": {
                    "p50": ms(percentile(w.latency, 50)),
                    "p95": ms(percentile(w.latency, 95)),
                    "p99": ms(percentile(w.latency, 99)),
                    "max": ms(max(w.latency) if w.latency else None),
                },
                "errors": dict(w.errors),
                "error_count": sum(w.errors.values()),
                "refused_by_engine": dict(w.refused),
                "refused_after_end": dict(w.late),
                "server_us_per_move": round(1e6 * sum(server_cpu) / acks, 1),
                "postgres_us_per_move": round(1e6 * pg_cpu / acks, 1),
                "postgres_all_us_per_move": round(1e6 * pga / acks, 1),
                "redis_all_us_per_move": round(1e6 * rc / acks, 1),
                "loadgen_us_per_move": round(1e6 * lcpu / acks, 1),
                "server_cpu_percent": [round(100 * c / elapsed, 1) for c in server_cpu],
                "postgres_cpu_percent": round(100 * pg_cpu / elapsed, 1),
                "loadgen_cpu_percent": round(100 * lcpu / elapsed, 1),
                "machine_cpu_percent": round(machine_pct, 1),
                "watch": {
                    "updates": w.updates,
                    "bytes": w.update_bytes,
                    "feed_lag_ms": {"p50": ms(percentile(w.feed_lag, 50)), "p99": ms(percentile(w.feed_lag, 99))},
                    "ack_to_watcher_ms": {
                        "p50": ms(percentile(w.ack_lag, 50)),
                        "p99": ms(percentile(w.ack_lag, 99)),
                        "samples": len(w.ack_lag),
                    },
                },
                "commits_per_second": round(commits / elapsed, 1),
                "redis_commands_per_move": round(redis_ops / acks, 2),
                "wal_bytes_per_move": round(wal / acks),
                "score_changing_moves": round(w.scored / acks, 3),
                "moves_per_commit": round(committed / commits, 1) if commits else None,
                "players_playing": len(gen.active()),
                "measured_seconds": wall,
            }
            ok = "ok" if result["error_count"] == 0 and not w.refused else "ERRORS"
            print(
                f"  {kind} {rate or '':>6}: {result['acked_per_second']:8.0f} acked/s  "
                f"p50 {result['ack_ms']['p50']} p99 {result['ack_ms']['p99']} ms  "
                f"server {result['server_us_per_move']} us  pg {result['postgres_us_per_move']} us  "
                f"{result['commits_per_second']} commits/s of {result['moves_per_commit']}  "
                f"loadgen {result['loadgen_cpu_percent']}%  watcher lag p99 "
                f"{result['watch']['ack_to_watcher_ms']['p99']} ms  {ok} {dict(w.errors) or ''}",
                file=sys.stderr,
                flush=True,
            )
            await asyncio.sleep(args.rest)
            return result

        steps = []
        over = 0
        capacity = None
        for rate in args.rates:
            step = await measured("paced", rate)
            steps.append(step)
            good = (
                step["ack_ms"]["p99"] is not None
                and step["ack_ms"]["p99"] <= args.p99_ms
                and step["error_count"] == 0
                and not step["refused_by_engine"]
                and step["acked_per_second"] >= 0.95 * rate
            )
            if good:
                capacity = rate if capacity is None else max(capacity, rate)
            else:
                over += 1
                if args.stop_after and over >= args.stop_after:
                    break
        out["steps"] = steps
        out["capacity_per_second"] = capacity
        if args.profile and Path(args.profile).exists():
            out["profile"] = summarise_profile(Path(args.profile))
        if args.saturate:
            out["saturated"] = await measured("saturated", 0)
        rss3 = [s.rss() for s in servers]
        out["memory"]["server_rss_mib_after_play"] = [round(r / 2**20, 1) for r in rss3]
        out["memory"]["kib_per_player_after_play"] = round((sum(rss3) - sum(rss0)) / 1024 / players, 1)
        gen.close()
        gen = None
        for s in servers:
            s.stop()
        servers = []

        async def echo_on(flag: str, label: str) -> dict[str, Any]:
            """One echo server (``flag``: the same stack, or picows) driven by every player's connection."""
            nonlocal echo
            port = free_port()
            echo = Proc(
                [sys.executable, str(Path(__file__).resolve()), flag, str(port)],
                {},
                port,
                "tcp",
                logdir / f"bench-{label}-{port}.log",
                server_cores,
            )
            echo.wait_ready()
            result = await echo_run(f"ws://127.0.0.1:{port}/ws/echo", args.players, args.echo_seconds, echo.cpu)
            if args.echo_rates:  # the same connections at set rates, as the moves are offered
                result["paced"] = [
                    await echo_run(f"ws://127.0.0.1:{port}/ws/echo", args.players, args.echo_seconds, echo.cpu, rate)
                    for rate in args.echo_rates
                ]
            echo.stop()
            echo = None
            return result

        if args.echo_seconds > 0 and args.players > 0:
            out["echo"] = await echo_on("--echo-server", "echo")
            if args.play_socket == "port":  # the play port's stack: the same echo on picows
                out["echo_picows"] = await echo_on("--echo-picows-server", "echo-picows")
        return out
    finally:
        if gen is not None:
            gen.close()
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="server_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument(
        "--rates",
        default="1000,2000,3000,4000,5000,6000",
        help="offered moves a second in all, one step each, comma-separated",
    )
    parser.add_argument("--step-seconds", type=float, default=8.0)
    parser.add_argument("--rest", type=float, default=1.0, help="seconds between steps")
    parser.add_argument(
        "--stop-after",
        type=int,
        default=0,
        help="stop stepping after this many steps over the latency limit (0: run every step)",
    )
    parser.add_argument("--p99-ms", type=float, default=50.0, help="the capacity's latency limit")
    parser.add_argument("--no-saturate", dest="saturate", action="store_false", help="skip the saturation run")
    parser.add_argument("--echo-seconds", type=float, default=5.0, help="the same-stack echo; 0 to skip")
    parser.add_argument(
        "--echo-rates",
        type=lambda text: [float(r) for r in text.split(",") if r],
        default=[],
        help="the echo again at these rates (messages a second in all, round robin), e.g. 5000,10000",
    )
    parser.add_argument("--processes", type=int, choices=[1, 2, 3, 4], default=1)
    parser.add_argument(
        "--pin",
        choices=["split", "none"],
        default="split",
        help="split: the generator on core 0, the servers on the others (when there are 2+)",
    )
    add_play_socket(parser)
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_SIZE of each server")
    add_server_env(parser)
    parser.add_argument("--time-limit", type=int, default=3600, help="the games' time limit (seconds)")
    parser.add_argument("--pg", default=PG_DEFAULT, help="PostgreSQL admin URL (a fresh database is made)")
    parser.add_argument("--redis", default=REDIS_DEFAULT)
    parser.add_argument("--profile", metavar="FILE", help="py-spy raw profile of the first server")
    parser.add_argument("--profile-rate", type=float, default=2000, help="the step to profile")
    parser.add_argument(
        "--profile-native",
        action="store_true",
        help="with C frames (uvloop, asyncpg, msgspec): where the event loop's own time goes",
    )
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--echo-picows-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        serve_echo(args.echo_server)
        return 0
    if args.echo_picows_server:
        serve_picows_echo(args.echo_picows_server)
        return 0
    try:
        args.rates = [float(r) for r in args.rates.split(",") if r.strip()]
    except ValueError:
        parser.error("--rates takes numbers separated by commas")
    if args.players < 1 or args.watchers < 0 or args.step_seconds <= 0 or not args.rates or min(args.rates) <= 0:
        parser.error("players must be 1 or more, watchers 0 or more, step seconds and rates positive")
    import uvloop

    from spidertour.server.cli.bots.config import BotError

    try:
        out = uvloop.run(bench(args))
    except BotError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    bad = any(s["error_count"] or s["refused_by_engine"] for s in out["steps"])
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
