"""``spidertour bots`` (and ``--check-acks``), and ``spidertour bench``, the server benchmark."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from ...config import ConfigError
from ..args import an_id
from ..client import server_url
from .acks import check_acks
from .config import BotConfig, BotError, validate
from .display import Display
from .swarm import Swarm
from .view import POLICIES


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bots = sub.add_parser(
        "bots",
        help="run bot players and leaderboard watchers against a server, or check their acknowledgements",
        description="Bot players (real websocket clients) and watchers against a running server, with live figures.",
    )
    bots.add_argument(
        "--server",
        action="append",
        dest="servers",
        metavar="URL",
        help="server URL; repeat to split bots between servers (default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT)",
    )
    bots.add_argument("--tournament", type=an_id, help="join this tournament (must be open)")
    bots.add_argument(
        "--matches", metavar="FORMAT", help="each bot asks for a seat in a match of this format (no tournament)"
    )
    bots.add_argument("--admin-token", help="create a tournament with this token (default $ADMIN_TOKEN)")
    bots.add_argument("--players", "-n", type=int, default=10, help="how many bots play (default 10)")
    bots.add_argument("--watchers", "-w", type=int, default=0, help="how many watch the standings too (default 0)")
    bots.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="random",
        help="how a bot picks its move: at random among the legal ones, or greedy (default random)",
    )
    bots.add_argument("--pace", type=float, default=2.0, help="moves a second per bot; 0 = as fast as answers come")
    bots.add_argument("--jitter", type=float, default=0.5, help="0-1: spread of each wait around 1/pace")
    bots.add_argument("--end-early", type=float, default=0.0, help="fraction of bots that end their game early")
    bots.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    bots.add_argument("--variant", default="spider78", help="for a created tournament")
    bots.add_argument("--suits", type=int, help="for a created tournament")
    bots.add_argument("--time-limit", type=int, default=600, help="seconds, for a created tournament")
    bots.add_argument("--seed", type=int, help="random seed of the bots' choices")
    bots.add_argument(
        "--compression",
        choices=["none", "deflate"],
        default="none",
        help="ask for permessage-deflate on the websockets (browsers do)",
    )
    bots.add_argument("--connect-concurrency", type=int, default=64, help="connections opened at once (default 64)")
    bots.add_argument(
        "--watch-sample",
        type=int,
        default=20,
        help="watchers that decode every update to time acknowledgement-to-watcher lag",
    )
    bots.add_argument(
        "--watch-all",
        action="store_true",
        help="every watcher follows every entry's changes (default: one entry each, and the top)",
    )
    bots.add_argument("--ack-log", metavar="FILE", help="append every acknowledged move as a JSON line")
    bots.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    bots.add_argument("--no-live", action="store_true", help="plain progress lines instead of a live table")
    bots.add_argument(
        "--check-acks",
        metavar="FILE",
        help="do not play: check an --ack-log against PostgreSQL ($DATABASE_URL or --database-url)",
    )
    bots.add_argument("--database-url", help="for --check-acks (default $DATABASE_URL)")
    bots.set_defaults(run=run_bots_command)


def run_bots_command(args: argparse.Namespace) -> int:
    try:
        if args.check_acks:
            return _run_check(args)
        cfg = BotConfig(
            servers=[s.rstrip("/") for s in (args.servers or [server_url()])],
            tournament_id=args.tournament,
            match_format=args.matches,
            admin_token=args.admin_token or os.environ.get("ADMIN_TOKEN") or None,
            players=args.players,
            watchers=args.watchers,
            policy=args.policy,
            pace=args.pace,
            jitter=args.jitter,
            end_early=args.end_early,
            duration=args.duration,
            variant=args.variant,
            suits=args.suits,
            time_limit=args.time_limit,
            seed=args.seed,
            compression=None if args.compression == "none" else args.compression,
            connect_concurrency=args.connect_concurrency,
            watch_sample=args.watch_sample,
            watch_all=args.watch_all,
        )
        validate(cfg)
        for path in (args.ack_log, args.json):
            if path and not Path(path).resolve().parent.is_dir():
                raise BotError(f"no folder for {path}")
        figures = _run(run_swarm(cfg, ack_log=args.ack_log, live=not args.no_live and sys.stderr.isatty()))
    except (BotError, ConfigError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    text = json.dumps(figures, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n")
    print(text)
    return 0 if figures["error_count"] == 0 and not figures["refused_by_engine"] else 1


def _run(coro: Any) -> Any:
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def _run_check(args: argparse.Namespace) -> int:
    url = args.database_url or os.environ.get("DATABASE_URL")
    if not url:
        raise BotError("--check-acks needs --database-url or DATABASE_URL")
    count, problems = _run(check_acks(args.check_acks, url))
    for p in problems[:50]:
        print(p, file=sys.stderr)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more", file=sys.stderr)
    if problems:
        print(f"FAIL: {len(problems)} of {count} acknowledged moves are missing or differ in PostgreSQL")
        return 1
    print(f"OK: all {count} acknowledged moves are in PostgreSQL")
    return 0


async def run_swarm(cfg: BotConfig, ack_log: str | None = None, live: bool = False) -> dict[str, Any]:
    swarm = Swarm(cfg, ack_log)
    cpu0 = time.process_time()
    try:
        await swarm.setup()
        await swarm.connect()
        with Display(swarm, live) as display:
            seconds = await swarm.play(on_tick=display.tick)
            display.tick()
    finally:
        await swarm.close()
    figures = swarm.figures(seconds)
    figures["loadgen_cpu_seconds"] = round(time.process_time() - cpu0, 2)
    return figures


BENCH_SCRIPT = Path(__file__).resolve().parents[3] / "bench" / "server_bench.py"


def add_bench_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bench = sub.add_parser(
        "bench",
        help="the server load benchmark (bench/server_bench.py; its options follow, see bench -h)",
        add_help=False,
        prefix_chars="+",
    )
    bench.add_argument("args", nargs="*")
    bench.set_defaults(run=run_bench_command)


def run_bench_command(args: argparse.Namespace) -> int:
    import importlib.util

    if not BENCH_SCRIPT.exists():
        print(
            f"error: {BENCH_SCRIPT} is not there (the benchmark runs from a checkout of the project)", file=sys.stderr
        )
        return 2
    spec = importlib.util.spec_from_file_location("server_bench", BENCH_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.main(args.args))


def add_commands(sub: Any) -> None:
    add_command(sub)  # bots ... (and bots --check-acks FILE)
    add_bench_command(sub)  # bench ...: bench/server_bench.py
