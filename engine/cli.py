"""``python -m spidertour.engine deal ...`` and ``python -m spidertour.engine replay``: the engine's two commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .deals.vectors import deal_json
from .errors import EngineError
from .replay import replay_line
from .settings import Settings


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``deal`` and ``replay`` on a parser's subcommands (shared with ``spidertour``)."""
    deal = sub.add_parser("deal", help="print the deal of a seed (or of one entry's renamed deal) as one JSON object")
    deal.add_argument("--variant", required=True, help="spider78, spider, huge_spider, black_widow, curds_and_whey")
    deal.add_argument("--suits", type=int, required=True, help="1, 2 or 4, as the game allows")
    deal.add_argument("--seed", required=True, help="the tournament's seed, as revealed at its finish")
    deal.add_argument(
        "--entry", type=int, help="an entry's ordinal (1, 2, ...): print that entry's renamed deal (deal_variation)"
    )
    deal.add_argument(
        "--no-draw-pile-choice",
        dest="draw_pile_choice",
        action="store_false",
        help="spider78: draw piles dealt in order (with --entry: the piles keep their order)",
    )
    deal.set_defaults(run=run_deal)
    replay = sub.add_parser("replay", help="re-score games: JSON Lines on stdin, JSON Lines out (docs/replay.md)")
    replay.set_defaults(run=run_replay)


def run_deal(args: argparse.Namespace) -> int:
    try:
        settings = Settings(
            variant=args.variant,
            suits=args.suits,
            draw_pile_choice=args.draw_pile_choice,
            deal_variation=args.entry is not None,
        )
        out = deal_json(settings, args.seed, args.entry)
    except EngineError as err:
        print(f"error: {err.reason}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Every game replayed: 0; 2 (after all the output) when a line was not a game, the first named."""
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")
    bad, first = 0, ""
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        out = replay_line(line)
        if "error" in out:
            bad += 1
            first = first or f"line {number} is not a game: {out['error']}"
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    if bad:
        more = f" (and {bad - 1} more line(s) not games)" if bad > 1 else ""
        print(f"error: {first}{more}", file=sys.stderr)
        return 2
    return 0


CLOSED_PIPE = 141  # the status of a command ended by SIGPIPE, as a shell reports it (128 + 13)


def run_command(args: argparse.Namespace) -> int:
    """Run the parsed command. Its reader gone before the end (``... | head``) stops it quietly,
    as it stops any shell tool: no traceback, and nothing more written."""
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # what is still buffered meets the closed pipe here, not at exit
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the interpreter's last flush
        return CLOSED_PIPE
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spidertour.engine", description=__doc__)
    add_commands(parser.add_subparsers(dest="command", required=True))
    return run_command(parser.parse_args(argv))
