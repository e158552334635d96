"""How far a position looks from a win: a cost the search drives down (lower is better).

The cost is a sum over columns plus a term for the reserve, so a move's cost is worked out from
the two columns it changes. What it rewards is what Spider players aim for: turn face-down cards,
build runs in suit, keep columns empty, and deal only when the columns have nothing better.
"""

from __future__ import annotations

from ..cards import KING
from .position import DOWN

HIDDEN = 12  # a face-down card still to uncover
BREAK = 5  # face-up neighbours that cannot move together and are not even one rank apart
OFF_SUIT = 3  # one rank apart but of different suits: right order, wrong suit
CARD = 1  # a card still in play (a sequence removed takes 13 away)
EMPTY = -3  # an empty column: room to rearrange
RESERVE = 6  # a card still in the reserve: it must be dealt and sorted
FREE_CARD = 1  # a card waiting in the free column (using it costs the free-column bonus)


def column_cost(col: tuple[int, ...]) -> int:
    """The cost of one dealt column."""
    n = len(col)
    if not n:
        return EMPTY
    cost = CARD * n
    i = 0
    while i < n and col[i] >= DOWN:
        i += 1
    cost += HIDDEN * i  # face-down cards, all below the face-up ones
    prev = col[i]
    for j in range(i + 1, n):
        c = col[j]
        if c != prev - 1:
            cost += OFF_SUIT if (c & 15) == (prev & 15) - 1 else BREAK
        prev = c
    return cost


def column_cost_no_empty(col: tuple[int, ...]) -> int:
    """column_cost without the bonus of an empty column (stock games, whose deals fill them)."""
    return column_cost(col) if col else 0


def free_cost(col: tuple[int, ...]) -> int:
    """The cost of the free column: a little for each card waiting there."""
    return column_cost(col) - EMPTY + FREE_CARD * len(col) if col else 0


# The beam search's cost for the Spider rules: disorder first, readiness second.
DISORDER = 32  # a card that does not continue a same-suit run from the card under it


def disorder_cost(col: tuple[int, ...]) -> int:
    """The beam's cost of one dealt column (Spider rules).

    ``DISORDER`` for each card that does not continue a same-suit run from the card under it:
    the bottom card, every face-down card, every break (one fewer when a King is at the bottom:
    that card never has to move). Within equal disorder, a longer run on top (ready to move) and
    fewer cards (sequences removed) are better. An empty column counts as one card less disorder.
    Every face-down card and every break weigh the same: the order of the positions it gives
    wins far more four-suit deals in a beam than ``column_cost``'s weights.
    """
    n = len(col)
    if not n:
        return -DISORDER - 1
    links = 0
    prev = col[0]
    for j in range(1, n):
        c = col[j]
        if c < DOWN and c == prev - 1:  # face up, same suit, one rank lower than a face-up card
            links += 1
        prev = c
    disorder = n - links - ((col[0] & 15) == KING)
    i = n - 1
    while i and col[i - 1] == col[i] + 1:
        i -= 1
    return DISORDER * disorder - (n - i) + n


def disorder_cost_no_empty(col: tuple[int, ...]) -> int:
    """disorder_cost without the bonus of an empty column (stock games, whose deals fill them)."""
    return disorder_cost(col) if col else 0
