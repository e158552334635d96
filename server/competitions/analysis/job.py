"""Where a game's win was lost: the solver's verdict on every position of a recorded game.

Run in the solver's worker process (``analyse``), CPU-bound, within a budget per position and in
all. Few positions are searched; the others follow from them:

- a position from which a winnable one is reached by a recorded move (not an undo) is winnable too,
  and one reached from a position proven lost is lost too; equal positions (an undo returns to an
  earlier one) share their verdict;
- a win found from a position is a line: while the player's next moves are that line's, the
  positions they reach are winnable without a search;
- the opening position's verdict is the par's when there is one (every entry's deal is the same
  game renamed); a won game's last position is won;
- the last position is searched first (a game that could still have been won has no turning
  point), then the search halves the stretch between the last position known winnable and the
  first after it not known winnable, and what is left unknown is searched in order while the
  whole budget lasts.

What it holds grows linearly with the game: per position a packed key of a few hundred bytes and
the move that reached it, and one game replayed to the position searched (a game copied per
position, with its undo history, grew with the square of the game's length). Games of at most
``MAX_MOVES`` recorded moves are analysed (docs/performance.md, "Analysis").
"""

from __future__ import annotations

import time
from array import array
from itertools import chain
from typing import Any

from spidertour.engine import WON, Game, Settings, Undo, move_from_json
from spidertour.engine.moves import Move
from spidertour.engine.solver import solve_game

# The longest game analysed, in recorded moves (a game of 600 s at the default 30 moves a second
# has at most 18,000): what one analysis holds grows linearly with it (docs/performance.md).
MAX_MOVES = 20_000
NONE = 0xFFFF  # in a key: no draw piles, no stock

Key = bytes


def _key(game: Game) -> Key:
    """The position as far as a win depends on it, packed: each column's length, the face-down
    counts, the draw piles' and the stock's lengths and the sequences removed (two bytes each), then
    the cards where they lie (one byte each: a card is below 64). A few hundred bytes, no history."""
    piles = [NONE] if game.piles is None else [len(p) for p in game.piles]
    stock = NONE if game.stock is None else len(game.stock)
    counts = array("H", [*(len(c) for c in game.columns), *game.down, *piles, stock, game.sequences])
    return counts.tobytes() + bytes(chain.from_iterable(game.columns))


class Analysis:
    """The positions of one game and what is known of each (``verdict``: key -> True/False/None).

    Per position it keeps its packed key, the move that reached it and whether that move was an undo,
    never a game: the one game searched from is replayed from the start to the position wanted (the
    searches go mostly forward, so it is rarely replayed from the start)."""

    def __init__(self, start: Game, moves: list[dict[str, Any]], per_position: float, total: float) -> None:
        self.start = start.copy()
        game = start.copy()
        self.forward: list[bool] = []  # move i+1 is not an undo: P(i) reaches P(i+1)
        self.moves: list[Move] = []
        self.keys: list[Key] = [_key(game)]
        for m in moves:
            if m.get("type") == "end":
                continue
            move = move_from_json({k: v for k, v in m.items() if k != "t"})
            game.play(move)
            self.forward.append(not isinstance(move, Undo))
            self.moves.append(move)
            self.keys.append(_key(game))
        self.last = len(self.keys) - 1
        self.won = game.outcome == WON  # how the game ended (its last position)
        self._game: Game = self.start.copy()  # the game replayed to position self._at
        self._at = 0
        self.verdict: dict[Key, bool | None] = {}
        self.per_position = per_position
        self.total = total
        self.spent = 0.0
        self.solved = 0

    def game_at(self, i: int) -> Game:
        """The game at position i: the one replayed game moved forward, or replayed again from the start."""
        if i < self._at:
            self._game, self._at = self.start.copy(), 0
        while self._at < i:
            self._game.play(self.moves[self._at])
            self._at += 1
        return self._game

    # ----------------------------------------------------------------------------- what follows

    def known(self, i: int) -> bool:
        return self.keys[i] in self.verdict

    def value(self, i: int) -> bool | None:
        return self.verdict.get(self.keys[i])

    def set(self, i: int, value: bool | None) -> None:
        if self.verdict.get(self.keys[i]) is None:  # a verdict (True/False) is never replaced
            self.verdict[self.keys[i]] = value

    def propagate(self) -> None:
        changed = True
        n = len(self.keys)
        while changed:
            changed = False
            for i in range(n - 2, -1, -1):  # a winnable successor: winnable
                if self.forward[i] and self.value(i + 1) is True and self.value(i) is not True:
                    self.set(i, True)
                    changed = True
            for i in range(n - 1):  # a lost predecessor: lost
                if self.forward[i] and self.value(i) is False and self.value(i + 1) is not False:
                    self.set(i + 1, False)
                    changed = True

    # ----------------------------------------------------------------------------- the searches

    def budget_left(self) -> bool:
        return self.spent < self.total

    def search(self, i: int) -> None:
        """Search position i (once) within the per-position budget and what is left of the whole."""
        if self.known(i) or not self.budget_left():
            return
        game = self.game_at(i)
        if game.over:
            self.set(i, game.outcome == WON)
            return
        seconds = min(self.per_position, self.total - self.spent)
        began = time.process_time()
        s = solve_game(game, seconds=seconds, clock=time.process_time)
        self.spent += time.process_time() - began
        self.solved += 1
        if s.won:
            self.set(i, True)
            j = i  # the player's moves along the solver's line reach winnable positions
            for move in s.moves:
                if j >= len(self.moves) or not self.forward[j] or self.moves[j].to_json() != move.to_json():
                    break
                j += 1
                self.set(j, True)
        else:
            self.set(i, False if s.exhausted else None)
        self.propagate()

    def run(self, opening: bool | None) -> None:
        last = self.last
        if opening is not None:
            self.set(0, opening)
        if self.won:
            self.set(last, True)
        self.propagate()
        self.search(last)
        if self.value(last) is not True:
            self.search(0)
            self.bisect()
        for i in range(len(self.keys)):  # what is still unknown, in order
            if not self.budget_left():
                break
            self.search(i)

    def bisect(self) -> None:
        """Halve the stretch between the last position known winnable and the first one after it
        known not to be (no win found, or lost) until they are neighbours."""
        n = len(self.keys)
        while self.budget_left():
            first = next((i for i in range(n) if self.value(i) is True), None)
            if first is None:
                return
            hi = next((i for i in range(first + 1, n) if self.known(i) and self.value(i) is not True), None)
            if hi is None:
                return
            lo = max(i for i in range(first, hi) if self.value(i) is True)
            if hi - lo <= 1:
                return
            self.search((lo + hi) // 2)  # unknown: every position between lo and hi is

    def result(self) -> dict[str, Any]:
        values = [self.value(i) for i in range(len(self.keys))]
        turning = None
        if not self.won:
            turning = next((i for i in range(1, len(values)) if values[i - 1] is True and values[i] is not True), None)
        return {
            "positions": [{"winnable": v} for v in values],
            "turning_point": turning,
            "solved": self.solved,
            "seconds": round(self.spent, 3),
        }


def analyse(
    settings: dict[str, Any],
    seed: str,
    entry: int,
    moves: list[dict[str, Any]],
    opening: bool | None,
    per_position: float,
    total: float,
) -> dict[str, Any]:
    """Run in the worker process: the analysis of one game (what the ``analyses`` table stores).

    ``opening``: the opening position's verdict when the par already says it (None: search it)."""
    start = Game(Settings.from_json(settings), seed, entry=entry)
    analysis = Analysis(start, moves, per_position, total)
    analysis.run(opening)
    return analysis.result()
