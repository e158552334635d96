"""``spidertour schedule create|list|stop``: recurring tournaments on a running server."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, time, timedelta
from typing import Any

import msgspec

from ..tournaments.messages import ScheduleCreate
from .args import an_id
from .client import add_server_options, admin_call, show

EVERY = {"hour": 60, "day": 1440, "week": 10080}


def every_range() -> tuple[int, int]:
    """The schedule's period in minutes, at least and at most, as the server accepts it."""
    info = msgspec.inspect.type_info(ScheduleCreate)
    assert isinstance(info, msgspec.inspect.StructType)
    (every,) = (f.type for f in info.fields if f.name == "every_minutes")
    assert isinstance(every, msgspec.inspect.IntType) and every.ge is not None and every.le is not None
    return every.ge, every.le


def first_occurrence(at: str, every_minutes: int, now: datetime | None = None) -> datetime:
    """The next time at ``HH:MM`` UTC (for an hourly schedule only the minutes count)."""
    if every_minutes < 1:
        raise ValueError(f"a schedule repeats every minute at most often, not every {every_minutes}")
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
    least, most = every_range()
    if every is None:
        text = args.every.removesuffix("m")
        if not (text.isascii() and text.isdecimal()):
            print("error: --every is hour, day, week or a number of minutes (e.g. 30m)", file=sys.stderr)
            return 2
        every = int(text)
        if not least <= every <= most:
            print(f"error: --every is from {least} to {most} minutes, not {every}", file=sys.stderr)
            return 2
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
    return show(*admin_call(args, "POST", "/api/schedules", body))


def run_schedule_list(args: argparse.Namespace) -> int:
    return show(*admin_call(args, "GET", "/api/schedules"))


def run_schedule_stop(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "DELETE", f"/api/schedules/{args.schedule_id}")
    if answer is not None:
        print(f"schedule {answer['id']} stopped; the tournaments it created stay")
    return rc


def add_commands(sub: Any) -> None:
    schedule = sub.add_parser("schedule", aliases=["schedules"], help="recurring tournaments")
    ssub = schedule.add_subparsers(dest="action", required=True)
    create = ssub.add_parser("create", help="e.g. --every day --at 20:00: a tournament every day at 20:00 UTC")
    create.add_argument("--name", required=True, help="each tournament's name")
    create.add_argument("--every", required=True, help="hour, day, week, or minutes such as 30m")
    create.add_argument("--at", default="00:00", help="HH:MM UTC (hourly: the minutes); default 00:00")
    create.add_argument("--first", help="the first opening, ISO time with zone (instead of --at)")
    create.add_argument("--open-minutes", type=int, default=60, help="how long each is open (default 60)")
    create.add_argument("--ahead-minutes", type=int, default=60, help="created this long before it opens")
    create.add_argument("--variant", help="spider78 (default), spider, huge_spider, black_widow or curds_and_whey")
    create.add_argument("--suits", type=int, help="1, 2 or 4, as the game allows (default 2 for spider78, else 4)")
    create.add_argument("--time-limit", type=int, metavar="SECONDS", help="each game's clock (default 600)")
    create.set_defaults(run=run_schedule_create)
    listing = ssub.add_parser("list", help="every schedule")
    listing.set_defaults(run=run_schedule_list)
    stop = ssub.add_parser("stop", help="stop a schedule (its tournaments stay)")
    stop.add_argument("schedule_id", type=an_id)
    stop.set_defaults(run=run_schedule_stop)
    for cmd in (create, listing, stop):
        add_server_options(cmd)
