"""``spidertour verify`` for a tournament of several deals (setting ``deals``): every entry has one
game on each deal, re-scored by the engine like any other; its standing is their total (time left
summed too), ranked by the total or by matchpoints (docs/competitions.md "Several deals")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .matchpoints import Entrant, rank

# verify.py's GameCheck and Check (this module is below it: no import circle)
GameCheck = Any
Check = Any


def deal_count(settings: dict[str, Any]) -> int:
    deals = settings.get("deals", 1)
    return deals if type(deals) is int and deals >= 1 else 1


def by_entry(games: list[GameCheck], deals: int, entrants: Any = None) -> tuple[list[GameCheck], list[str]]:
    """One game per entry adding up its deals (what its standing must show), and what is amiss:
    an entry without a game on some deal, or with two on one; games of fewer or more entries than
    ``entrants`` (when given)."""
    problems = []
    grouped: dict[int, list[GameCheck]] = {}
    for g in games:
        if g.entry_id is not None:
            grouped.setdefault(g.entry_id, []).append(g)
    totals = []
    for entry_id, own in grouped.items():
        got = sorted(g.deal or 0 for g in own)
        if got != list(range(1, deals + 1)):
            problems.append(f"entry {entry_id} has games on deals {got}, not on 1 to {deals} once each")
        scores = [g.recomputed for g in own]
        totals.append(
            replace(
                own[0],
                deal=None,
                moves=sum(g.moves for g in own),
                published=sum(g.published or 0 for g in own),
                recomputed=None if None in scores else sum(s or 0 for s in scores),
                time_left=sum(g.time_left or 0 for g in own),
                problems=[],
                scores={g.deal or 0: g.recomputed or 0 for g in own},
            )
        )
    if entrants is not None and entrants != len(totals):
        problems.append(f"games of {len(totals)} entries for {entrants} entrants")
    return totals, problems


def matchpoint_order(totals: list[GameCheck], deals: int) -> tuple[list[GameCheck], dict[int, float]]:
    """The entries in the order of their matchpoints recomputed from the replays (ties: the total,
    then the earlier entry), and each entry's matchpoints."""
    field = [
        Entrant(g.entry_id or 0, g.entry or 0, tuple(g.scores.get(k, 0) for k in range(1, deals + 1))) for g in totals
    ]
    ranked = rank(field, "matchpoints")
    by_id = {g.entry_id: g for g in totals}
    return [by_id[r.entrant.entry_id] for r in ranked], {r.entrant.entry_id: r.matchpoints or 0.0 for r in ranked}


def matchpoint_checks(
    totals: list[GameCheck], standings: list[dict[str, Any]], deals: int, check: Callable[[str, bool, str], Check]
) -> list[Check]:
    """The standings' matchpoints and order against those recomputed from the replays."""
    order, points = matchpoint_order(totals, deals)
    listed = [s.get("entry_id") for s in standings]
    wrong = [g.entry_id for g, e in zip(order, listed, strict=False) if g.entry_id != e]
    differ = [s.get("entry_id") for s in standings if points.get(s.get("entry_id") or 0) != s.get("matchpoints")]
    return [
        check(
            "ranking",
            not wrong,
            f"out of order from entry {wrong[0]} on"
            if wrong
            else "matchpoints, then the total, then the earlier entry",
        ),
        check(
            "matchpoints",
            not differ,
            f"the standings' matchpoints differ from the replays' for entries {differ}"
            if differ
            else f"{len(points)} entries' matchpoints re-counted from every deal",
        ),
    ]
