"""spidertour's rules engine: five games of the Spider family, deals, scores and replays.

Standard library only; no I/O, no clock, no global state. Time enters as numbers passed in.

    >>> from spidertour.engine import Game, Settings, MoveCards, Deal
    >>> game = Game(Settings(variant="spider78", suits=2), seed="abc")
    >>> moves = list(game.legal_moves())
    >>> result = game.play(moves[0], t=1.5)
    >>> game.score, game.over
"""

from .cards import card_text, parse_card
from .deals import Renaming
from .errors import (
    MOVE_REFUSALS,
    BadMoveError,
    EngineError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    SettingsError,
)
from .game import ENDED, TIMED_OUT, WON, Game, Result
from .moves import Deal, End, Move, MoveCards, Undo, move_from_json, move_from_text
from .settings import Settings
from .variants import VARIANTS, Variant

__all__ = [
    "ENDED",
    "MOVE_REFUSALS",
    "TIMED_OUT",
    "VARIANTS",
    "WON",
    "BadMoveError",
    "Deal",
    "End",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "MoveCards",
    "NotationError",
    "Renaming",
    "Result",
    "Settings",
    "SettingsError",
    "Undo",
    "Variant",
    "card_text",
    "move_from_json",
    "move_from_text",
    "parse_card",
]
