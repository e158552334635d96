"""How often, and how fast, the solver wins deals it has never seen, within a CPU budget.

Run by hand:  python bench/solver_bench.py [--deals N] [--seconds S] [--games LIST] [--json FILE]

For each game (default: spider78 1 and 2 suits, spider 1, 2 and 4 suits, black_widow and
huge_spider) it solves ``--deals`` deals, seeds ``<prefix>-<variant>-<suits>-<i>`` (default
prefix ``bench``: the same deals on every run), default settings otherwise, each within
``--seconds`` of this process's CPU time (``time.process_time`` is the solver's clock: one
core's seconds, whatever else the machine runs). It reports: wins/N, the median and 90th
percentile CPU seconds of the wins, the median line length, positions expanded per second, the
share of the CPU each part of the search took (best-first, beam, every move) at its own pace, and
the deals proven lost (the full search ran dry). Every line won is played by the engine and wins
(the solver checks it before returning it).

Targets (10 s of CPU each, one core, 200 deals): spider78 2-suit >= 97%, spider
2-suit >= 95%, spider 4-suit >= 60%. The full run is ``--deals 200 --seconds 10`` (hours).

Profile:  py-spy record -o solver.svg -- python bench/solver_bench.py --deals 3 --games spider:4
(``--native`` not needed: the solver is pure Python; ``py-spy top`` for a live view).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from spidertour.engine import Settings
from spidertour.engine.solver import solve

GAMES = ("spider78:1", "spider78:2", "spider:1", "spider:2", "spider:4", "black_widow:1", "huge_spider:1")
TARGETS = {"spider78:2": 0.97, "spider:2": 0.95, "spider:4": 0.60}


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(-(-share * len(ordered) // 1)) - 1))
    return ordered[rank]


def bench_game(game: str, deals: int, seconds: float, prefix: str, verbose: bool) -> dict[str, Any]:
    variant, _, suits = game.partition(":")
    settings = Settings(variant=variant, suits=int(suits or 1))
    clock = time.process_time
    wins: list[float] = []
    lengths: list[int] = []
    lost = nodes = 0
    elapsed = 0.0
    parts: dict[str, list[float]] = {}  # part of the search -> [positions, CPU seconds]
    for i in range(deals):
        seed = f"{prefix}-{variant}-{settings.suits}-{i}"
        t0 = clock()
        s = solve(settings, seed, seconds=seconds, clock=clock)
        dt = clock() - t0
        elapsed += dt
        nodes += s.nodes
        for name, (n, t) in s.parts.items():
            part = parts.setdefault(name, [0, 0.0])
            part[0] += n
            part[1] += t
        if s.won:
            wins.append(dt)
            lengths.append(len(s.moves))
        lost += s.exhausted
        if verbose:
            line = f", {len(s.moves)} moves" if s.won else ""
            print(f"  {game} {seed}: {s.outcome} in {dt:.2f} s{line}, {s.nodes} positions", file=sys.stderr, flush=True)
    out: dict[str, Any] = {
        "game": game,
        "deals": deals,
        "seconds_per_deal": seconds,
        "clock": "process_time",
        "won": len(wins),
        "won_share": round(len(wins) / deals, 4),
        "proven_lost": lost,
        "median_win_s": round(statistics.median(wins), 3) if wins else None,
        "p90_win_s": round(percentile(wins, 0.9), 3) if wins else None,
        "median_moves": statistics.median(lengths) if lengths else None,
        "positions_per_s": round(nodes / elapsed) if elapsed else None,
        "cpu_s": round(elapsed, 1),
        # Where the CPU went: each part of the search's share of the CPU seconds, and its pace.
        "parts": {
            name: {
                "cpu_share": round(t / elapsed, 3) if elapsed else None,
                "positions_per_s": round(n / t) if t else None,
            }
            for name, (n, t) in sorted(parts.items())
        },
    }
    if game in TARGETS:
        out["target_share"] = TARGETS[game]
        out["meets_target"] = len(wins) / deals >= TARGETS[game]
    return out


def describe(r: dict[str, Any]) -> str:
    target = ""
    if "target_share" in r:
        target = f" (target {r['target_share']:.0%}: {'met' if r['meets_target'] else 'NOT met'})"
    return (
        f"{r['game']:<13} {r['won']}/{r['deals']} won ({r['won_share']:.0%}){target}, "
        f"proven lost {r['proven_lost']}, win CPU s median {r['median_win_s']} p90 {r['p90_win_s']}, "
        f"median line {r['median_moves']} moves, {r['positions_per_s']} positions/s, {r['cpu_s']} CPU s; "
        + ", ".join(
            f"{name} {p['cpu_share']:.0%} of the CPU at {p['positions_per_s']}/s" for name, p in r["parts"].items()
        )
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="deals of each game (default 200)")
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per deal (default 10)")
    ap.add_argument("--games", default=",".join(GAMES), help="variant:suits, comma separated")
    ap.add_argument("--prefix", default="bench", help="seed prefix (default bench)")
    ap.add_argument("--json", metavar="FILE", help="also write the results to FILE as a JSON list")
    ap.add_argument("--verbose", action="store_true", help="one line per deal on stderr")
    args = ap.parse_args(argv)
    if args.deals < 1 or not args.seconds > 0:
        ap.error("--deals must be >= 1 and --seconds > 0")
    results = []
    for game in args.games.split(","):
        r = bench_game(game.strip(), args.deals, args.seconds, args.prefix, args.verbose)
        results.append(r)
        print(describe(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
