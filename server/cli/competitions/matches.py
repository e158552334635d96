"""``spidertour matches formats|ask|show``: the matches of a running server from the terminal.

``formats`` lists what the server offers with how many matches wait or play in each; ``ask FORMAT``
seats a player (its token as --token, else a guest registered under --name, whose token is printed
once) and says where its game is played; ``show ID`` prints a match: its seats, and once it is over
the ranks, scores and rating changes."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..args import an_id
from ..client import add_server_options, base_url, server_call


def _table(rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _game(settings: dict[str, Any]) -> str:
    minutes, seconds = divmod(int(settings.get("time_limit", 0)), 60)
    return f"{settings.get('variant', '?')} {settings.get('suits', '?')} suit(s) {minutes}:{seconds:02d}"


def run_formats(args: argparse.Namespace) -> int:
    rc, formats = server_call(args, "GET", "/api/matches/formats")
    if formats is None:
        return rc
    if args.json:
        print(json.dumps(formats, indent=2))
        return rc
    rows = [["format", "game", "seats", "waiting", "playing"]]
    for f in formats:
        counts = [str(f.get("waiting", 0)), str(f.get("playing", 0))]
        rows.append([f["name"], _game(f["settings"]), str(f["seats"]), *counts])
    _table(rows)
    return rc


def run_ask(args: argparse.Namespace) -> int:
    token = args.token
    if not token:
        name = (args.name or "").strip()
        if not name:
            print("error: give --token (a player's token), or --name to play as a new guest", file=sys.stderr)
            return 2
        rc, made = server_call(args, "POST", "/api/players", {"name": name}, expected=201)
        if made is None:
            return rc
        token = made["token"]
        if not args.json:
            print(f"guest {made['name']} (player {made['id']}); its token, shown this once: {token}")
    rc, answer = server_call(args, "POST", "/api/matches", {"format": args.format}, token, expected=201)
    if answer is None:
        return rc
    if args.json:
        # A new guest's token with it: the one time it can be read.
        print(json.dumps(answer if args.token else {**answer, "token": token}, indent=2))
        return rc
    match, entry = answer["match"], answer["entry"]
    url = base_url(args)
    seated = sorted(match["players"], key=lambda p: p["seat"])
    print(f"match {match['id']} ({match['format']}, {match['status']}): {len(seated)} of {match['seats']} seats taken")
    if len(seated) == 1:
        print("  you host it: players of your level take the other seats, now or later")
    else:
        print(f"  players: {', '.join(str(p['player']) for p in seated)}")
    print(f"  entry {entry['id']}: play it at {url}/#/play/{entry['id']} (signed in with this token)")
    print(f"  or over the play websocket /ws/play/{entry['id']}")
    print(f"  result: spidertour matches show {match['id']}")
    return rc


def run_show(args: argparse.Namespace) -> int:
    rc, match = server_call(args, "GET", f"/api/matches/{args.match_id}", token=args.token)
    if match is None:
        return rc
    if args.json:
        print(json.dumps(match, indent=2))
        return rc
    print(f"match {match['id']} ({match['format']}, {_game(match['settings'])}): {match['status']}")
    print(f"  commitment {match['commitment']}" + (f", seed {match['seed']}" if match.get("seed") else ""))
    over = match["status"] == "over"
    rows = [["seat", "player", "status", "rating"] + (["rank", "score", "time left", "after"] if over else [])]
    for p in sorted(match["players"], key=lambda p: (p.get("rank") or 99, p["seat"]) if over else p["seat"]):
        row = [str(p["seat"]), str(p["player"]), str(p["status"]), _rating(p.get("rating"))]
        if over:
            row += [str(p.get("rank") or "-"), _text(p.get("final_score")), _text(p.get("time_left")), _change(p)]
        rows.append(row)
    _table(rows)
    free = match["seats"] - len(match["players"])
    if free > 0 and match["status"] in ("waiting", "playing"):
        print(f"  {free} seat(s) free")
    return rc


def _text(value: Any) -> str:
    return "-" if value is None else str(value)


def _rating(value: Any) -> str:
    return "-" if value is None else f"{float(value):.1f}"


def _change(p: dict[str, Any]) -> str:
    before, after = p.get("rating"), p.get("rating_after")
    if after is None or before is None:
        return "unrated"
    return f"{float(after):.1f} ({float(after) - float(before):+.1f})"


def add_commands(sub: Any) -> None:
    matches = sub.add_parser("matches", help="play now: the formats, asking for a match, a match's result")
    msub = matches.add_subparsers(dest="action", required=True)
    formats = msub.add_parser("formats", help="the formats, with how many matches wait or play in each")
    formats.set_defaults(run=run_formats)
    ask = msub.add_parser("ask", help="a seat in a match of FORMAT (the oldest waiting in your band, else a new one)")
    ask.add_argument("format")
    ask.add_argument("--token", help="the player's token (without it, --name registers a guest)")
    ask.add_argument("--name", help="a new guest's display name, when no --token is given (its token is printed)")
    ask.set_defaults(run=run_ask)
    show = msub.add_parser("show", help="a match: its seats and, once over, its result")
    show.add_argument("match_id", type=an_id)
    show.add_argument("--token", help="a seated player's token (optional)")
    show.set_defaults(run=run_show)
    for cmd in (formats, ask, show):
        cmd.add_argument("--json", action="store_true", help="print the server's answer as JSON")
        add_server_options(cmd, admin=False)
