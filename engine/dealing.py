"""A shuffled deck laid out for play, exactly as DEAL.md section 4 says: columns row by row, then
the reserve (draw piles, or the stock)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .cards import Card
from .variants import Variant


class Layout(NamedTuple):
    """Where every card of a fresh deal lies."""

    columns: list[list[Card]]  # the dealt columns, deepest card first
    down: list[int]  # how many cards at the start of each column are face down
    piles: list[list[Card]] | None  # spider78's draw piles (None for games without)
    stock: list[Card] | None  # the stock of the stock games (None for games without)


@lru_cache(maxsize=16)
def deal_order(layout: tuple[int, ...]) -> tuple[int, ...]:
    """The column each card of the deal goes to, in deck order (DEAL.md section 4, step 1)."""
    return tuple(c for row in range(max(layout)) for c, height in enumerate(layout) if height > row)


def lay_out(rules: Variant, deck: list[Card]) -> Layout:
    """Deal ``deck`` (shuffled) onto the game's columns row by row; the rest is the reserve."""
    layout = rules.layout
    order = deal_order(layout)
    columns: list[list[Card]] = [[] for _ in layout]
    for c, card in zip(order, deck, strict=False):  # the rest of the deck is the reserve
        columns[c].append(card)
    down = [0 if rules.all_face_up else height - 1 for height in layout]
    pos = len(order)
    width = rules.columns
    piles = None
    if rules.draw_piles:
        piles = [deck[pos + p * width : pos + (p + 1) * width] for p in range(rules.draw_piles)]
        pos += rules.draw_piles * width
    stock = deck[pos:] if rules.has_stock else None
    return Layout(columns, down, piles, stock)
