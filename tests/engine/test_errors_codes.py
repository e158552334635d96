"""The engine's list of move refusals is the list of codes its moves are refused with."""

from __future__ import annotations

import re
from pathlib import Path

from spidertour.engine import MOVE_REFUSALS

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# IllegalMoveError(<reason>, "code") or BadMoveError(...): the code is the last string argument.
RAISED = re.compile(r"(?:IllegalMoveError|BadMoveError)\((?:[^()]|\([^()]*\))*?,\s*\"([a-z_]+)\"\s*,?\s*\)", re.S)


def test_every_code_a_move_is_refused_with_is_listed() -> None:
    raised = {code for path in ENGINE.rglob("*.py") for code in RAISED.findall(path.read_text())}
    # Not refusals of a move by the rules: the shape of a raw frame or text (the server checks frames
    # before the rules), and a clock that runs backwards (a caller's bug, never a player's move).
    shapes = {"not_an_object", "wrong_type", "not_a_move", "unknown_type", "bad_text", "time_backwards"}
    assert raised - shapes == set(MOVE_REFUSALS)
