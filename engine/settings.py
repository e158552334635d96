"""A game's settings (docs/rules.md "Tournament settings"), with defaults and validation."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .errors import SettingsError, shown
from .variants import VARIANTS, Variant

MAX_TIME_LIMIT = 7 * 24 * 3600
MAX_SEED_LENGTH = 4096
_FIELDS = (
    "variant",
    "suits",
    "free_column",
    "undo",
    "undo_limit",
    "reveals_final",
    "time_limit",
    "draw_pile_choice",
    "draw_pile_tops_up",
    "deal_variation",
)


def _check_bool(name: str, value: Any) -> None:
    if type(value) is not bool:
        raise SettingsError(f"{name} must be true or false, not {shown(value)}")


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if type(value) is not int:
        raise SettingsError(f"{name} must be a whole number, not {shown(value)}")
    if not low <= value <= high:
        raise SettingsError(f"{name} must be between {low} and {high}, not {shown(value)}")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of docs/rules.md. ``suits`` and ``free_column`` default per variant (None here)."""

    variant: str = "spider78"
    suits: int | None = None
    free_column: bool | None = None
    undo: bool = True
    undo_limit: int | None = None
    reveals_final: bool = False  # a revealed card stays revealed: a revealing move is never undone
    time_limit: int = 600
    draw_pile_choice: bool = True
    draw_pile_tops_up: bool = True
    deal_variation: bool = False  # every entry plays the deal renamed (docs/deal.md section 6)
    rules: Variant = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise SettingsError(f"unknown variant {shown(self.variant)}: expected one of {', '.join(VARIANTS)}")
        rules = VARIANTS[self.variant]
        object.__setattr__(self, "rules", rules)
        if self.suits is None:
            object.__setattr__(self, "suits", rules.default_suits)
        if self.free_column is None:
            object.__setattr__(self, "free_column", rules.free_column_default)
        if type(self.suits) is not int or self.suits not in rules.suits_allowed:
            allowed = " or ".join(map(str, rules.suits_allowed))
            raise SettingsError(f"{self.variant} is played with {allowed} suits, not {shown(self.suits)}")
        for name in ("free_column", "undo", "reveals_final", "draw_pile_choice", "draw_pile_tops_up", "deal_variation"):
            _check_bool(name, getattr(self, name))
        if self.undo_limit is not None:
            _check_int("undo_limit", self.undo_limit, 0, 1_000_000)
        time_limit = self.time_limit
        if type(time_limit) is float and math.isfinite(time_limit) and time_limit.is_integer():
            object.__setattr__(self, "time_limit", int(time_limit))
        _check_int("time_limit", self.time_limit, 1, MAX_TIME_LIMIT)

    @classmethod
    def from_json(cls, obj: Any) -> Settings:
        """Settings from a JSON object; absent fields take their defaults, unknown ones are ignored."""
        if not isinstance(obj, dict):
            raise SettingsError("settings must be a JSON object")
        return cls(**{k: obj[k] for k in _FIELDS if k in obj and obj[k] is not None})

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FIELDS}


MAX_ENTRY = 2**53 - 1  # the largest whole number a browser's JavaScript holds exactly


def check_entry(entry: Any) -> int:
    """An entry's ordinal (docs/deal.md section 6): a whole number from 1."""
    if type(entry) is not int:
        raise SettingsError(f"the entry must be a whole number from 1, not {shown(entry)}")
    if not 1 <= entry <= MAX_ENTRY:
        raise SettingsError(f"the entry must be between 1 and {MAX_ENTRY}, not {shown(entry)}")
    return entry


def check_seed(seed: Any) -> str:
    if not isinstance(seed, str):
        raise SettingsError(f"the seed must be a string, not {type(seed).__name__}")
    if len(seed) > MAX_SEED_LENGTH:
        raise SettingsError(f"the seed must be at most {MAX_SEED_LENGTH} characters long")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: docs/deal.md hashes the seed's UTF-8 bytes
        raise SettingsError("the seed must be valid Unicode text (it is hashed as UTF-8)") from None
    return seed
