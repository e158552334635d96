"""What the solver returns, and the engine's check of every line it returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game import WON, Game
from ..moves import Deal, Move, MoveCards

# Seconds a move that a strong human can keep up over a whole game: the pace a tournament's par is
# played at (docs/rules.md "Par"). A line too long for the time limit at this pace is scored as the
# engine replays it at this pace: the game the clock ends, with no time bonus.
HUMAN_PACE = 2.0


@dataclass(slots=True)
class Solution:
    """A winning line and its score, or what the search explored when it found none."""

    won: bool
    moves: list[Move] = field(default_factory=list)  # docs/rules.md moves, empty when not won
    pace: float = HUMAN_PACE  # seconds per move the score assumes
    final_score: int | None = None  # the line's final score at that pace (None when not won)
    in_time: bool = False  # the line, at that pace, ends before the time limit
    free_column_used: bool = False
    nodes: int = 0  # positions expanded
    positions: int = 0  # distinct positions reached
    max_depth: int = 0  # the longest line explored, in moves
    exhausted: bool = False  # every reachable position seen and no win: the deal is proven lost
    stopped: str | None = None  # "nodes" or "time" when the budget ran out first
    seconds: float | None = None  # search time, when a clock was given
    # Each part of the search that ran ("best-first", "beam", "every move"): positions expanded
    # and seconds by the clock (0 without one).
    parts: dict[str, tuple[int, float]] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        if self.won:
            return "won"
        return "proven lost" if self.exhausted else "not found within budget"

    def moves_json(self) -> list[dict[str, Any]]:
        """The line as docs/replay.md's moves: moves of docs/rules.md, each with its time ``t`` at the pace."""
        return [{**m.to_json(), "t": round((i + 1) * self.pace, 6)} for i, m in enumerate(self.moves)]

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "won": self.won,
            "moves": len(self.moves),
            "pace": self.pace,
            "final_score": self.final_score,
            "in_time": self.in_time,
            "free_column_used": self.free_column_used,
            "nodes": self.nodes,
            "positions": self.positions,
            "max_depth": self.max_depth,
            "exhausted": self.exhausted,
            "stopped": self.stopped,
        }
        if self.seconds is not None:
            out["seconds"] = round(self.seconds, 3)
        return out


class LineError(AssertionError):
    """A line the solver found does not win when the engine plays it: a solver bug."""


def replay_line(start: Game, moves: list[Move], pace: float) -> Game:
    """Play ``moves`` on a copy of ``start`` with the real engine, move i at ``(i + 1) * pace``."""
    game = start.copy()
    limit = game.settings.time_limit
    for i, move in enumerate(moves):
        t = (i + 1) * pace
        if t >= limit:  # too slow for the clock: the game ends by time, as docs/replay.md says
            game.tick(t)
            break
        game.play(move, t)
    return game


def cut_at_time_limit(moves: list[dict[str, Any]], time_limit: float) -> list[dict[str, Any]]:
    """A timed line (docs/replay.md moves, each with ``t``) as far as the clock lets it be played: the
    moves before ``time_limit`` and, when the clock ends it first, ``{"type": "end", "t": time_limit}``,
    as the server publishes any game the clock ended. Its replay scores what ``replay_line`` does."""
    kept = [m for m in moves if m.get("t", 0) < time_limit]
    if len(kept) < len(moves):
        kept.append({"type": "end", "t": time_limit})
    return kept


def check_wins(start: Game, moves: list[Move]) -> None:
    """Raise LineError unless the engine, playing ``moves`` from ``start``, wins on the last one."""
    game = start.copy()
    for i, move in enumerate(moves):
        if game.over:
            raise LineError(f"the game was over before move {i + 1} of {len(moves)}")
        game.play(move)
    if game.outcome != WON:
        raise LineError(f"the line of {len(moves)} moves does not win (outcome {game.outcome})")


def engine_move(move: tuple[int, int, int], pile_choice: bool) -> Move:
    src, count, dst = move
    if src < 0:
        return Deal(count if pile_choice and count >= 0 else None)
    return MoveCards(src, count, dst)
