"""Typed errors. Each carries a stable ``code`` (for programs) and a ``reason`` (for people)."""

from __future__ import annotations

import reprlib


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(self, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "reason": self.reason}


class SettingsError(EngineError):
    """Settings that no game allows (an unknown variant, 4 suits in spider78, ...)."""

    code = "bad_settings"


class BadMoveError(EngineError):
    """A move that is not well formed: wrong type, missing field, number out of range."""

    code = "bad_move"


#: Every code a move can be refused with by ``Game.play``: the rules (``IllegalMoveError``) and a
#: well-formed but impossible field (``BadMoveError``). Clients group their answers by it.
MOVE_REFUSALS = frozenset(
    {
        "out_of_range",
        "same_column",
        "empty_column",
        "face_down",
        "not_a_group",
        "cannot_place",
        "king_only",
        "missing_field",
        "no_piles",
        "wrong_pile",
        "pile_empty",
        "stock_empty",
        "nothing_to_deal",
        "undo_off",
        "undo_limit",
        "nothing_to_undo",
        "reveals_final",
    }
)


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position."""

    code = "illegal_move"


class GameOverError(EngineError):
    """Any move after the game has ended (won, ended by the player, or out of time)."""

    code = "game_over"


class NotationError(EngineError):
    """Position text that cannot be read."""

    code = "bad_notation"


def shown(value: object, width: int = 60) -> str:
    """A short, safe repr of any value for an error message (huge or deeply nested ones too)."""
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError, OverflowError):  # e.g. an int too long to print
        text = f"a {type(value).__name__}"
    return text if len(text) <= width else text[: width - 3] + "..."


_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40
