"""Moves as immutable values, their JSON form (docs/rules.md) and a short text form.

JSON form (exactly the rules'):      text form:
    {"type": "move", "from": c, "count": k, "to": d}     "c:k>d"  (or "c>d" when k is 1)
    {"type": "deal", "pile": p}                           "d2"
    {"type": "deal"}                                      "d"
    {"type": "undo"}                                      "u"
    {"type": "end"}                                       "end"
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .errors import BadMoveError, shown

# Far above any real column, pile or count, small enough that nothing is ever allocated for it.
MAX_INDEX = 1_000


class MoveCards(NamedTuple):
    """Move the last ``count`` cards of column ``src`` onto column ``dst``."""

    src: int
    count: int  # type: ignore[assignment]  # the rules' name for it; it hides tuple.count, unused on a move
    dst: int
    type: str = "move"

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", "from": self.src, "count": self.count, "to": self.dst}

    def __str__(self) -> str:
        if self.count == 1:
            return f"{self.src}>{self.dst}"
        return f"{self.src}:{self.count}>{self.dst}"


class Deal(NamedTuple):
    """Deal draw pile ``pile`` (78-card game), or the next row / pile when ``pile`` is None."""

    pile: int | None = None
    type: str = "deal"

    def to_json(self) -> dict[str, Any]:
        return {"type": "deal"} if self.pile is None else {"type": "deal", "pile": self.pile}

    def __str__(self) -> str:
        return "d" if self.pile is None else f"d{self.pile}"


class Undo(NamedTuple):
    """Take back the last undoable move."""

    type: str = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": "undo"}

    def __str__(self) -> str:
        return "u"


class End(NamedTuple):
    """End the game now (the End button)."""

    type: str = "end"

    def to_json(self) -> dict[str, Any]:
        return {"type": "end"}

    def __str__(self) -> str:
        return "end"


Move = MoveCards | Deal | Undo | End

MOVE_TYPES = ("move", "deal", "undo", "end")


def _index(obj: dict[str, Any], field: str) -> int:
    if field not in obj:
        raise BadMoveError(f"a {obj['type']!r} move needs the field {field!r}", "missing_field")
    value = obj[field]
    if type(value) is not int:  # refuses bool, float and str alike
        raise BadMoveError(f"{field!r} must be a whole number, not {shown(value)}", "wrong_type")
    if not 0 <= value <= MAX_INDEX:
        raise BadMoveError(f"{field!r} is out of range: {shown(value)}", "out_of_range")
    return value


_new = tuple.__new__  # builds a move without its NamedTuple's Python-level __new__


def move_from_json(obj: Any) -> Move:
    """Read one move in the rules' JSON form (a parsed object). Extra fields are ignored.

    Raises BadMoveError (never anything else) for anything that is not a well-formed move.
    """
    # The usual case, a well-formed card move, checked all at once (replays read thousands).
    if type(obj) is dict and obj.get("type") == "move":
        src = obj.get("from")
        count = obj.get("count")
        dst = obj.get("to")
        if (
            type(src) is int
            and type(count) is int
            and type(dst) is int
            and 0 <= src <= MAX_INDEX
            and 1 <= count <= MAX_INDEX
            and 0 <= dst <= MAX_INDEX
        ):
            return _new(MoveCards, (src, count, dst, "move"))
    return _careful_move_from_json(obj)


def _careful_move_from_json(obj: Any) -> Move:
    """move_from_json, field by field, to say exactly what is wrong."""
    if not isinstance(obj, dict):
        raise BadMoveError("a move must be a JSON object", "not_an_object")
    kind = obj.get("type")
    if kind == "move":
        src = _index(obj, "from")
        count = _index(obj, "count")
        dst = _index(obj, "to")
        if count < 1:
            raise BadMoveError("'count' must be at least 1", "out_of_range")
        return MoveCards(src, count, dst)
    if kind == "deal":
        if obj.get("pile") is None:
            return Deal()
        return Deal(_index(obj, "pile"))
    if kind == "undo":
        return Undo()
    if kind == "end":
        return End()
    if "type" not in obj:
        raise BadMoveError("a move needs a 'type'", "missing_field")
    raise BadMoveError(f"unknown move type {shown(kind, 40)}: expected one of {', '.join(MOVE_TYPES)}", "unknown_type")


_TEXT = re.compile(r"^(?:(\d{1,4})(?::(\d{1,4}))?>(\d{1,4})|d(\d{1,4})?|u|end)$")


def move_from_text(text: str) -> Move:
    """Read the short text form (``"3>5"``, ``"0:4>8"``, ``"d2"``, ``"d"``, ``"u"``, ``"end"``)."""
    m = _TEXT.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise BadMoveError(f"not a move: {shown(text)}", "bad_text")
    src, count, dst, pile = m.groups()
    if src is not None:
        return MoveCards(int(src), int(count or 1), int(dst))
    if text.strip().startswith("d"):
        return Deal(None if pile is None else int(pile))
    return Undo() if text.strip() == "u" else End()
