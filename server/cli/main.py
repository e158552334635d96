"""``spidertour``: the project's one command line.

The server (``serve``, ``migrate``, ``schema``), the organiser's commands against a running server
(``tournament``, ``schedule``, ``organiser``, ``club``, ``integrity``, ``leaderboard``, ``bracket``), a
player's (``matches``, ``bracket join|show``), the ratings on the database (``ratings``), the engine's
(``deal``, ``replay``) and the tools around it (``solve``, ``verify``, ``bots``, ``bench``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from spidertour.engine.cli import add_commands as add_engine_commands
from spidertour.engine.cli import run_command

from . import communities, schedules, schema, serve, solve, tournaments, verify
from .bots import command as bots
from .competitions import brackets, matches, series


def _version() -> str:
    try:
        return version("spidertour")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spidertour", description="Tournament server for timed Spider solitaire")
    parser.add_argument("--version", action="version", version=f"spidertour {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve.add_commands(sub)  # serve, migrate
    schema.add_command(sub)  # schema [--check]
    tournaments.add_commands(sub)  # tournament create|edit|close|cancel|entries|disqualify, integrity, leaderboard
    schedules.add_commands(sub)  # schedule create|list|stop
    communities.add_commands(sub)  # organiser create|list|revoke, club create|roster|members|invite|...
    serve.add_ratings_commands(sub)  # ratings rebuild|show
    series.add_commands(sub)  # series create|add|standings
    matches.add_commands(sub)  # matches formats|ask|show
    brackets.add_commands(sub)  # bracket create|edit|show|join|cancel|disqualify
    add_engine_commands(sub)  # deal, replay
    solve.add_command(sub)  # solve --variant V --suits N --seed S [--entry K] [--budget SECONDS]
    verify.add_command(sub)  # verify [--server URL] [--replays FILE] TOURNAMENT_ID
    bots.add_commands(sub)  # bots ... (and bots --check-acks FILE), bench ...
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
