"""What a player may see of a game: face-down cards as "??", draw-pile tops only when shown.

``Game.view()``, ``Game.column_view()`` and ``Game.view_fields()`` are these functions; the server
sends a whole view when a game (re)starts and, after a move, only the columns it changed and the
fields a move may change.
"""

from __future__ import annotations

from typing import Any, Protocol

from .cards import CARD_TEXTS, HIDDEN, card_text
from .notation import Positioned
from .settings import Settings


class Viewable(Positioned, Protocol):
    """What a view reads of a game (a ``Game`` is one): a position, its settings and its scores."""

    @property
    def settings(self) -> Settings: ...
    @property
    def score(self) -> int: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def free_column(self) -> int | None: ...
    @property
    def time_bonus(self) -> int: ...
    @property
    def free_column_bonus(self) -> int: ...
    @property
    def final_score(self) -> int | None: ...


def view(game: Viewable) -> dict[str, Any]:
    """The whole view: the game, its columns as the player sees them, and every field."""
    out: dict[str, Any] = {
        "variant": game.settings.variant,
        "columns": [column_view(game, i) for i in range(len(game.columns))],
        "free_column": game.free_column,
    }
    for key, value in view_fields(game).items():
        out[key] = value
        if key == "sequences":
            out["sequences_to_win"] = game.settings.rules.sequences_to_win
    return out


def column_view(game: Viewable, index: int) -> list[str]:
    """One column as the view shows it."""
    d = game.down[index]
    texts = CARD_TEXTS
    return [HIDDEN] * d + [texts[c] for c in game.columns[index][d:]]


def view_fields(game: Viewable, piles: bool = True) -> dict[str, Any]:
    """The fields of the view that a move may change, all but the columns (``piles``: with the draw piles)."""
    out: dict[str, Any] = {
        "score": game.score,
        "sequences": game.sequences,
        "reveals": game.reveals,
        "over": game.outcome is not None,
        "outcome": game.outcome,
        "free_column_used": game.free_used,
        "can_undo": game.can_undo,
        "undos_used": game.undos_used,
    }
    if game.piles is not None and piles:
        show = game.settings.draw_pile_tops_up
        out["draw_piles"] = [{"count": len(p), "top": card_text(p[0]) if p and show else None} for p in game.piles]
    if game.stock is not None:
        out["stock"] = len(game.stock)
        out["deals_left"] = len(game.stock) // game.settings.rules.columns
    if game.outcome is not None:
        out["time_left"] = game.time_left
        out["time_bonus"] = game.time_bonus
        out["free_column_bonus"] = game.free_column_bonus
        out["final_score"] = game.final_score
    return out
