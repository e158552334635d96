"""Several deals in one event (docs/competitions.md "Several deals"): the ranking of a tournament
of N deals, by the total of the final scores or by matchpoints as duplicate bridge scores them.

Pure functions: the finish (server/tournaments/store.py) and ``spidertour verify`` both rank with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry's results: ``scores[k - 1]`` its final score on deal k (0 when never played)."""

    entry_id: int
    ordinal: int  # 1, 2, 3 ... within the tournament: the earlier entry wins the last tie
    scores: tuple[int, ...]
    time_left: int = 0  # the sum over its deals: the tie-break of "total" after the total


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    entrant: Entrant
    total: int
    matchpoints: float | None  # None when the tournament scores by total


def matchpoints(field: Sequence[Sequence[int]]) -> list[float]:
    """Matchpoints of every entrant: ``field[i][k]`` is entrant i's final score on deal k.

    On each deal an entrant earns 1 for every other entrant whose score it beat and 1/2 for each
    it tied; the result is the sum over the deals (halves are exact in a float).
    """
    points = [0.0] * len(field)
    deals = max((len(row) for row in field), default=0)
    for k in range(deals):
        scores = [row[k] if k < len(row) else 0 for row in field]
        for i, mine in enumerate(scores):
            beaten = sum(1 for s in scores if s < mine)
            tied = sum(1 for s in scores if s == mine) - 1  # not itself
            points[i] += beaten + tied / 2
    return points


def rank(entrants: Sequence[Entrant], scoring: str) -> list[Ranked]:
    """The final ranking. ``total``: the total, then more time left, then the earlier entry.
    ``matchpoints``: the matchpoints, then the total, then the earlier entry."""
    totals = [sum(e.scores) for e in entrants]
    if scoring == "matchpoints":
        mps: list[float | None] = list(matchpoints([e.scores for e in entrants]))
        order = sorted(range(len(entrants)), key=lambda i: (-(mps[i] or 0.0), -totals[i], entrants[i].ordinal))
    else:
        mps = [None] * len(entrants)
        order = sorted(range(len(entrants)), key=lambda i: (-totals[i], -entrants[i].time_left, entrants[i].ordinal))
    return [Ranked(n, entrants[i], totals[i], mps[i]) for n, i in enumerate(order, 1)]
