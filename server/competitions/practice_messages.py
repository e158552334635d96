"""The messages of practice (a finished tournament's deal played again, unranked) and of a finished
game's analysis (where the win was lost). docs/protocol.md describes them with examples."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from msgspec import Struct

from ..play.messages import ParSummary


class PracticeEntry(Struct):
    """A practice entry: played over the play websocket like an entry, ranked nowhere."""

    id: int
    tournament_id: int
    tournament: str  # the tournament's name
    player_id: int
    player: str
    status: Literal["joined", "playing", "won", "ended", "timed_out", "absent"]
    score: int
    final_score: int | None
    time_left: int | None
    started_at: datetime | None
    deadline: datetime | None
    deal: int | None = None  # with several deals, the deal practised (1 to ``deals``); null with one
    deals: int = 1  # how many deals the tournament had
    practice: bool = True


class Position(Struct):
    """One position of a game: true while a win exists, false when the solver proved none does,
    null when it found none within its budget."""

    winnable: bool | None


class Computing(Struct):
    """The analysis is being worked out: ask again in a moment."""

    status: Literal["computing"] = "computing"


class Analysis(Struct):
    """A finished game's analysis: item 0 the opening position, item i the position after the i-th
    recorded move (undos included, ``end`` not)."""

    positions: list[Position]
    par: ParSummary | None  # the tournament's par, null when it has none (yet)
    # The 1-based number of the first move after which no win was found although one was found just
    # before; null when the game was won or no win was ever found.
    turning_point: int | None
    # How the game stopped while a win still existed from the position it stopped at: "ended" (the
    # player pressed End), "timed_out" (the clock ran out); null otherwise (won, never played, or no
    # win known from its last position).
    stopped_winnable: Literal["ended", "timed_out"] | None = None
    status: Literal["ready"] = "ready"
