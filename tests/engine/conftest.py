"""Helpers for the engine's tests: positions built from the few cards a test cares about.

``build(settings, {0: "ks9S8S", 3: "TH"})`` writes a position in the engine's notation (see
``engine.notation``): the named columns hold exactly those cards (lower case: face down), every
other column is empty, and the cards of the deck nobody named go to the reserve (draw piles or
stock) or, with ``rest=c``, face down at the bottom of column ``c`` (the last one face up if
nothing else is there). Removed sequences
(``sequences=k``) take k whole King-to-Ace suits out of those left-over cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from spidertour.engine import Game, Settings
from spidertour.engine.cards import card_text, ordered_deck, parse_card


def _cards_of(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)] if text != "-" else []


def build(
    settings: Settings,
    columns: dict[int, str] | None = None,
    *,
    piles: list[str] | None = None,
    stock: str | None = None,
    rest: int | None = None,
    sequences: int = 0,
    reveals: int = 0,
    free_used: bool = False,
    undos: int = 0,
    state: str = "play",
) -> Game:
    rules = settings.rules
    width = rules.columns + (1 if settings.free_column else 0)
    cols = ["-"] * width
    for c, text in (columns or {}).items():
        cols[c] = text
    named = Counter(parse_card(p) for text in cols for p in _cards_of(text))
    for text in [*(piles or []), stock or "-"]:
        named.update(parse_card(p) for p in _cards_of(text))
    left = Counter(ordered_deck(rules.deck_size, settings.suits or 1)) - named
    for _ in range(sequences):
        suit = next((s for s in range(4) if all(left[s * 16 + r] > 0 for r in range(13))), None)
        assert suit is not None, "no whole suit left over to count as a removed sequence"
        left.subtract(suit * 16 + r for r in range(13))
    leftover = sorted(left.elements())
    if rest is not None:
        under = "".join(card_text(c).lower() for c in leftover)
        # On an empty column the last left-over card is its exposed card, face up.
        cols[rest] = under + cols[rest] if cols[rest] != "-" else under[:-2] + under[-2:].upper()
        leftover = []
    if rules.draw_piles:
        if piles is None:
            chunks = [leftover[i :: rules.draw_piles] for i in range(rules.draw_piles)]
            piles = ["".join(card_text(c) for c in chunk) or "-" for chunk in chunks]
            leftover = []
        reserve = "p:" + ",".join(p or "-" for p in piles)
    elif rules.has_stock:
        if stock is None:
            stock = "".join(card_text(c) for c in leftover) or "-"
            leftover = []
        reserve = "s:" + stock
    else:
        reserve = "-"
    assert not leftover, f"{len(leftover)} cards have no place: pass rest=<column>"
    text = f"{'/'.join(cols)} {reserve} {reveals} {sequences} {int(free_used)} {undos} {state}"
    return Game.from_position(settings, text)


@pytest.fixture(scope="session")
def make() -> Callable[..., Game]:
    return build
