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
"""

from __future__ import annotations

import time
from typing import Any

from spidertour.engine import WON, Game, Settings, Undo, move_from_json
from spidertour.engine.solver import solve_game

Key = tuple[Any, ...]


def _key(game: Game) -> Key:
    """The position as far as a win depends on it: the cards where they lie, what is left to deal."""
    piles = None if game.piles is None else tuple(len(p) for p in game.piles)
    stock = None if game.stock is None else len(game.stock)
    return (tuple(tuple(c) for c in game.columns), tuple(game.down), piles, stock, game.sequences)


class Analysis:
    """The positions of one game and what is known of each (``verdict``: key -> True/False/None)."""

    def __init__(self, start: Game, moves: list[dict[str, Any]], per_position: float, total: float) -> None:
        game = start.copy()
        self.games = [game.copy()]
        self.forward: list[bool] = []  # move i+1 is not an undo: P(i) reaches P(i+1)
        self.moves: list[dict[str, Any]] = []
        for m in moves:
            if m.get("type") == "end":
                continue
            move = move_from_json({k: v for k, v in m.items() if k != "t"})
            game.play(move)
            self.games.append(game.copy())
            self.forward.append(not isinstance(move, Undo))
            self.moves.append(move.to_json())
        self.keys = [_key(g) for g in self.games]
        self.verdict: dict[Key, bool | None] = {}
        self.per_position = per_position
        self.total = total
        self.spent = 0.0
        self.solved = 0

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
        n = len(self.games)
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
        game = self.games[i]
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
                if j >= len(self.moves) or not self.forward[j] or self.moves[j] != move.to_json():
                    break
                j += 1
                self.set(j, True)
        else:
            self.set(i, False if s.exhausted else None)
        self.propagate()

    def run(self, opening: bool | None) -> None:
        last = len(self.games) - 1
        if opening is not None:
            self.set(0, opening)
        if self.games[last].outcome == WON:
            self.set(last, True)
        self.propagate()
        self.search(last)
        if self.value(last) is not True:
            self.search(0)
            self.bisect()
        for i in range(len(self.games)):  # what is still unknown, in order
            if not self.budget_left():
                break
            self.search(i)

    def bisect(self) -> None:
        """Halve the stretch between the last position known winnable and the first one after it
        known not to be (no win found, or lost) until they are neighbours."""
        n = len(self.games)
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
        values = [self.value(i) for i in range(len(self.games))]
        turning = None
        if self.games[-1].outcome != WON:
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
