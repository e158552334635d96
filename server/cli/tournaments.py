"""The organiser's commands against a running server: ``spidertour tournament create|edit|close|
cancel|entries|disqualify``, ``spidertour integrity`` and ``spidertour leaderboard rebuild``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import msgspec

from ..tournaments.messages import TournamentCreate
from .args import an_id, on_off
from .client import add_server_options, admin_call, show


def run_tournament_create(args: argparse.Namespace) -> int:
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
        "club": args.club,
        "entry_code": args.entry_code,
        "listed": args.listed,
        "rated": args.rated,
        "rating_min": args.rating_min,
        "rating_max": args.rating_max,
        "teams": None if args.teams_top is None else {"top": args.teams_top},
    }
    try:
        data = msgspec.convert({k: v for k, v in body.items() if v is not None}, TournamentCreate)
    except msgspec.ValidationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    # A certified deal may take the server's solver a while (tries x seconds each).
    timeout = 900 if data.certified else 30
    return show(*admin_call(args, "POST", "/api/tournaments", msgspec.json.encode(data), timeout, expected=201))


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
        except RecursionError:
            print("error: --settings is not JSON: nested too deeply", file=sys.stderr)
            return 2
    if not body:
        print("error: nothing to change: give --name, --opens-at, --closes-at, --settings or --seed", file=sys.stderr)
        return 2
    return show(*admin_call(args, "PATCH", f"/api/tournaments/{args.tournament_id}", body))


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


def run_integrity(args: argparse.Namespace) -> int:
    """The organiser's integrity report of a tournament: flags with their evidence."""
    rc, report = admin_call(args, "GET", f"/api/tournaments/{args.tournament_id}/integrity", timeout=120)
    if report is None:
        return rc
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
    path = f"/api/tournaments/{args.tournament_id}/leaderboard/rebuild"
    rc, answer = admin_call(args, "POST", path, b"", expected=200)
    if answer is not None:
        print(f"rebuilt the leaderboard of tournament {args.tournament_id}: {answer['entries']} entries")
    return rc


# The game's on/off settings, as ``tournament create`` takes them.
SWITCHES = (
    ("--free-column", "the extra empty column, 100 points if never used (default on for spider78 only)"),
    ("--undo", "players may take moves back (default on)"),
    ("--draw-pile-choice", "spider78: deal the draw piles in any order (default on)"),
    ("--draw-pile-tops-up", "spider78: the waiting piles' top cards shown (default on)"),
    ("--reveals-final", "a revealed card stays revealed: undo gives no free peek at face-down cards"),
    ("--deal-variation", "each entry plays the deal renamed: a second entry cannot read the deal off its screen"),
)


def add_commands(sub: Any) -> None:
    """``tournament ...``, ``integrity`` and ``leaderboard rebuild`` on the ``spidertour`` command."""
    tour = sub.add_parser("tournament", aliases=["tournaments"], help="organiser commands")
    tsub = tour.add_subparsers(dest="action", required=True)
    create = tsub.add_parser("create", help="create a tournament on a running server")
    create.add_argument("--name", required=True, help="what players see in the lobby (1-100 characters)")
    create.add_argument(
        "--variant",
        default="spider78",
        help="spider78 (default), spider, huge_spider, black_widow or curds_and_whey",
    )
    create.add_argument("--suits", type=int, help="1, 2 or 4, as the game allows (default 2 for spider78, else 4)")
    create.add_argument("--time-limit", type=int, metavar="SECONDS", help="each game's clock, 1-86400 (default 600)")
    for flag, text in SWITCHES:
        create.add_argument(flag, type=on_off, metavar="on|off", help=text)
    create.add_argument("--undo-limit", type=int, metavar="N", help="at most N undos a game (default: no limit)")
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
    create.add_argument("--certify-seconds", type=float, help="solver CPU seconds a deal tried")
    create.add_argument("--club", type=an_id, help="only this club's members may join (a club you organise)")
    create.add_argument("--entry-code", help="joining takes this code (4-64 characters)")
    create.add_argument("--listed", type=on_off, help="in the public list (default: on unless --club or --entry-code)")
    create.add_argument("--rated", type=on_off, help="its finish updates its players' ratings (default: on)")
    create.add_argument("--rating-min", type=float, help="only players rated (ordinal) at least this in its game")
    create.add_argument("--rating-max", type=float, help="only players rated (ordinal) at most this in its game")
    create.add_argument(
        "--teams-top", type=int, metavar="N", help="a team battle between clubs, each counting its N best scores (1-50)"
    )
    add_server_options(create)
    create.set_defaults(run=run_tournament_create)

    _add_changes(tsub)  # edit, close, cancel, entries, disqualify

    integrity = sub.add_parser(
        "integrity",
        help="organiser: a tournament's integrity report "
        "(shared addresses, undo peeks, scouting entries), with the evidence",
    )
    integrity.add_argument("tournament_id", type=an_id)
    integrity.add_argument("--json", action="store_true", help="print the report as JSON")
    add_server_options(integrity)
    integrity.set_defaults(run=run_integrity)

    board = sub.add_parser("leaderboard", help="leaderboard commands")
    bsub = board.add_subparsers(dest="action", required=True)
    rebuild = bsub.add_parser("rebuild", help="rebuild a tournament's Redis leaderboard from PostgreSQL")
    rebuild.add_argument("tournament_id", type=an_id)
    add_server_options(rebuild)
    rebuild.set_defaults(run=run_leaderboard_rebuild)


def _add_changes(tsub: Any) -> None:
    edit = tsub.add_parser("edit", help="change a tournament before it opens")
    edit.add_argument("tournament_id", type=an_id)
    edit.add_argument("--name", help="a new name")
    edit.add_argument("--opens-at", help="ISO time with zone")
    edit.add_argument("--closes-at", help="ISO time with zone")
    edit.add_argument("--settings", help='JSON, e.g. \'{"variant": "spider78", "suits": 2}\'')
    edit.add_argument("--seed", help="a new seed (the commitment changes with it)")
    edit.set_defaults(run=run_edit)
    for name, run, text in (
        ("close", run_close, "close an open tournament's entries now"),
        ("cancel", run_cancel, "cancel: games end, the seed is revealed, nothing is ranked"),
    ):
        cmd = tsub.add_parser(name, help=text)
        cmd.add_argument("tournament_id", type=an_id)
        cmd.set_defaults(run=run)
        add_server_options(cmd)
    entries = tsub.add_parser("entries", help="list a tournament's entries")
    entries.add_argument("tournament_id", type=an_id)
    entries.add_argument("--json", action="store_true", help="print the entries as JSON")
    entries.set_defaults(run=run_entries)
    dq = tsub.add_parser("disqualify", help="take an entry out of the ranking, with a reason")
    dq.add_argument("tournament_id", type=an_id)
    dq.add_argument("entry_id", type=an_id)
    dq.add_argument("--reason", required=True, help="why, shown to everyone (1-200 characters)")
    dq.set_defaults(run=run_disqualify)
    for cmd in (edit, entries, dq):
        add_server_options(cmd)
