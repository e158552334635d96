"""``spidertour solve``: find a winning line of a deal and print it ready for ``spidertour replay``.

Standard output is one JSON line: a docs/replay.md game (the settings, the seed, the entry with
deal_variation, and the moves, each with its time ``t`` at the chosen pace), so

    spidertour solve --variant spider78 --suits 1 --seed abc | spidertour replay

re-scores the line with the engine. ``--moves`` prints the moves alone instead, one JSON object a
line. A summary goes to standard error. Exit status: 0 a win found, 1 none within the budget (or
the deal proven lost), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from spidertour.engine import Settings
from spidertour.engine.errors import EngineError
from spidertour.engine.solver import HUMAN_PACE, solve

from .args import on_off


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "solve",
        help="find a winning line of a deal (whole deal known); prints a docs/replay.md game line",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--variant", required=True, help="spider78, spider, huge_spider, black_widow, curds_and_whey")
    p.add_argument("--suits", type=int, required=True, help="1, 2 or 4, as the game allows")
    p.add_argument("--seed", required=True, help="the deal's seed")
    p.add_argument("--entry", type=int, help="an entry's ordinal (1, 2, ...): solve that entry's renamed deal")
    p.add_argument("--budget", type=float, default=10.0, help="CPU seconds of search (default 10)")
    p.add_argument("--nodes", type=int, help="also stop after this many positions expanded")
    p.add_argument(
        "--pace", type=float, default=HUMAN_PACE, help="seconds per move for the score (default 2, the par's pace)"
    )
    p.add_argument("--time-limit", type=int, help="the game's time limit in seconds (default 600)")
    p.add_argument("--free-column", type=on_off, help="on or off (default per variant)")
    p.add_argument("--draw-pile-choice", type=on_off, help="spider78: on (default) or off")
    p.add_argument("--moves", action="store_true", help="print the moves alone, one JSON object a line")
    p.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    if not args.budget > 0 or (args.nodes is not None and args.nodes < 1):
        print("error: --budget must be > 0 seconds and --nodes >= 1", file=sys.stderr)
        return 2
    if not args.pace >= 0:
        print("error: --pace must be >= 0 seconds", file=sys.stderr)
        return 2
    given = {
        "variant": args.variant,
        "suits": args.suits,
        "time_limit": args.time_limit,
        "free_column": args.free_column,
        "draw_pile_choice": args.draw_pile_choice,
        "deal_variation": args.entry is not None,
    }
    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
        solution = solve(
            settings,
            args.seed,
            args.entry,
            seconds=args.budget,
            nodes=args.nodes,
            clock=time.process_time,
            pace=args.pace,
        )
    except EngineError as err:
        print(f"error: {err.reason}", file=sys.stderr)
        return 2
    summary = solution.summary()
    if solution.won:
        if args.moves:
            for move in solution.moves_json():
                print(json.dumps(move))
        else:
            line = {**settings.to_json(), "seed": args.seed, "moves": solution.moves_json()}
            if args.entry is not None:
                line["entry"] = args.entry
            print(json.dumps(line, ensure_ascii=False))
    print(
        f"{solution.outcome}: {len(solution.moves)} moves, final score {solution.final_score} at "
        f"{solution.pace:g} s a move; {solution.nodes} positions expanded, {solution.positions} reached, "
        f"depth {solution.max_depth}, {summary.get('seconds')} s",
        file=sys.stderr,
    )
    print(json.dumps(summary), file=sys.stderr)
    return 0 if solution.won else 1
