"""``spidertour organiser create|list|revoke`` (the owner) and ``spidertour club
create|organiser|roster|members|invite|code|codes|results|progress`` (an organiser, with its token
or an organiser account's session token as --admin-token or $ADMIN_TOKEN) on a running server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .args import an_id
from .client import add_server_options, admin_call, show

MAX_ROSTER_BYTES = 128 * 1024  # as the server takes


def run_organiser_create(args: argparse.Namespace) -> int:
    """A token organiser (NAME), or an account made one (--handle or --player): no token then."""
    given = [x for x in (args.name, args.handle, args.player) if x is not None]
    if len(given) != 1:
        print("error: give a NAME (an organiser with a token), or --handle or --player (an account)", file=sys.stderr)
        return 2
    body: dict[str, Any] = (
        {"name": args.name}
        if args.name is not None
        else {"handle": args.handle}
        if args.handle is not None
        else {"player": args.player}
    )
    rc, answer = admin_call(args, "POST", "/api/organisers", body)
    if answer is not None and "token" in answer:
        print(f"organiser {answer['id']} ({answer['name']}); its token, shown once:\n{answer['token']}")
    elif answer is not None:
        print(f"organiser {answer['id']} ({answer['name']}): player {answer['player_id']}'s sessions carry its rights")
    return rc


def run_organiser_list(args: argparse.Namespace) -> int:
    return show(*admin_call(args, "GET", "/api/organisers"))


def run_organiser_revoke(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "DELETE", f"/api/organisers/{args.organiser_id}")
    if answer is not None:
        print(f"organiser {answer['id']} revoked: its token is refused from now on")
    return rc


def run_club_create(args: argparse.Namespace) -> int:
    return show(*admin_call(args, "POST", "/api/clubs", {"name": args.name}))


def run_club_organiser(args: argparse.Namespace) -> int:
    body = {"organiser": args.organiser_id}
    return show(*admin_call(args, "POST", f"/api/clubs/{args.club_id}/organisers", body))


def run_club_roster(args: argparse.Namespace) -> int:
    """Send a CSV file (a header with name and optionally handle); print the code sheet as CSV."""
    try:
        with Path(args.file).open("rb") as f:
            data = f.read(MAX_ROSTER_BYTES + 1)
    except OSError as err:
        print(f"error: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    if len(data) > MAX_ROSTER_BYTES:
        print(f"error: {args.file} is over {MAX_ROSTER_BYTES} bytes: split the roster", file=sys.stderr)
        return 2
    accept = "application/json" if args.json else "text/csv"
    rc, answer = admin_call(
        args, "POST", f"/api/clubs/{args.club_id}/roster", data, timeout=180, content_type="text/csv", accept=accept
    )
    if answer is None:
        return rc
    if args.json:
        return show(rc, answer)
    sys.stdout.write(answer)
    print("these codes are shown once: print or keep the sheet", file=sys.stderr)
    return rc


def run_club_members(args: argparse.Namespace) -> int:
    return show(*admin_call(args, "GET", f"/api/clubs/{args.club_id}/members"))


def run_club_invite(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "POST" if args.rotate else "GET", f"/api/clubs/{args.club_id}/invite")
    if answer is not None:
        print(answer["invite"])
    return rc


def run_club_code(args: argparse.Namespace) -> int:
    return show(*admin_call(args, "POST", f"/api/clubs/{args.club_id}/members/{args.player_id}/code"))


def run_club_codes(args: argparse.Namespace) -> int:
    """Fresh codes for these members, printed as CSV slips (the old codes and their sessions end)."""
    body = {"members": args.player_ids}
    rc, answer = admin_call(args, "POST", f"/api/clubs/{args.club_id}/codes", body, timeout=180, accept="text/csv")
    if answer is not None:
        sys.stdout.write(answer)
        print("these codes are shown once: print or keep the sheet", file=sys.stderr)
    return rc


def run_club_progress(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "GET", f"/api/clubs/{args.club_id}/progress?format=csv", accept="text/csv")
    if answer is not None:
        sys.stdout.write(answer)
    return rc


def run_club_results(args: argparse.Namespace) -> int:
    rc, answer = admin_call(args, "GET", f"/api/clubs/{args.club_id}/results.csv", accept="text/csv")
    if answer is not None:
        sys.stdout.write(answer)
    return rc


def add_commands(sub: Any) -> None:
    organiser = sub.add_parser("organiser", aliases=["organisers"], help="the owner: organisers and their tokens")
    osub = organiser.add_subparsers(dest="action", required=True)
    create = osub.add_parser("create", help="a new organiser; prints its token once (an account's: none)")
    create.add_argument("name", nargs="?", help="a new organiser with a token of its own")
    create.add_argument("--handle", help="make this account an organiser: its sessions carry the rights")
    create.add_argument("--player", type=an_id, help="make this account (by player id) an organiser")
    create.set_defaults(run=run_organiser_create)
    listing = osub.add_parser("list", help="every organiser, revoked ones included")
    listing.set_defaults(run=run_organiser_list)
    revoke = osub.add_parser("revoke", help="revoke an organiser: its token is refused at once")
    revoke.add_argument("organiser_id", type=an_id)
    revoke.set_defaults(run=run_organiser_revoke)
    commands = [create, listing, revoke]

    club = sub.add_parser("club", aliases=["clubs"], help="an organiser's clubs, members and codes")
    csub = club.add_subparsers(dest="action", required=True)
    make = csub.add_parser("create", help="a new club, organised by the token's organiser")
    make.add_argument("name")
    make.set_defaults(run=run_club_create)
    commands.append(make)
    for name, run, text in (
        ("members", run_club_members, "the club's members"),
        ("invite", run_club_invite, "print the club's invite code (--rotate: a new one)"),
        ("results", run_club_results, "the members' results in the club's tournaments, as CSV"),
        ("roster", run_club_roster, "member accounts from a CSV file (name[,handle]); prints the code sheet"),
        ("organiser", run_club_organiser, "add another organiser to the club"),
        ("code", run_club_code, "a new sign-in code for a member"),
        ("codes", run_club_codes, "fresh sign-in codes for these members, as CSV slips to print"),
        ("progress", run_club_progress, "each member's games, scores, rating and last seen, as CSV"),
    ):
        cmd = csub.add_parser(name, help=text)
        cmd.add_argument("club_id", type=an_id)
        cmd.set_defaults(run=run)
        commands.append(cmd)
        if name == "invite":
            cmd.add_argument("--rotate", action="store_true", help="a new code; the old one stops admitting")
        if name == "roster":
            cmd.add_argument("file", help="CSV with a header: name, and optionally handle")
            cmd.add_argument("--json", action="store_true", help="print the answer as JSON, not CSV")
        if name == "organiser":
            cmd.add_argument("organiser_id", type=an_id)
        if name == "code":
            cmd.add_argument("player_id", type=an_id)
        if name == "codes":
            cmd.add_argument("player_ids", type=an_id, nargs="+", metavar="player_id")
    for cmd in commands:
        add_server_options(cmd)
