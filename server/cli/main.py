"""``spidertour``: the project's one command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spidertour.engine.cli import add_commands as add_engine_commands

from .cli_args import on_off


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app
    from .config import Config
    from .logs import configure

    config = Config.from_env()
    host = args.host or config.host
    port = args.port or config.port
    level = args.log_level or config.log_level
    log_config = configure(level, json_logs=config.log_format == "json")
    print(f"spidertour on http://{host}:{port}/", flush=True)
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        ws_max_size=1 << 20,
        log_level=level,
        log_config=log_config,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        # The client's address is decided by the server's own TRUSTED_PROXIES setting (server/limits.py),
        # never by uvicorn, which would otherwise believe X-Forwarded-For from any local peer.
        proxy_headers=False,
    )
    return 0


async def _with_db(fn):  # type: ignore[no-untyped-def]
    from . import db
    from .config import Config
    from .services import Embedded

    config = Config.from_env()
    embedded = Embedded(config.data_dir)
    try:
        url = config.database_url or embedded.postgres_url()
        pool = await db.create_pool(url, 2)
        try:
            return await fn(pool)
        finally:
            await pool.close()
    finally:
        embedded.stop()


def run_migrate(args: argparse.Namespace) -> int:
    from . import db

    async def go(pool):  # type: ignore[no-untyped-def]
        async with pool.acquire() as conn:
            return await db.migrate(conn)

    applied = asyncio.run(_with_db(go))
    print(f"applied: {', '.join(f'{v:03d}' for v in applied) or 'nothing (up to date)'}")
    return 0


def run_schema(args: argparse.Namespace) -> int:
    from .protocol import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
    if args.check:
        current = Path(args.output).read_text() if Path(args.output).exists() else ""
        if current != text:
            print(f"{args.output} is out of date: run `spidertour schema`", file=sys.stderr)
            return 1
        return 0
    Path(args.output).write_text(text)
    print(f"wrote {args.output}")
    return 0


def run_tournament_create(args: argparse.Namespace) -> int:
    import msgspec

    from . import protocol as p

    settings = {
        k: v
        for k, v in {
            "variant": args.variant,
            "suits": args.suits,
            "time_limit": args.time_limit,
            "free_column": args.free_column,
            "undo": args.undo,
            "undo_limit": args.undo_limit,
            "draw_pile_choice": args.draw_pile_choice,
            "draw_pile_tops_up": args.draw_pile_tops_up,
            "reveals_final": args.reveals_final,
            "deal_variation": args.deal_variation,
        }.items()
        if v is not None
    }
    body = {
        "name": args.name,
        "settings": settings,
        "opens_at": args.opens_at,
        "closes_at": args.closes_at,
        "seed": args.seed,
        "certified": args.certified or None,
        "certify_seconds": args.certify_seconds,
        "start": args.start,
    }
    try:
        data = msgspec.convert({k: v for k, v in body.items() if v is not None}, p.TournamentCreate)
    except msgspec.ValidationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    # A certified deal may take the server's solver a while (tries x seconds each).
    timeout = 900 if data.certified else 30
    rc, answer = _admin_post(args, "/api/tournaments", msgspec.json.encode(data), 201, timeout)
    if answer is not None:
        print(json.dumps(answer, indent=2))
    return rc


def _admin_post(
    args: argparse.Namespace, path: str, body: bytes, expected: int, timeout: float = 30
) -> tuple[int, Any]:
    """POST to a running server with the admin token; (exit status, JSON answer or None)."""
    import httpx

    from .config import server_url

    url = (args.server or server_url()).rstrip("/")
    token = args.admin_token or os.environ.get("ADMIN_TOKEN")
    if not token:
        print("error: give --admin-token or set ADMIN_TOKEN", file=sys.stderr)
        return 2, None
    try:
        r = httpx.post(
            f"{url}{path}",
            content=body,
            headers={"authorization": f"Bearer {token}", "content-type": "application/json"},
            timeout=timeout,
        )
    except httpx.HTTPError as err:
        print(f"error: cannot reach {url}: {err}", file=sys.stderr)
        return 1, None
    if r.status_code != expected:
        print(f"error {r.status_code}: {r.text}", file=sys.stderr)
        return 1, None
    return 0, r.json()


def run_integrity(args: argparse.Namespace) -> int:
    """The organiser's integrity report of a tournament: flags with their evidence."""
    import httpx

    from .config import server_url

    url = (args.server or server_url()).rstrip("/")
    token = args.admin_token or os.environ.get("ADMIN_TOKEN")
    if not token:
        print("error: give --admin-token or set ADMIN_TOKEN", file=sys.stderr)
        return 2
    try:
        r = httpx.get(
            f"{url}/api/tournaments/{args.tournament_id}/integrity",
            headers={"authorization": f"Bearer {token}"},
            timeout=120,
        )
    except httpx.HTTPError as err:
        print(f"error: cannot reach {url}: {err}", file=sys.stderr)
        return 1
    if r.status_code != 200:
        print(f"error {r.status_code}: {r.text}", file=sys.stderr)
        return 1
    report = r.json()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    th = report["thresholds"]
    print(
        f"Tournament {report['tournament_id']} {report['name']!r} ({report['status']}): {report['entries']} entries, "
        f"{len(report['flags'])} flag(s)"
    )
    print(
        f"  peek: a revealing move undone within {th['peek_seconds']:g} s; scout: {th['scout_deals']} deals within "
        f"{th['scout_seconds']:g} s of the start, then an end or {th['idle_seconds']:g} s of nothing"
    )
    for flag in report["flags"]:
        entries = flag["entries"] if flag["type"] == "shared_address" else [flag["entry"]]
        who = ", ".join(
            f"entry {e['entry_id']} (#{e['ordinal']} {e['player']}, {e['status']}, {e['score']})" for e in entries
        )
        print(f"- {flag['type']}: {who}")
        print(f"    {flag['summary']}")
        for peek in flag.get("peeks", []):
            print(
                f"    move {peek['move']} at {peek['t']:.1f} s turned a card in column {peek['column']}; "
                f"undone by move {peek['undo_move']} at {peek['undo_t']:.1f} s"
            )
        for deal in flag.get("deals", []):
            pile = "" if deal["pile"] is None else f" pile {deal['pile']}"
            print(f"    move {deal['move']} at {deal['t']:.1f} s: deal{pile}")
    if not report["flags"]:
        print("Nothing to look into.")
    return 0


def run_leaderboard_rebuild(args: argparse.Namespace) -> int:
    rc, answer = _admin_post(args, f"/api/tournaments/{args.tournament_id}/leaderboard/rebuild", b"", 200)
    if answer is not None:
        print(f"rebuilt the leaderboard of tournament {args.tournament_id}: {answer['entries']} entries")
    return rc


URL_HELP = "default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT (PORT defaults to 8000)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spidertour", description="Tournament server for timed Spider solitaire")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server (embedded PostgreSQL/Valkey unless DATABASE_URL/REDIS_URL)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--log-level", help="debug, info, warning or error; default $LOG_LEVEL or info")
    serve.set_defaults(run=run_serve)

    migrate = sub.add_parser("migrate", help="apply the SQL migrations of schema/ that are not yet applied")
    migrate.set_defaults(run=run_migrate)

    schema = sub.add_parser("schema", help="export the protocol's JSON Schema")
    schema.add_argument("--output", default=str(Path(__file__).resolve().parent.parent / "schema" / "protocol.json"))
    schema.add_argument("--check", action="store_true", help="only check that the file is current")
    schema.set_defaults(run=run_schema)

    tour = sub.add_parser("tournament", aliases=["tournaments"], help="organiser commands")
    tsub = tour.add_subparsers(dest="action", required=True)
    create = tsub.add_parser("create", help="create a tournament on a running server")
    create.add_argument("--name", required=True)
    create.add_argument("--variant", default="spider78")
    create.add_argument("--suits", type=int)
    create.add_argument("--time-limit", type=int)
    create.add_argument("--free-column", type=on_off)
    create.add_argument("--undo", type=on_off)
    create.add_argument("--undo-limit", type=int)
    create.add_argument("--draw-pile-choice", type=on_off)
    create.add_argument("--draw-pile-tops-up", type=on_off)
    create.add_argument(
        "--reveals-final",
        type=on_off,
        metavar="on|off",
        help="a revealed card stays revealed: undo gives no free peek at face-down cards",
    )
    create.add_argument(
        "--deal-variation",
        type=on_off,
        metavar="on|off",
        help="each entry plays the deal renamed: a second entry cannot read the deal off its screen",
    )
    create.add_argument(
        "--start",
        choices=["own", "together"],
        help="together: everyone starts at --opens-at, so nobody can play the deal before anybody "
        "else (closes at opens + time limit); own (default): each starts when ready",
    )
    create.add_argument("--opens-at", help="ISO time with zone; default now")
    create.add_argument("--closes-at", help="ISO time with zone; default an hour after opening (not with together)")
    create.add_argument(
        "--seed",
        help="default: drawn from a cryptographic source; a short one is safe too, "
        "as the commitment also covers a secret 128-bit salt",
    )
    create.add_argument(
        "--certified", action="store_true", help="a deal the server's solver wins (it draws seeds until one is won)"
    )
    create.add_argument("--certify-seconds", type=float, help="solver seconds a deal tried")
    create.add_argument("--server", help=URL_HELP)
    create.add_argument("--admin-token", help="default $ADMIN_TOKEN")
    create.set_defaults(run=run_tournament_create)

    from .organiser_cli import add_schedule_command, add_tournament_commands

    add_tournament_commands(tsub)  # spidertour tournament edit|close|cancel|entries|disqualify
    add_schedule_command(sub)  # spidertour schedule create|list|stop

    integrity = sub.add_parser(
        "integrity",
        help="organiser: a tournament's integrity report "
        "(shared addresses, undo peeks, scouting entries), with the evidence",
    )
    integrity.add_argument("tournament_id", type=int)
    integrity.add_argument("--json", action="store_true", help="print the report as JSON")
    integrity.add_argument("--server", help=URL_HELP)
    integrity.add_argument("--admin-token", help="default $ADMIN_TOKEN")
    integrity.set_defaults(run=run_integrity)

    board = sub.add_parser("leaderboard", help="leaderboard commands")
    bsub = board.add_subparsers(dest="action", required=True)
    rebuild = bsub.add_parser("rebuild", help="rebuild a tournament's Redis leaderboard from PostgreSQL")
    rebuild.add_argument("tournament_id", type=int)
    rebuild.add_argument("--server", help=URL_HELP)
    rebuild.add_argument("--admin-token", help="default $ADMIN_TOKEN")
    rebuild.set_defaults(run=run_leaderboard_rebuild)

    add_engine_commands(sub)

    from .solve_command import add_command as add_solve_command

    add_solve_command(sub)  # spidertour solve --variant V --suits N --seed S [--entry K] [--budget SECONDS]

    from .verify import add_command as add_verify_command

    add_verify_command(sub)  # spidertour verify [--server URL] [--replays FILE] TOURNAMENT_ID

    from .bots import add_bench_command
    from .bots import add_command as add_bots_command

    add_bots_command(sub)  # spidertour bots ... (and bots --check-acks FILE)
    add_bench_command(sub)  # spidertour bench ...: bench/server_bench.py
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
