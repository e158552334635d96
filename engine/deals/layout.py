"""A shuffled deck laid out for play, exactly as docs/deal.md section 4 says: columns row by row, then
the reserve (draw piles, or the stock)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..cards import Card
from ..settings import Settings


@dataclass(slots=True)
class Layout:
    """Where every card of a fresh deal lies (the free column, if any, empty at the end)."""

    settings: Settings
    columns: list[list[Card]]  # every column, deepest card first
    down: list[int]  # how many cards at the start of each column are face down
    piles: list[list[Card]] | None  # spider78's draw piles, top card first (None for games without)
    stock: list[Card] | None  # the stock of the stock games, next card first (None for games without)

    def rename_history(self, column: Callable[[int], int]) -> None:
        """A fresh deal has no moves to renumber (``Renaming.apply`` asks every game)."""


@lru_cache(maxsize=16)
def deal_order(layout: tuple[int, ...]) -> tuple[int, ...]:
    """The column each card of the deal goes to, in deck order (docs/deal.md section 4, step 1)."""
    return tuple(c for row in range(max(layout)) for c, height in enumerate(layout) if height > row)


def lay_out(settings: Settings, deck: list[Card]) -> Layout:
    """Deal ``deck`` (shuffled) onto the game's columns row by row; the rest is the reserve."""
    rules = settings.rules
    layout = rules.layout
    width = rules.columns + (1 if settings.free_column else 0)
    columns: list[list[Card]] = [[] for _ in range(width)]
    for c, card in zip(deal_order(layout), deck, strict=False):  # the rest of the deck is the reserve
        columns[c].append(card)
    down = [0 if rules.all_face_up else height - 1 for height in layout] + [0] * (width - len(layout))
    pos = sum(layout)
    dealt = rules.columns
    piles = None
    if rules.draw_piles:
        piles = [deck[pos + p * dealt : pos + (p + 1) * dealt] for p in range(rules.draw_piles)]
        pos += rules.draw_piles * dealt
    stock = deck[pos:] if rules.has_stock else None
    return Layout(settings, columns, down, piles, stock)
