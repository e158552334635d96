"""Helpers of the rules tests: positions written in the engine's notation through the ``make``
fixture (conftest.py), with only the cards a test needs placed, and checks of refused moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from spidertour.engine import (
    EngineError,
    Game,
    Settings,
)

SPIDER_RULES = ["spider78", "spider", "huge_spider"]
STOCK_GAMES = ["spider", "huge_spider", "black_widow"]
SPIDER_LIKE = [*SPIDER_RULES, "black_widow"]  # any card or group may go into an empty column
ALL_VARIANTS = [*SPIDER_LIKE, "curds_and_whey"]
FACE_DOWN_GAMES = SPIDER_LIKE  # curds_and_whey deals every card face up

SPADES_K_TO_2 = "KSQSJSTS9S8S7S6S5S4S3S2S"
# One card for each of up to 22 columns, no two alike, none a spade or heart, none a King.
FILLER = [f"{r}{s}" for s in "DC" for r in "23456789TJQ"]
HEARTS_K_TO_2 = "KHQHJHTH9H8H7H6H5H4H3H2H"

Make = Callable[..., Game]


def settings(variant: str, **kw: Any) -> Settings:
    """Every card of the tests is a spade or a heart, so spider78 plays 2 suits, the rest 4."""
    kw.setdefault("suits", 2 if variant == "spider78" else 4)
    return Settings(variant=variant, **kw)


def position(make: Make, variant: str, columns: dict[int, str], **kw: Any) -> Game:
    """A position of ``variant``; curds_and_whey (no reserve) keeps its spare cards in column 12."""
    opts = {k: kw.pop(k) for k in list(kw) if k in Settings.__dataclass_fields__}
    if variant == "curds_and_whey" and "rest" not in kw:
        kw["rest"] = 12
    return make(settings(variant, **opts), columns, **kw)


def col(game: Game, c: int) -> str:
    """Column c as the notation writes it (lower case: face down; "-": empty)."""
    return game.position().split(" ")[0].split("/")[c]


def rejected(game: Game, move: Any, code: str, t: float | None = None) -> EngineError:
    """``move`` is refused with ``code`` and the position is exactly what it was."""
    before = game.position()
    with pytest.raises(EngineError) as info:
        game.play(move, t)
    assert info.value.code == code, info.value.reason
    assert game.position() == before
    return info.value


def free(game: Game) -> int:
    assert game.free_column is not None
    return game.free_column
