"""``spidertour series create|add|standings``: a season or a league on a running server (an
organiser's token as --admin-token or $ADMIN_TOKEN; the standings need none)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..args import an_id
from ..client import add_server_options, admin_call, server_call, show

COLUMNS = ("player_id", "player", "handle", "points", "counted", "played", "best_rank")


def points_rule(text: str) -> str | list[int]:
    """``field``, or the points by place as whole numbers separated by commas (10,8,6)."""
    if text.strip().lower() == "field":
        return "field"
    parts = [p.strip() for p in text.split(",")]
    if not parts or not all(p.isascii() and p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r}: give field, or whole numbers from 0 separated by commas (10,8,6)")
    return [int(p) for p in parts]


def best_of(text: str) -> int:
    """How many results count: a whole number from 1."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 1")
    return int(text)


def run_create(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"name": args.name, "points": args.points, "best_of": args.best_of}
    if args.club is not None:
        body["club"] = args.club
    return show(*admin_call(args, "POST", "/api/series", body))


def run_add(args: argparse.Namespace) -> int:
    return show(
        *admin_call(args, "POST", f"/api/series/{args.series_id}/tournaments", {"tournament": args.tournament_id})
    )


def run_standings(args: argparse.Namespace) -> int:
    rc, text = server_call(args, "GET", f"/api/series/{args.series_id}/standings.csv", accept="text/csv")
    if text is None:
        return rc
    if args.csv:
        sys.stdout.write(text)
        return rc
    import csv

    rows = list(csv.reader(text.splitlines()))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return rc


def add_commands(sub: Any) -> None:
    series = sub.add_parser("series", help="seasons and leagues: tournaments whose standings add up")
    ssub = series.add_subparsers(dest="action", required=True)
    create = ssub.add_parser("create", help="a new series, run by the token's organiser")
    create.add_argument("name")
    create.add_argument(
        "--points",
        type=points_rule,
        default="field",
        help="field (the last ranked entrant 1 point, the winner one per ranked entrant) or points by place: 10,8,6",
    )
    create.add_argument("--best-of", type=best_of, default=None, help="count only each player's best N results")
    create.add_argument("--club", type=an_id, default=None, help="only this club's tournaments join")
    create.set_defaults(run=run_create)
    add = ssub.add_parser("add", help="a tournament joins a series")
    add.add_argument("series_id", type=an_id)
    add.add_argument("tournament_id", type=an_id)
    add.set_defaults(run=run_add)
    standings = ssub.add_parser("standings", help="the series' table (anyone may read it)")
    standings.add_argument("series_id", type=an_id)
    standings.add_argument("--csv", action="store_true", help="print it as CSV")
    standings.set_defaults(run=run_standings)
    for cmd in (create, add):
        add_server_options(cmd)
    add_server_options(standings, admin=False)
