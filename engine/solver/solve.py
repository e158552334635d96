"""``solve``: look for a winning line of a deal, with the whole deal known, within a budget.

The search runs on the solver's own compact positions (``position.py``); every line it finds is
then played by the real engine, which must win with it, before it is returned.

Order of work, within one budget of nodes and/or seconds (each step until its share of the
whole budget is spent, counted from the start):
1. a short best-first search (``search.py``), ``probe_share`` of the budget (default a tenth,
   a quarter with a free column, half with one suit, a fiftieth with four suits of Spider): it
   wins the easy deals (1 suit) at once;
2. the beam search (``beam.py``), until ``beam_share`` of the budget is spent (default 85%, all
   of it with four suits of Spider): it wins most hard deals (2 and 4 suits), with short lines;
3. the pruned best-first search with what is left, going on from where step 1 stopped;
4. if that runs dry, the full search (every legal move), which alone can prove a deal lost.
With a free column, steps 1 and 2 leave it unused (a win there earns its bonus; they win as
often without it), and steps 3 and 4 use it.

The engine has no clock: a time budget needs ``clock``, a function returning seconds (for
example ``time.monotonic``), passed in by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import Game
from ..settings import Settings
from .beam import beam_search
from .position import from_game
from .search import Paused, SearchOutcome, search
from .solution import HUMAN_PACE, Solution, check_wins, engine_move, replay_line

DEFAULT_PACE = HUMAN_PACE  # the par's pace: a line a strong player could follow
PROBE_SHARE = 0.1  # the first best-first search's share of the budget
BEAM_SHARE = 0.85  # the beam search runs until this share of the budget is spent
PROBE_SHARE_FREE = 0.25  # the same with a free column: without it, it wins many 2-suit deals at once
PROBE_SHARE_ONE_SUIT = 0.5  # the same with one suit: the best-first search wins those, the beam less
# Four-suit Spider: the best-first search all but never wins one, so the beam has (nearly) all.
PROBE_SHARE_FOUR_SUITS = 0.02
BEAM_SHARE_FOUR_SUITS = 1.0


def solve(
    settings: Settings,
    seed: str,
    entry: int | None = None,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    clock: Callable[[], float] | None = None,
    pace: float = DEFAULT_PACE,
    probe_share: float | None = None,
    beam_share: float | None = None,
) -> Solution:
    """Solve the deal of ``seed`` (the renamed deal of entry ``entry`` with deal_variation on)."""
    game = Game(settings, seed, entry)
    return solve_game(
        game, seconds=seconds, nodes=nodes, clock=clock, pace=pace, probe_share=probe_share, beam_share=beam_share
    )


def solve_game(
    game: Game,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    clock: Callable[[], float] | None = None,
    pace: float = DEFAULT_PACE,
    probe_share: float | None = None,
    beam_share: float | None = None,
) -> Solution:
    """Solve from the game's current position (usually its first). The game itself is untouched."""
    if seconds is None and nodes is None:
        raise ValueError("give a budget: seconds (with a clock) or nodes")
    if seconds is not None and clock is None:
        raise ValueError("a time budget needs a clock")
    if not (pace >= 0):
        raise ValueError("the pace must be a number of seconds >= 0")
    if game.over:
        raise ValueError("the game is over: nothing to solve")
    table, cols, dealt = from_game(game)
    started = clock() if clock is not None else 0.0
    deadline = None if seconds is None else started + seconds
    spent = 0
    explored: list[SearchOutcome] = []

    parts: dict[str, list[float]] = {}  # part of the search -> [positions expanded, seconds]

    def run(share: float, beam: bool = False, resume: Paused | None = None, **how: bool) -> SearchOutcome:
        """One search, until ``share`` of the whole budget is spent (counted from the start)."""
        nonlocal spent
        began = clock() if clock is not None else 0.0
        max_nodes = None if nodes is None else max(0, min(int(nodes * share), nodes) - spent)
        end = deadline
        if deadline is not None and share < 1:
            end = started + seconds * share  # type: ignore[operator]
        if beam:
            out = beam_search(table, cols, dealt, max_nodes=max_nodes, deadline=end, clock=clock, **how)
        else:
            out = search(table, cols, dealt, max_nodes=max_nodes, deadline=end, clock=clock, resume=resume, **how)
        spent += out.nodes
        explored.append(out)
        part = parts.setdefault("beam" if beam else "best-first" if how.get("prune", True) else "every move", [0, 0.0])
        part[0] += out.nodes
        part[1] += (clock() - began) if clock is not None else 0.0
        return out

    spare = table.free < 0  # no free column to keep unused
    suits = game.settings.suits or 0
    four_suits = table.spider_rules and suits >= 4
    if probe_share is None:
        if suits == 1:
            probe_share = PROBE_SHARE_ONE_SUIT
        elif four_suits:
            probe_share = PROBE_SHARE_FOUR_SUITS
        else:
            probe_share = PROBE_SHARE if spare else PROBE_SHARE_FREE
    if beam_share is None:
        beam_share = BEAM_SHARE_FOUR_SUITS if four_suits else BEAM_SHARE
    out: SearchOutcome | None = None
    paused: Paused | None = None
    if probe_share > 0:
        out = run(probe_share, use_free=spare)
        paused = out.state if spare else None  # step 3 goes on from it (the same moves)
    if (out is None or out.line is None) and beam_share > 0:
        out = run(max(beam_share, probe_share), beam=True, use_free=spare)
    if out is None or out.line is None:
        out = run(1.0, resume=paused, use_free=True)
        if out.line is None and out.stopped is None:  # the pruned search ran dry: try every move
            out = run(1.0, use_free=True, prune=False)
    solution = Solution(
        won=out.line is not None,
        pace=pace,
        nodes=spent,
        positions=sum(o.generated for o in explored),
        max_depth=max(o.max_depth for o in explored),
        exhausted=out.exhausted,
        stopped=out.stopped,
        parts={name: (int(n), round(t, 6)) for name, (n, t) in parts.items()},
    )
    if clock is not None:
        solution.seconds = clock() - started
    if out.line is not None:
        moves = [engine_move(m, game.settings.draw_pile_choice) for m in out.line]
        check_wins(game, moves)  # raises LineError: a line that does not win is never returned
        played = replay_line(game, moves, pace)
        solution.moves = moves
        solution.final_score = played.final_score
        solution.in_time = played.outcome == "won"
        solution.free_column_used = played.free_used
    return solution
