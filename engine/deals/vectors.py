"""A deal in the vectors' format of ``deal-vectors.json`` and ``entry-vectors.json`` (docs/deal.md
sections 5 and 6): what ``spidertour deal`` prints."""

from __future__ import annotations

from typing import Any

from ..cards import card_text, ordered_deck
from ..settings import Settings, check_seed
from . import deal
from .shuffle import shuffled


def _text(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def deal_json(settings: Settings, seed: str, entry: int | None = None) -> dict[str, Any]:
    """The whole deal, every card shown: for verification after the finish, never for players.

    With ``settings.deal_variation`` it is entry ``entry``'s renamed deal in ``entry-vectors.json``'s
    format (docs/deal.md section 6; ``entry`` required); otherwise the seed's deal with its shuffled deck
    (docs/deal.md section 5; ``entry`` ignored).
    """
    rules = settings.rules
    layout = deal(settings, seed, entry)
    out: dict[str, Any] = {"variant": settings.variant, "suits": settings.suits, "seed": seed}
    if settings.deal_variation:
        out["entry"] = entry
        if rules.draw_piles:
            out["draw_pile_choice"] = settings.draw_pile_choice
    else:
        out["shuffled"] = _text(shuffled(ordered_deck(rules.deck_size, settings.suits or 1), check_seed(seed)))
    out["columns"] = [_text(c) for c in layout.columns[: rules.columns]]
    if layout.piles is not None:
        out["draw_piles"] = [_text(p) for p in layout.piles]
    if layout.stock is not None:
        out["stock"] = _text(layout.stock)
    return out
