"""Points and outcomes (docs/rules.md "Scoring"), and what an accepted move changed."""

from __future__ import annotations

from typing import NamedTuple

WON = "won"
ENDED = "ended"
TIMED_OUT = "timed_out"
OUTCOMES = (WON, ENDED, TIMED_OUT)

SEQUENCE = 13  # cards in a completed sequence, King down to Ace
REVEAL_POINTS = 25
SEQUENCE_POINTS = 100
FREE_COLUMN_BONUS = 100


class Result(NamedTuple):
    """What an accepted move changed: the columns it touched, cards it turned, sequences it removed."""

    changed: tuple[int, ...]
    revealed: int = 0
    completed: int = 0
