"""Choosing a move from what a player sees: the view the server sends, face-down cards as "??".

A bot never sees the deal. It keeps the last view (``state`` or ``result``) and lists the moves
that the rules of docs/rules.md allow on it, the way a person looking at the board would. Cards are
small integers as in the engine (``suit * 16 + rank``, rank 0 = Ace ... 12 = King), so that a
card is one rank below and of the same suit as another exactly when ``lower == upper - 1``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "SHDC"
HIDDEN = -1
KING = 12
CARDS: dict[str, int] = {r + s: si * 16 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}
CARDS["??"] = HIDDEN

Move = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ViewRules:
    """The few facts about a game that a view does not carry itself."""

    group: str  # "suit_run", "rank_run" or "suit_run_or_same_rank"
    accepts: str  # "one_rank_higher" or "suit_higher_or_same_rank"
    king_only: bool  # an empty dealt column takes only a King
    deal_onto_empty: bool
    draw_pile_choice: bool = True
    undo: bool = True

    @classmethod
    def of(cls, settings: dict[str, Any]) -> ViewRules:
        """From a tournament's ``settings`` (as ``GET /api/tournaments/{id}`` shows them)."""
        variant = settings.get("variant", "spider78")
        choice = bool(settings.get("draw_pile_choice", True))
        undo = bool(settings.get("undo", True))
        if variant in ("spider78", "spider", "huge_spider"):
            return cls("suit_run", "one_rank_higher", False, variant == "spider78", choice, undo)
        if variant == "black_widow":
            return cls("rank_run", "one_rank_higher", False, False, choice, undo)
        if variant == "curds_and_whey":
            return cls("suit_run_or_same_rank", "suit_higher_or_same_rank", True, False, choice, undo)
        raise ValueError(f"unknown variant {variant!r}")


def apply_result(view: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The view after a ``result`` message: changed columns replaced, the other fields merged."""
    columns = list(view["columns"])
    for i, cards in zip(result["changed"], result["columns"], strict=True):
        columns[i] = cards
    return {**view, **result["fields"], "columns": columns}


def parse_columns(view: dict[str, Any]) -> list[list[int]]:
    return [[CARDS[c] for c in col] for col in view["columns"]]


def _suit_run(col: list[int], up: int) -> int:
    n = 1 if up else 0
    i = len(col) - 1
    while n < up and col[i - 1] == col[i] + 1:
        n += 1
        i -= 1
    return n


def _rank_run(col: list[int], up: int) -> int:
    n = 1 if up else 0
    i = len(col) - 1
    while n < up and (col[i - 1] & 15) == (col[i] & 15) + 1:
        n += 1
        i -= 1
    return n


def _suit_or_rank(col: list[int], up: int) -> int:
    if up < 2:
        return up
    if col[-2] == col[-1] + 1:
        return _suit_run(col, up)
    n, i, rank = 1, len(col) - 1, col[-1] & 15
    while n < up and (col[i - 1] & 15) == rank:
        n += 1
        i -= 1
    return n


_GROUPS = {"suit_run": _suit_run, "rank_run": _rank_run, "suit_run_or_same_rank": _suit_or_rank}


def face_up(col: list[int]) -> int:
    """How many cards at the end of a column are face up."""
    n = 0
    for c in reversed(col):
        if c == HIDDEN:
            break
        n += 1
    return n


def _accepts(rule: str, top: int, first: int) -> bool:
    if rule == "one_rank_higher":
        return (top & 15) == (first & 15) + 1
    return top == first + 1 or (top & 15) == (first & 15)


def card_moves(view: dict[str, Any], rules: ViewRules, cols: list[list[int]] | None = None) -> list[Move]:
    """Every card move the rules allow on this view."""
    if view.get("over"):
        return []
    cols = parse_columns(view) if cols is None else cols
    free = view.get("free_column")
    dealt = len(cols) - (0 if free is None else 1)
    group = _GROUPS[rules.group]
    tops = [col[-1] if col else None for col in cols]
    moves: list[Move] = []
    for src, col in enumerate(cols):
        up = face_up(col)
        if not up:
            continue
        for count in range(1, group(col, up) + 1):
            first = col[-count]
            for dst, top in enumerate(tops):
                if dst == src:
                    continue
                if top is None:
                    if rules.king_only and dst < dealt and (first & 15) != KING:
                        continue
                    moves.append({"type": "move", "from": src, "count": count, "to": dst})
                elif top != HIDDEN and _accepts(rules.accepts, top, first):
                    moves.append({"type": "move", "from": src, "count": count, "to": dst})
    return moves


def deal_moves(view: dict[str, Any], rules: ViewRules) -> list[Move]:
    """The deals the rules allow on this view."""
    if view.get("over"):
        return []
    piles = view.get("draw_piles")
    if piles is not None:
        if rules.draw_pile_choice:
            return [{"type": "deal", "pile": p} for p, pile in enumerate(piles) if pile["count"]]
        return [{"type": "deal"}] if any(pile["count"] for pile in piles) else []
    stock = view.get("stock")
    if stock:
        free = view.get("free_column")
        dealt = view["columns"] if free is None else [c for i, c in enumerate(view["columns"]) if i != free]
        if rules.deal_onto_empty or all(dealt):
            return [{"type": "deal"}]
    return []


def legal_moves(view: dict[str, Any], rules: ViewRules) -> list[Move]:
    """Card moves and deals (an undo when the view allows one is left to the policies)."""
    return card_moves(view, rules) + deal_moves(view, rules)


def choose_random(view: dict[str, Any], rules: ViewRules, rng: random.Random) -> Move:
    """A random legal move; a deal or an undo now and then; ``end`` when nothing else is left."""
    moves = card_moves(view, rules)
    deals = deal_moves(view, rules)
    if view.get("can_undo") and rules.undo and rng.random() < 0.05:
        return {"type": "undo"}
    if deals and (not moves or rng.random() < 0.03):
        return rng.choice(deals)
    if moves:
        return rng.choice(moves)
    if view.get("can_undo") and rules.undo:
        return {"type": "undo"}
    return {"type": "end"}


def _score(move: Move, cols: list[list[int]], free: int | None) -> float:
    src, count, dst = move["from"], move["count"], move["to"]
    col, target = cols[src], cols[dst]
    first = col[-count]
    below = col[-count - 1] if len(col) > count else None
    score = 0.0
    if below == HIDDEN:
        score += 100  # turns a card face up
    elif below is None:
        score += 10 if target else -5  # empties a column (pointless into another empty one)
    if target:
        if target[-1] == first + 1:
            score += 50  # builds a same-suit run
            if below is not None and below == first + 1:
                score -= 60  # it already sat on its same-suit card: no progress
        elif below is not None and below == first + 1:
            score -= 40  # breaks a same-suit pair for nothing better
        score += count  # longer groups first
    else:
        score -= 20 if dst == free else 15  # keep empty columns for later
    return score


def choose_greedy(view: dict[str, Any], rules: ViewRules, rng: random.Random) -> Move:
    """Reveal cards and build same-suit runs; deal when nothing useful is left; keep going."""
    cols = parse_columns(view)
    moves = card_moves(view, rules, cols)
    free = view.get("free_column")
    best: list[Move] = []
    top = 0.0
    for move in moves:
        s = _score(move, cols, free)
        if s > top:
            best, top = [move], s
        elif s == top and s > 0:
            best.append(move)
    if best:
        return rng.choice(best)
    deals = deal_moves(view, rules)
    if deals:
        # The pile whose top card goes best on column 0 is unknown in general: take the fullest first.
        return deals[0] if not rules.draw_pile_choice else rng.choice(deals)
    if moves:
        return rng.choice(moves)  # nothing useful: shuffle a card to keep the clock busy
    if view.get("can_undo") and rules.undo:
        return {"type": "undo"}
    return {"type": "end"}


POLICIES = {"random": choose_random, "greedy": choose_greedy}
