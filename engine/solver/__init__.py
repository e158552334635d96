"""A solver for the games of the Spider family, with the whole deal known (the server's tool).

    >>> import time
    >>> from spidertour.engine import Settings
    >>> from spidertour.engine.solver import solve
    >>> s = solve(Settings(variant="spider78", suits=1), "abc", seconds=5, clock=time.process_time)
    >>> s.won, len(s.moves), s.final_score

Standard library only, like the engine. It reads face-down cards and the reserve, so it must
never run for a player: it certifies deals and works out a tournament's par after the finish.
"""

from .solution import HUMAN_PACE, LineError, Solution, check_wins, cut_at_time_limit, replay_line
from .solve import DEFAULT_PACE, solve, solve_game

__all__ = [
    "DEFAULT_PACE",
    "HUMAN_PACE",
    "LineError",
    "Solution",
    "check_wins",
    "cut_at_time_limit",
    "replay_line",
    "solve",
    "solve_game",
]
