"""How often, and how fast, the solver wins random deals within a budget.

Run by hand:  python bench/solver_bench.py [--deals N] [--budget SECONDS] [--games LIST] [--json]

For each game (default: spider78 1 suit, spider78 2 suits, spider 1 suit, spider 2 suits) it
solves ``--deals`` random deals (seeds ``<prefix>-<variant>-<suits>-<i>``, default settings),
each within ``--budget`` seconds on this one process, and reports: the share won, the median
and slowest time to a win, positions expanded per second, the share proven lost (the full
search ran dry), and the median line length. Every line won is played by the engine and wins
(the solver checks it before returning it).

Targets (10 s each, one core): >= 95% of spider78 1-suit deals and >= 60% of spider78 2-suit
deals won. The full run is 200 deals of each: ``--deals 200 --budget 10`` (up to ~2.2 hours).

Time is this process's CPU time by default (``--clock cpu``: a budget of one core's seconds,
whatever else the machine runs); ``--clock wall`` counts elapsed time instead.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from spidertour.engine import Settings
from spidertour.engine.solver import solve

GAMES = ("spider78:1", "spider78:2", "spider:1", "spider:2")
TARGETS = {"spider78:1": 0.95, "spider78:2": 0.60}


def bench_game(
    game: str, deals: int, budget: float, prefix: str, verbose: bool, clock: Callable[[], float] = time.process_time
) -> dict[str, Any]:
    variant, suits = game.split(":")
    settings = Settings(variant=variant, suits=int(suits))
    wins: list[float] = []
    lengths: list[int] = []
    lost = nodes = 0
    elapsed = 0.0
    for i in range(deals):
        seed = f"{prefix}-{variant}-{suits}-{i}"
        t0 = clock()
        s = solve(settings, seed, seconds=budget, clock=clock)
        dt = clock() - t0
        elapsed += dt
        nodes += s.nodes
        if s.won:
            wins.append(dt)
            lengths.append(len(s.moves))
        lost += s.exhausted
        if verbose:
            print(f"  {game} {seed}: {s.outcome} in {dt:.2f} s, {s.nodes} positions", file=sys.stderr, flush=True)
    out: dict[str, Any] = {
        "game": game,
        "deals": deals,
        "budget_s": budget,
        "won": len(wins),
        "won_share": round(len(wins) / deals, 4) if deals else None,
        "proven_lost": lost,
        "proven_lost_share": round(lost / deals, 4) if deals else None,
        "median_win_s": round(statistics.median(wins), 3) if wins else None,
        "slowest_win_s": round(max(wins), 3) if wins else None,
        "positions_per_s": round(nodes / elapsed) if elapsed else None,
        "median_moves": statistics.median(lengths) if lengths else None,
        "seconds": round(elapsed, 1),
    }
    if game in TARGETS:
        out["target_share"] = TARGETS[game]
        out["meets_target"] = len(wins) / deals >= TARGETS[game] if deals else None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="deals of each game (default 200)")
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per deal (default 10)")
    ap.add_argument("--games", default=",".join(GAMES), help="variant:suits, comma separated")
    ap.add_argument("--prefix", default="solver-bench", help="seed prefix")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="CPU time (default) or elapsed time")
    ap.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")
    ap.add_argument("--verbose", action="store_true", help="one line per deal on stderr")
    args = ap.parse_args(argv)
    if args.deals < 1 or not args.budget > 0:
        ap.error("--deals must be >= 1 and --budget > 0")
    for game in args.games.split(","):
        clock = time.process_time if args.clock == "cpu" else time.perf_counter
        r = bench_game(game.strip(), args.deals, args.budget, args.prefix, args.verbose, clock)
        r["clock"] = args.clock
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            target = ""
            if "target_share" in r:
                target = f" (target {r['target_share']:.0%}: {'met' if r['meets_target'] else 'NOT met'})"
            print(
                f"{r['game']:<11} {r['won']}/{r['deals']} won ({r['won_share']:.0%}){target}, "
                f"proven lost {r['proven_lost']}, median win {r['median_win_s']} s, "
                f"slowest win {r['slowest_win_s']} s, {r['positions_per_s']} positions/s, "
                f"median line {r['median_moves']} moves, {r['seconds']} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
