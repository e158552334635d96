"""The series' points rule and table, worked out from the final standings alone (no I/O): the same
results always give the same table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FIELD = "field"


@dataclass(frozen=True)
class Result:
    """One entry of a finished tournament in the series: its rank among ``ranked`` ranked entrants,
    or None when it was disqualified (it scores 0, and counts as played)."""

    player_id: int
    tournament_id: int
    rank: int | None
    ranked: int


@dataclass(frozen=True)
class Line:
    player_id: int
    points: int
    counted: int
    played: int
    best_rank: int | None


def result_points(rule: str | Sequence[int], rank: int | None, ranked: int) -> int:
    """The points of one result: "field" gives ranked - rank + 1, a list its rank-th number (0 past
    its end); a disqualified result (rank None) scores 0."""
    if rank is None:
        return 0
    if rule == FIELD:
        return max(0, ranked - rank + 1)
    assert not isinstance(rule, str), rule
    return rule[rank - 1] if rank <= len(rule) else 0


def table(rule: str | Sequence[int], best_of: int | None, results: Iterable[Result]) -> list[Line]:
    """Every player's line, in the table's order: more points first, then the better best rank
    (a player never ranked comes after), then more tournaments played, then the smaller player id."""
    by_player: dict[int, list[Result]] = {}
    for result in results:
        by_player.setdefault(result.player_id, []).append(result)
    lines = []
    for player_id, own in by_player.items():
        scores = sorted((result_points(rule, r.rank, r.ranked) for r in own), reverse=True)
        counted = scores if best_of is None else scores[:best_of]
        ranks = [r.rank for r in own if r.rank is not None]
        lines.append(Line(player_id, sum(counted), len(counted), len(own), min(ranks) if ranks else None))
    return sorted(lines, key=order)


def order(line: Line) -> tuple[int, float, int, int]:
    best = float("inf") if line.best_rank is None else float(line.best_rank)
    return (-line.points, best, -line.played, line.player_id)
