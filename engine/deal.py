"""A deal in the vectors' format of ``deal-vectors.json`` (DEAL.md section 5)."""

from __future__ import annotations

from typing import Any

from .cards import card_text, ordered_deck
from .game import Game
from .settings import Settings, check_seed
from .shuffle import shuffled


def _text(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def deal_json(settings: Settings, seed: str) -> dict[str, Any]:
    """The whole deal, every card shown: for verification after the finish, never for players."""
    rules = settings.rules
    deck = shuffled(ordered_deck(rules.deck_size, settings.suits or 1), check_seed(seed))
    game = Game(settings, seed)
    out: dict[str, Any] = {
        "variant": settings.variant,
        "suits": settings.suits,
        "seed": seed,
        "shuffled": _text(deck),
        "columns": [_text(c) for c in game.columns[: rules.columns]],
    }
    if game.piles is not None:
        out["draw_piles"] = [_text(p) for p in game.piles]
    if game.stock is not None:
        out["stock"] = _text(game.stock)
    return out
