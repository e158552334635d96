"""The solver: every line it returns wins when the engine plays it, and its budgets hold."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from spidertour.engine import Game, Settings
from spidertour.engine.replay import replay_game
from spidertour.engine.solver import Solution, check_wins, solve, solve_game
from spidertour.engine.solver.beam import beam_search
from spidertour.engine.solver.position import from_game
from spidertour.engine.solver.search import search
from spidertour.engine.solver.solution import engine_move

# Deals the solver wins in a few thousand positions (well under a second).
EASY = [
    ("spider78", 1, "abc"),
    ("spider78", 1, "solver-1"),
    ("spider78", 2, "abc"),
    ("spider", 1, "abc"),
    ("black_widow", 1, "abc"),
    ("curds_and_whey", 4, "abc"),
]


def replayed(settings: Settings, seed: str, solution: Solution, entry: int | None = None) -> dict[str, Any]:
    """the replay's verifier on the solver's line, exactly as ``spidertour replay`` would run it."""
    spec = {**settings.to_json(), "seed": seed, "moves": solution.moves_json()}
    if entry is not None:
        spec["entry"] = entry
    return replay_game(spec)


@pytest.mark.parametrize(("variant", "suits", "seed"), EASY)
def test_every_line_found_wins_when_the_engine_replays_it(variant: str, suits: int, seed: str) -> None:
    settings = Settings(variant=variant, suits=suits)
    s = solve(settings, seed, nodes=40_000, pace=1.0)
    assert s.won and s.outcome == "won"
    out = replayed(settings, seed, s)
    assert all(step["ok"] for step in out["steps"])
    last = out["steps"][-1]
    assert last["outcome"] == "won" and last["sequences"] == settings.rules.sequences_to_win
    assert out["final_score"] == s.final_score
    # At one second a move: every card revealed, every sequence, the time left, the free-column bonus.
    game = Game(settings, seed)
    hidden = sum(game.down)
    bonus = 100 if settings.free_column and not s.free_column_used else 0
    expected = 25 * hidden + 100 * settings.rules.sequences_to_win + bonus + (settings.time_limit - len(s.moves))
    assert s.final_score == expected


def test_a_known_win_is_won_and_the_score_follows_the_pace() -> None:
    settings = Settings(variant="spider78", suits=1)
    fast = solve(settings, "abc", nodes=5_000, pace=0.5)
    slow = solve(settings, "abc", nodes=5_000, pace=2.0)
    assert fast.won and slow.won and fast.moves == slow.moves  # the search does not depend on the pace
    n = len(fast.moves)
    assert fast.final_score is not None and slow.final_score is not None
    assert fast.final_score - slow.final_score == (600 - int(n * 0.5)) - (600 - int(n * 2.0))
    assert [m["t"] for m in fast.moves_json()][:3] == [0.5, 1.0, 1.5]


def test_a_line_too_slow_for_the_clock_is_not_in_time() -> None:
    settings = Settings(variant="spider78", suits=1, time_limit=30)
    s = solve(settings, "abc", nodes=5_000, pace=1.0)
    assert s.won and len(s.moves) > 30
    assert not s.in_time  # at one move a second the clock runs out first
    assert replayed(settings, "abc", s)["steps"][-1]["outcome"] == "timed_out"


def test_an_entrys_renamed_deal_is_solved_in_its_own_numbering() -> None:
    settings = Settings(variant="spider78", suits=2, deal_variation=True)
    s = solve(settings, "abc", 4, nodes=20_000)
    assert s.won
    out = replayed(settings, "abc", s, entry=4)
    assert out["steps"][-1]["outcome"] == "won" and out["final_score"] == s.final_score


def test_a_nodes_budget_is_respected_and_reported() -> None:
    settings = Settings(variant="spider", suits=4)
    s = solve(settings, "solver-hard-0", nodes=300)
    assert not s.won and s.moves == [] and s.final_score is None
    assert s.nodes <= 300 and s.stopped == "nodes" and not s.exhausted
    assert s.outcome == "not found within budget"
    assert s.positions > s.nodes and s.max_depth > 0


def test_each_part_of_the_search_reports_its_positions_and_time() -> None:
    s = solve(Settings(variant="spider", suits=4), "solver-hard-0", seconds=0.6, clock=time.process_time)
    assert set(s.parts) == {"best-first", "beam"}  # no win: the probe, the beam, the probe resumed
    assert sum(n for n, _ in s.parts.values()) == s.nodes
    assert s.seconds is not None and 0.9 * s.seconds <= sum(t for _, t in s.parts.values()) <= s.seconds
    beam_nodes, beam_time = s.parts["beam"]
    assert beam_nodes > 0 and beam_time > s.parts["best-first"][1]  # the beam has most of the budget
    quick = solve(Settings(variant="spider78", suits=1), "abc", nodes=5_000)
    assert set(quick.parts) == {"best-first"} and quick.parts["best-first"] == (quick.nodes, 0.0)  # no clock


def test_a_time_budget_is_respected_with_any_clock() -> None:
    calls: list[float] = []

    def clock() -> float:  # a clock that moves one second each time it is read
        calls.append(float(len(calls)))
        return calls[-1]

    s = solve(Settings(variant="spider", suits=4), "solver-hard-0", seconds=20, clock=clock)
    assert not s.won and s.stopped == "time"
    assert s.seconds is not None and s.seconds <= 25


def test_a_real_time_budget_stops_the_search() -> None:
    t0 = time.monotonic()
    s = solve(Settings(variant="spider", suits=4), "solver-hard-0", seconds=0.3, clock=time.monotonic)
    elapsed = time.monotonic() - t0
    assert not s.won and s.stopped == "time"
    assert elapsed < 10  # generous: the search looks at the clock every few hundred positions


def test_a_lost_position_is_proven_lost(make: Callable[..., Game]) -> None:
    # Curds and Whey, three suits gone: the Ace cannot move (an empty column takes only a King).
    settings = Settings(variant="curds_and_whey", suits=4)
    game = make(settings, {0: "2S3S4S5S6S7S8S9STSJSQSKSAS"}, sequences=3)
    s = solve_game(game, nodes=1_000)
    assert not s.won and s.exhausted and s.outcome == "proven lost" and s.stopped is None


def test_a_position_one_move_from_a_win(make: Callable[..., Game]) -> None:
    settings = Settings(variant="spider78", suits=1)
    game = make(settings, {0: "KSQSJSTS9S8S7S6S5S4S3S2S", 3: "AS"}, sequences=5, piles=["-"] * 5)
    s = solve_game(game, nodes=100)
    assert s.won and [m.to_json() for m in s.moves] == [{"type": "move", "from": 3, "count": 1, "to": 0}]
    assert game.outcome is None  # the game given is untouched


def test_bad_budgets_are_refused() -> None:
    settings = Settings(variant="spider78", suits=1)
    with pytest.raises(ValueError, match="budget"):
        solve(settings, "abc")
    with pytest.raises(ValueError, match="clock"):
        solve(settings, "abc", seconds=1)
    with pytest.raises(ValueError, match="pace"):
        solve(settings, "abc", nodes=10, pace=float("nan"))


def test_a_four_suit_deal_is_won_and_its_line_replays_legally() -> None:
    # The beam search (solve's second step) wins this classic 4-suit deal in about 45,000
    # positions; a node budget, not a time budget, so the outcome is the same on any machine.
    settings = Settings(variant="spider", suits=4)
    s = solve(settings, "bench-spider-4-11", nodes=70_000)
    assert s.won and s.nodes <= 70_000
    assert len(s.moves) < 200  # a line a player could follow, not a wander
    out = replayed(settings, "bench-spider-4-11", s)
    assert all(step["ok"] for step in out["steps"])
    last = out["steps"][-1]
    assert last["sequences"] == 8
    assert out["final_score"] == s.final_score


def test_the_beam_search_alone_returns_a_winning_line_within_its_node_budget() -> None:
    game = Game(Settings(variant="spider", suits=2), "bench-spider-2-2")
    table, cols, dealt = from_game(game)
    out = beam_search(table, cols, dealt, max_nodes=40_000)
    assert out.line is not None and out.nodes <= 40_000 and out.stopped is None
    check_wins(game, [engine_move(m, False) for m in out.line])
    starved = beam_search(table, cols, dealt, max_nodes=500)
    assert starved.line is None and starved.stopped == "nodes" and starved.nodes <= 500


def test_a_best_first_search_stopped_by_its_budget_goes_on_where_it_stopped() -> None:
    table, cols, dealt = from_game(Game(Settings(variant="spider", suits=1), "abc"))
    whole = search(table, cols, dealt, max_nodes=5_000)
    assert whole.line is not None and whole.nodes > 200
    first = search(table, cols, dealt, max_nodes=200)
    assert first.line is None and first.stopped == "nodes" and first.state is not None
    rest = search(table, cols, dealt, max_nodes=5_000, resume=first.state)
    assert rest.line == whole.line and first.nodes + rest.nodes == whole.nodes
