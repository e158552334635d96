"""What the load generator reads of the server's messages (only the fields it needs), and its figures."""

from __future__ import annotations

from array import array
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from spidertour.engine import MOVE_REFUSALS

ROOT = Path(__file__).resolve().parent.parent


ENGINE_CODES = MOVE_REFUSALS
LATE_CODES = {"time_up", "game_over", "not_saved"}


# ---------------------------------------------------------------------------------------- what is read


class Pile(msgspec.Struct):
    count: int


class ViewIn(msgspec.Struct):
    columns: list[list[str]]
    score: int = 0
    over: bool = False
    can_undo: bool = False
    free_column: int | None = None
    draw_piles: list[Pile] | None = None
    stock: int | None = None
    final_score: int | None = None


class FieldsIn(msgspec.Struct):
    score: int = 0
    over: bool = False
    can_undo: bool = False
    draw_piles: list[Pile] | None = None
    stock: int | None = None
    final_score: int | None = None


class StateIn(msgspec.Struct, tag="state"):
    status: str
    last_seq: int = 0
    view: ViewIn | None = None


class ResultIn(msgspec.Struct, tag="result"):
    seq: int
    view: ViewIn | None = None  # the whole view (older servers)
    changed: list[int] = []
    columns: list[list[str]] = []  # the changed columns (newer servers)
    fields: FieldsIn | None = None


class OverIn(msgspec.Struct, tag="over"):
    outcome: str


class ErrorIn(msgspec.Struct, tag="error"):
    code: str
    seq: int | None = None


class PongIn(msgspec.Struct, tag="pong"):
    pass


play_decode = msgspec.json.Decoder(StateIn | ResultIn | OverIn | ErrorIn | PongIn).decode


class RowIn(msgspec.Struct):
    entry_id: int
    score: int


class WatchIn(msgspec.Struct):
    at: float = 0.0
    changed: list[RowIn] = []


watch_decode = msgspec.json.Decoder(WatchIn).decode


# ---------------------------------------------------------------------------------------- figures


class Window:
    """What one measured period collects."""

    def __init__(self) -> None:
        self.acks = 0
        self.latency = array("d")  # seconds from the planned send to the answer
        self.errors: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.late: Counter[str] = Counter()
        self.feed_lag = array("d")  # update received - its "at"
        self.ack_lag = array("d")  # an acknowledged score change -> the first update showing it
        self.updates = 0
        self.update_bytes = 0
        self.scored = 0  # acknowledged moves that changed the score the leaderboard shows


def percentile(values: Any, q: float) -> float | None:
    if not len(values):
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))
    return float(ordered[int(k)])


def ms(v: float | None) -> float | None:
    return None if v is None else round(v * 1000, 2)
