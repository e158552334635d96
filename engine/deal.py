"""A deal in the vectors' format of ``deal-vectors.json`` and ``entry-vectors.json`` (DEAL.md)."""

from __future__ import annotations

from typing import Any

from .cards import card_text, ordered_deck
from .game import Game
from .settings import Settings, check_seed
from .shuffle import shuffled


def _text(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def deal_json(settings: Settings, seed: str, entry: int | None = None) -> dict[str, Any]:
    """The whole deal, every card shown: for verification after the finish, never for players.

    With ``settings.deal_variation`` it is entry ``entry``'s renamed deal in ``entry-vectors.json``'s
    format (DEAL.md section 6; ``entry`` required); otherwise the seed's deal with its shuffled deck
    (DEAL.md section 5; ``entry`` ignored).
    """
    rules = settings.rules
    game = Game(settings, seed, entry)
    out: dict[str, Any] = {"variant": settings.variant, "suits": settings.suits, "seed": seed}
    if game.entry is not None:
        out["entry"] = game.entry
        if rules.draw_piles:
            out["draw_pile_choice"] = settings.draw_pile_choice
    else:
        out["shuffled"] = _text(shuffled(ordered_deck(rules.deck_size, settings.suits or 1), check_seed(seed)))
    out["columns"] = [_text(c) for c in game.columns[: rules.columns]]
    if game.piles is not None:
        out["draw_piles"] = [_text(p) for p in game.piles]
    if game.stock is not None:
        out["stock"] = _text(game.stock)
    return out
