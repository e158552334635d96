"""``spidertour tournament edit|close|cancel|entries|disqualify`` and ``spidertour schedule ...``:
the organiser's actions against a running server ($SPIDERTOUR_URL, else http://127.0.0.1:$PORT)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime, time, timedelta
from typing import Any

URL_HELP = "default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT (PORT defaults to 8000)"
EVERY = {"hour": 60, "day": 1440, "week": 10080}


def admin_call(args: argparse.Namespace, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One admin request: (exit status, JSON answer or None). Errors are printed."""
    import httpx

    from .config import server_url

    url = (args.server or server_url()).rstrip("/")
    token = args.admin_token or os.environ.get("ADMIN_TOKEN")
    if not token:
        print("error: give --admin-token or set ADMIN_TOKEN", file=sys.stderr)
        return 2, None
    headers = {"authorization": f"Bearer {token}"}
    if body is not None:
        headers["content-type"] = "application/json"
    try:
        r = httpx.request(
            method,
            f"{url}{path}",
            headers=headers,
            timeout=30,
            content=None if body is None else json.dumps(body).encode(),
        )
    except httpx.HTTPError as err:
        print(f"error: cannot reach {url}: {err}", file=sys.stderr)
        return 1, None
    if r.status_code >= 400:
        try:
            detail = r.json().get("detail", r.text)
        except ValueError:
            detail = r.text
        print(f"error {r.status_code}: {detail}", file=sys.stderr)
        return 1, None
    return 0, r.json()


def _show(rc: int, answer: Any) -> int:
    if answer is not None:
        print(json.dumps(answer, indent=2))
    return rc


def run_edit(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {
        k: v
        for k, v in {
            "name": args.name,
            "opens_at": args.opens_at,
            "closes_at": args.closes_at,
            "seed": args.seed,
        }.items()
        if v is not None
    }
    if args.settings is not None:
        try:
            body["settings"] = json.loads(args.settings)
        except ValueError as err:
            print(f"error: --settings is not JSON: {err}", file=sys.stderr)
            return 2
    if not body:
        print("error: nothing to change: give --name, --opens-at, --closes-at, --settings or --seed", file=sys.stderr)
        return 2
    return _show(*admin_call(args, "PATCH", f"/api/tournaments/{args.tournament_id}", body))


def run_close(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "POST", f"/api/tournaments/{args.tournament_id}/close")
    if answer is not None:
        print(f"tournament {answer['id']} is {answer['status']}: entries closed at {answer['closes_at']}")
    return rc


def run_cancel(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "POST", f"/api/tournaments/{args.tournament_id}/cancel")
    if answer is not None:
        print(f"tournament {answer['id']} cancelled; its seed: {answer['seed']}")
    return rc


def run_entries(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    rows: list[dict[str, Any]] = []
    while True:
        path = f"/api/tournaments/{args.tournament_id}/entries?offset={len(rows)}&limit=500"
        rc, page = admin_call(args, "GET", path)
        if page is None:
            return rc
        rows += page
        if len(page) < 500:
            break
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    table = Table(title=f"Tournament {args.tournament_id}: {len(rows)} entries")
    for name in ("entry", "player", "status", "moves", "score", "time left", "started", "disqualified"):
        table.add_column(name)
    for r in rows:
        score = r["score"] if r["final_score"] is None else r["final_score"]
        table.add_row(
            str(r["id"]),
            r["player"],
            r["status"],
            str(r["moves"]),
            str(score),
            "-" if r["time_left"] is None else f"{r['time_left']} s",
            r["started_at"] or "-",
            r["disqualified"] or "",
        )
    Console(width=140).print(table)
    return 0


def run_disqualify(args: argparse.Namespace) -> int:
    rc, answer = admin_call(
        args,
        "POST",
        f"/api/tournaments/{args.tournament_id}/entries/{args.entry_id}/disqualify",
        {"reason": args.reason},
    )
    if answer is not None:
        print(f"entry {answer['id']} ({answer['player']}) disqualified: {answer['disqualified']}")
    return rc


def first_occurrence(at: str, every_minutes: int, now: datetime | None = None) -> datetime:
    """The next time at ``HH:MM`` UTC (for an hourly schedule only the minutes count)."""
    now = now or datetime.now(UTC)
    clock = time.fromisoformat(at)
    if every_minutes < 1440:
        start = now.replace(minute=clock.minute, second=0, microsecond=0)
        while start < now:
            start += timedelta(minutes=every_minutes)
        return start
    start = now.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
    return start if start >= now else start + timedelta(days=1)


def run_schedule_create(args: argparse.Namespace) -> int:
    every = EVERY.get(args.every) if args.every in EVERY else None
    if every is None:
        text = args.every.rstrip("m")
        if not text.isdecimal():
            print("error: --every is hour, day, week or a number of minutes (e.g. 30m)", file=sys.stderr)
            return 2
        every = int(text)
    try:
        first = datetime.fromisoformat(args.first) if args.first else first_occurrence(args.at, every)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    body: dict[str, Any] = {
        "name": args.name,
        "first_opens_at": first.isoformat(),
        "every_minutes": every,
        "open_minutes": args.open_minutes,
        "ahead_minutes": args.ahead_minutes,
    }
    settings = {
        k: v
        for k, v in {"variant": args.variant, "suits": args.suits, "time_limit": args.time_limit}.items()
        if v is not None
    }
    if settings:
        body["settings"] = settings
    return _show(*admin_call(args, "POST", "/api/schedules", body))


def run_schedule_list(args: argparse.Namespace) -> int:
    return _show(*admin_call(args, "GET", "/api/schedules"))


def run_schedule_stop(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "DELETE", f"/api/schedules/{args.schedule_id}")
    if answer is not None:
        print(f"schedule {answer['id']} stopped; the tournaments it created stay")
    return rc


def _server_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", help=URL_HELP)
    p.add_argument("--admin-token", help="default $ADMIN_TOKEN")


def add_tournament_commands(tsub: Any) -> None:
    edit = tsub.add_parser("edit", help="change a tournament before it opens")
    edit.add_argument("tournament_id", type=int)
    edit.add_argument("--name")
    edit.add_argument("--opens-at", help="ISO time with zone")
    edit.add_argument("--closes-at", help="ISO time with zone")
    edit.add_argument("--settings", help='JSON, e.g. \'{"variant": "spider78", "suits": 2}\'')
    edit.add_argument("--seed")
    edit.set_defaults(run=run_edit)
    for name, run, text in (
        ("close", run_close, "close an open tournament's entries now"),
        ("cancel", run_cancel, "cancel: games end, the seed is revealed, nothing is ranked"),
    ):
        cmd = tsub.add_parser(name, help=text)
        cmd.add_argument("tournament_id", type=int)
        cmd.set_defaults(run=run)
        _server_options(cmd)
    entries = tsub.add_parser("entries", help="list a tournament's entries")
    entries.add_argument("tournament_id", type=int)
    entries.add_argument("--json", action="store_true")
    entries.set_defaults(run=run_entries)
    dq = tsub.add_parser("disqualify", help="take an entry out of the ranking, with a reason")
    dq.add_argument("tournament_id", type=int)
    dq.add_argument("entry_id", type=int)
    dq.add_argument("--reason", required=True)
    dq.set_defaults(run=run_disqualify)
    for cmd in (edit, entries, dq):
        _server_options(cmd)


def add_schedule_command(sub: Any) -> None:
    schedule = sub.add_parser("schedule", aliases=["schedules"], help="recurring tournaments")
    ssub = schedule.add_subparsers(dest="action", required=True)
    create = ssub.add_parser("create", help="e.g. --every day --at 20:00: a tournament every day at 20:00 UTC")
    create.add_argument("--name", required=True)
    create.add_argument("--every", required=True, help="hour, day, week, or minutes such as 30m")
    create.add_argument("--at", default="00:00", help="HH:MM UTC (hourly: the minutes); default 00:00")
    create.add_argument("--first", help="the first opening, ISO time with zone (instead of --at)")
    create.add_argument("--open-minutes", type=int, default=60, help="how long each is open (default 60)")
    create.add_argument("--ahead-minutes", type=int, default=60, help="created this long before it opens")
    create.add_argument("--variant")
    create.add_argument("--suits", type=int)
    create.add_argument("--time-limit", type=int)
    create.set_defaults(run=run_schedule_create)
    listing = ssub.add_parser("list", help="every schedule")
    listing.set_defaults(run=run_schedule_list)
    stop = ssub.add_parser("stop", help="stop a schedule (its tournaments stay)")
    stop.add_argument("schedule_id", type=int)
    stop.set_defaults(run=run_schedule_stop)
    for cmd in (create, listing, stop):
        _server_options(cmd)
