"""``spidertour bracket create|edit|show|join|cancel|disqualify``: knockout brackets on a running server.

The organiser's commands (``create``, ``edit``, ``cancel``, ``disqualify``) take the admin token or an
organiser's (``--admin-token``, or ``$ADMIN_TOKEN``); ``join`` a player's (``--token``); ``show`` is
public: the rounds as a table, each pairing's seeds, players, scores (once the round is over) and
winner, and the champion."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import msgspec

from ...brackets.messages import BracketCreate
from ..args import an_id, on_off
from ..client import add_server_options, admin_call, server_call, show


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    given = {"variant": args.variant, "suits": args.suits, "time_limit": args.time_limit, "undo": args.undo}
    return {k: v for k, v in given.items() if v is not None}


def run_create(args: argparse.Namespace) -> int:
    body = {
        "name": args.name,
        "settings": _settings(args),
        "opens_at": args.opens_at,
        "break_seconds": args.break_seconds,
        "club": args.club,
        "entry_code": args.entry_code,
        "listed": args.listed,
        "rated": args.rated,
        "rating_min": args.rating_min,
        "rating_max": args.rating_max,
        "series": args.series,
    }
    try:
        data = msgspec.convert({k: v for k, v in body.items() if v is not None}, BracketCreate)
    except msgspec.ValidationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return show(*admin_call(args, "POST", "/api/brackets", msgspec.json.encode(data), expected=201))


def run_edit(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {
        k: v
        for k, v in {"name": args.name, "opens_at": args.opens_at, "break_seconds": args.break_seconds}.items()
        if v is not None
    }
    if not body:
        print("error: nothing to change: give --name, --opens-at or --break-seconds", file=sys.stderr)
        return 2
    return show(*admin_call(args, "PATCH", f"/api/brackets/{args.bracket_id}", body))


def run_join(args: argparse.Namespace) -> int:
    body = None if args.entry_code is None else {"entry_code": args.entry_code}
    rc, entry = server_call(args, "POST", f"/api/brackets/{args.bracket_id}/entries", body, args.token, expected=201)
    if entry is None:
        return rc
    if args.json:
        print(json.dumps(entry, indent=2))
        return rc
    print(f"{entry['player']} joined bracket {args.bracket_id} (entry {entry['id']})")
    print("  your games are announced on GET /api/me/entries as the rounds come (bracket_id, round)")
    return rc


def run_cancel(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "POST", f"/api/brackets/{args.bracket_id}/cancel")
    if answer is not None:
        print(f"bracket {answer['id']} cancelled; its seed: {answer['seed']}")
    return rc


def run_disqualify(args: argparse.Namespace) -> int:
    body = {"player": args.player_id, "reason": args.reason}
    rc, answer = admin_call(args, "POST", f"/api/brackets/{args.bracket_id}/disqualify", body)
    if answer is not None:
        print(f"player {args.player_id} disqualified from bracket {answer['id']} ({answer['status']})")
    return rc


def run_show(args: argparse.Namespace) -> int:
    rc, found = server_call(args, "GET", f"/api/brackets/{args.bracket_id}")
    if found is None:
        return rc
    if args.json:
        print(json.dumps(found, indent=2))
        return rc
    print(f"bracket {found['id']} {found['name']!r}: {found['status']}, {found['entrants']} entrant(s)")
    print(f"  opens {found['opens_at']}, {found['break_seconds']} s between rounds, commitment {found['commitment']}")
    if found.get("seed"):
        print(f"  seed {found['seed']} (round r plays the deal of <seed>/<r>)")
    for rnd in found["rounds"]:
        print(f"round {rnd['round']} (starts {rnd['starts_at']})")
        for pairing in rnd["pairings"]:
            sides = [_side(p, pairing["winner"]) for p in pairing["players"]]
            print("  " + (" v ".join(sides) if len(sides) == 2 else f"{sides[0] if sides else '-'} (bye)"))
    if found.get("champion"):
        print(f"champion: {found['champion']['player']} (player {found['champion']['player_id']})")
    return rc


def _side(p: dict[str, Any], winner: int | None) -> str:
    score = "" if p.get("final_score") is None else f" {p['final_score']} ({p['time_left']} s left)"
    mark = " *" if p["player_id"] == winner else ""
    return f"[{p['seed']}] {p['player']}{score}{mark}"


def add_commands(sub: Any) -> None:
    bracket = sub.add_parser("bracket", aliases=["brackets"], help="knockout brackets")
    bsub = bracket.add_subparsers(dest="action", required=True)
    create = bsub.add_parser("create", help="create a knockout bracket (organiser)")
    create.add_argument("--name", required=True, help="what players see (1-100 characters)")
    create.add_argument("--opens-at", required=True, help="ISO time with zone: entries until then, then round 1")
    create.add_argument(
        "--variant", default="spider78", help="spider78 (default), spider, huge_spider, black_widow or curds_and_whey"
    )
    create.add_argument("--suits", type=int, help="1, 2 or 4, as the game allows (default 2 for spider78, else 4)")
    create.add_argument("--time-limit", type=int, help="seconds a game")
    create.add_argument("--undo", type=on_off, metavar="on|off", help="players may take moves back (default on)")
    create.add_argument("--break-seconds", type=int, help="from a round's last game over to the next round (60)")
    create.add_argument("--club", type=an_id, help="only this club's members may join (a club you organise)")
    create.add_argument("--entry-code", help="joining takes this code (4-64 characters)")
    create.add_argument("--listed", type=on_off, help="in the public list (default: on unless --club or --entry-code)")
    create.add_argument("--rated", type=on_off, help="each pairing's game rates its players (default: on)")
    create.add_argument("--rating-min", type=float, help="only players rated (ordinal) at least this in its game")
    create.add_argument("--rating-max", type=float, help="only players rated (ordinal) at most this in its game")
    create.add_argument("--series", type=an_id, help="a series you run: it counts the bracket's final places")
    create.set_defaults(run=run_create)
    edit = bsub.add_parser("edit", help="change a bracket before it opens (organiser)")
    edit.add_argument("bracket_id", type=an_id)
    edit.add_argument("--name", help="a new name")
    edit.add_argument("--opens-at", help="ISO time with zone")
    edit.add_argument("--break-seconds", type=int, help="from a round's last game over to the next round")
    edit.set_defaults(run=run_edit)
    cancel = bsub.add_parser("cancel", help="cancel a bracket: games in play end now (organiser)")
    cancel.add_argument("bracket_id", type=an_id)
    cancel.set_defaults(run=run_cancel)
    dq = bsub.add_parser("disqualify", help="take a player out: it loses its current pairing (organiser)")
    dq.add_argument("bracket_id", type=an_id)
    dq.add_argument("player_id", type=an_id)
    dq.add_argument("--reason", required=True, help="why, shown to everyone")
    dq.set_defaults(run=run_disqualify)
    for cmd in (create, edit, cancel, dq):
        add_server_options(cmd)
    join = bsub.add_parser("join", help="join a bracket before it opens (a player)")
    join.add_argument("bracket_id", type=an_id)
    join.add_argument("--token", required=True, help="the player's token")
    join.add_argument("--entry-code", help="the code a bracket with one asks for")
    join.set_defaults(run=run_join)
    shown = bsub.add_parser("show", help="a bracket: its rounds, pairings, scores and champion")
    shown.add_argument("bracket_id", type=an_id)
    shown.set_defaults(run=run_show)
    for cmd in (join, shown):
        cmd.add_argument("--json", action="store_true", help="print the server's answer as JSON")
        add_server_options(cmd, admin=False)
