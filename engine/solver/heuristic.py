"""How far a position looks from a win: a cost the search drives down (lower is better).

The cost is a sum over columns plus a term for the reserve, so a move's cost is worked out from
the two columns it changes. What it rewards is what Spider players aim for: turn face-down cards,
build runs in suit, keep columns empty, and deal only when the columns have nothing better.
"""

from __future__ import annotations

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
