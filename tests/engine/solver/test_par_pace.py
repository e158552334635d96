"""The par's pace: a solver's line scored at a human pace (``HUMAN_PACE``), and when that pace does
not fit the time limit, scored as the engine replays it until the clock ends it."""

from __future__ import annotations

from typing import Any

from spidertour.engine import Game, Settings
from spidertour.engine.replay import replay_game
from spidertour.engine.solver import HUMAN_PACE, Solution, cut_at_time_limit, solve


def spec(settings: Settings, seed: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    return {**settings.to_json(), "seed": seed, "moves": moves}


def par(settings: Settings, seed: str = "abc") -> Solution:
    s = solve(settings, seed, nodes=5_000, pace=HUMAN_PACE)
    assert s.won
    return s


def test_the_human_pace_is_one_a_strong_player_keeps_up() -> None:
    assert HUMAN_PACE >= 2.0


def test_a_line_in_time_at_the_human_pace_replays_to_its_score() -> None:
    settings = Settings(variant="spider78", suits=1, time_limit=600)
    s = par(settings)
    n = len(s.moves)
    assert s.in_time and n * HUMAN_PACE < 600
    moves = s.moves_json()
    assert moves[-1]["t"] == n * HUMAN_PACE
    assert cut_at_time_limit(moves, settings.time_limit) == moves  # nothing to cut
    out = replay_game(spec(settings, "abc", moves))
    assert out["final_score"] == s.final_score
    last = out["steps"][-1]
    assert last["outcome"] == "won" and last["time_left"] == int(600 - n * HUMAN_PACE)


def test_a_line_too_long_for_the_limit_scores_what_it_reaches_when_time_runs_out() -> None:
    roomy = par(Settings(variant="spider78", suits=1, time_limit=600))
    settings = Settings(variant="spider78", suits=1, time_limit=60)
    s = par(settings)
    assert s.moves == roomy.moves and len(s.moves) * HUMAN_PACE >= 60
    assert not s.in_time
    # The whole line, the line cut at the limit, and the engine's own game all say the same score.
    whole = replay_game(spec(settings, "abc", s.moves_json()))
    cut = cut_at_time_limit(s.moves_json(), settings.time_limit)
    assert cut[-1] == {"type": "end", "t": 60} and len(cut) == 29 + 1  # moves at 2, 4, ..., 58 s
    out = replay_game(spec(settings, "abc", cut))
    assert all(step["ok"] for step in out["steps"][:-1])
    assert out["steps"][-1]["code"] == "time_up" and out["steps"][-1]["outcome"] == "timed_out"
    game = Game(settings, "abc")
    for i, move in enumerate(s.moves[:29]):
        game.play(move, (i + 1) * HUMAN_PACE)
    game.tick(60)
    assert s.final_score == whole["final_score"] == out["final_score"] == game.final_score
    assert s.final_score is not None and roomy.final_score is not None and s.final_score < roomy.final_score
