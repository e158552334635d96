"""What one game's analysis holds in memory, by the game's length.

Run by hand:  python bench/analysis_memory.py [--moves 1000,4000,8000] [--json FILE]

For each length it makes a game of that many recorded moves (spider78, one suit: a few moves at
random, then one card moved to and fro, so that no deal or completed sequence clears the undo
history: the longest history a game of that length can have), then runs the analysis as the
solver's worker does (``analysis.job.analyse``) on a budget of 0.01 CPU seconds, so that what is
measured is what the analysis keeps, not the solver's search. Each length runs in a process of
its own, which reports:

- ``rss_growth_mib``: the growth of the process's peak resident memory (``ru_maxrss``) over the
  analysis, the moves already made;
- ``traced_peak_mib``: the peak of the Python allocations during the analysis (``tracemalloc``,
  in a second run in the same process).

The figures are in docs/performance.md ("Analysis").
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tracemalloc
from typing import Any

from spidertour.engine import Deal, Game, MoveCards, Settings
from spidertour.server.competitions.analysis.job import analyse

SEED = "bench-analysis"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1}
BUDGET = 0.01  # CPU seconds a position, and in all


def long_game(seed: str, count: int, **settings: Any) -> list[dict[str, Any]]:
    """``count`` recorded moves (no undo, no end): random ones until a card can go to and fro
    without revealing anything, then that card to and fro."""
    game = Game(Settings(**settings), seed)
    rng = random.Random(seed)
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        legal = [m for m in game.legal_moves() if isinstance(m, MoveCards)]
        for m in legal:
            trial = game.copy()
            back = MoveCards(m.dst, m.count, m.src)
            if trial.play(m).revealed == 0 and not trial.over and back in trial.legal_moves():
                for k in range(count - len(moves)):
                    step = back if k % 2 else m
                    game.play(step)
                    moves.append(step.to_json())
                return moves
        move = rng.choice(legal) if legal else next(x for x in game.legal_moves() if isinstance(x, Deal))
        game.play(move)
        moves.append(move.to_json())
        if game.over:
            raise RuntimeError(f"the game of {seed} ended before {count} moves")
    return moves


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def one(count: int) -> dict[str, Any]:
    moves = long_game(SEED, count, **SETTINGS)
    settings = Settings(**SETTINGS).to_json()
    before = peak_rss_mib()
    result = analyse(settings, SEED, 1, moves, None, BUDGET, BUDGET)
    grown = peak_rss_mib() - before
    assert len(result["positions"]) == count + 1
    tracemalloc.start()
    analyse(settings, SEED, 1, moves, None, BUDGET, BUDGET)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"moves": count, "rss_growth_mib": round(grown, 1), "traced_peak_mib": round(peak / 2**20, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", default="1000,4000,8000", help="game lengths, separated by commas")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child: one length
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one)))
        return 0
    rows = []
    print(f"{'moves':>7} {'peak RSS growth':>16} {'tracemalloc peak':>17}")
    for count in (int(n) for n in args.moves.split(",")):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(count)], check=True, capture_output=True, text=True
        ).stdout
        row = json.loads(out)
        rows.append(row)
        print(f"{row['moves']:>7} {row['rss_growth_mib']:>12.1f} MiB {row['traced_peak_mib']:>13.1f} MiB")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
