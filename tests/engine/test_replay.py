"""docs/replay.md end to end: replay_game, replay_lines, and the ``replay`` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spidertour.engine import Game, MoveCards, Settings, SettingsError
from spidertour.engine.replay import _step as replay_step
from spidertour.engine.replay import replay_game, replay_lines
from tests import paths

ROOT = paths.ROOT
SPIDERTOUR = Path(sys.executable).parent / "spidertour"
VIEW_FIELDS = {"columns", "score", "sequences", "reveals", "over"}


def spec(moves: list[Any], **kw: Any) -> dict[str, Any]:
    return {"variant": "spider78", "suits": 2, "seed": "replay", **kw, "moves": moves}


def first_move(**kw: Any) -> dict[str, Any]:
    """The first card move of the "replay" deal (spider78, 2 suits), as JSON."""
    game = Game(Settings(variant="spider78", suits=2, **kw), "replay")
    return next(m for m in game.legal_moves() if isinstance(m, MoveCards)).to_json()


def test_initial_view_is_the_deal_with_default_settings() -> None:
    out = replay_game({"variant": "spider78", "suits": 2, "seed": "replay"})
    game = Game(Settings(variant="spider78", suits=2), "replay")
    assert out == {"initial": game.view(), "steps": [], "final_score": None}
    assert set(out["initial"]) >= VIEW_FIELDS
    assert len(out["initial"]["columns"]) == 9  # free column on by default in spider78
    assert out["initial"]["columns"][0][:4] == ["??"] * 4


def test_settings_left_out_take_rules_md_defaults() -> None:
    # undo on, no undo limit, time limit 600, draw pile choice on, tops shown
    move = first_move()
    out = replay_game(
        spec([move, {"type": "undo"}, move, {"type": "undo"}, {"type": "deal", "pile": 3}, {"type": "end", "t": 0.5}])
    )
    assert [s["ok"] for s in out["steps"]] == [True] * 6
    assert all(p["top"] is not None for p in out["initial"]["draw_piles"])
    assert out["steps"][-1]["time_left"] == 599


def test_reveals_final_is_read_from_the_line() -> None:
    game = Game(Settings(variant="spider78", suits=2), "replay")
    # A move that empties its column's face-up part: it turns a card.
    move = next(
        m
        for m in game.legal_moves()
        if isinstance(m, MoveCards) and m.src < 8 and m.count == len(game.columns[m.src]) - game.down[m.src]
    )
    moves = [move.to_json(), {"type": "undo"}]
    assert [s["ok"] for s in replay_game(spec(moves))["steps"]] == [True, True]
    final = replay_game(spec(moves, reveals_final=True))["steps"]
    assert [s["ok"] for s in final] == [True, False]
    assert final[1]["code"] == "reveals_final" and "revealed" in final[1]["error"] and final[1]["reveals"] == 1


def test_settings_given_are_used() -> None:
    out = replay_game(
        spec(
            [{"type": "undo"}, {"type": "deal"}],
            undo=False,
            draw_pile_choice=False,
            draw_pile_tops_up=False,
            free_column=False,
            time_limit=100,
        )
    )
    assert out["steps"][0]["ok"] is False and "undo" in out["steps"][0]["error"]
    assert out["steps"][1]["ok"] is True
    assert len(out["initial"]["columns"]) == 8
    assert all(p["top"] is None for p in out["initial"]["draw_piles"])


def test_t_left_out_takes_the_previous_t_or_zero() -> None:
    assert replay_game(spec([{"type": "end"}]))["final_score"] == 0
    assert replay_game(spec([{"type": "end"}]))["steps"][0]["time_left"] == 600
    out = replay_game(spec([{**first_move(), "t": 100.25}, {"type": "end"}]))
    assert out["steps"][1]["time_left"] == 499
    out = replay_game(spec([{**first_move(), "t": 100.25}, {"type": "end", "t": None}]))
    assert out["steps"][1]["time_left"] == 499


@pytest.mark.parametrize("t", [100, 100.0, 250.5])
def test_move_at_or_after_time_limit_ends_by_time_and_is_rejected(t: float) -> None:
    move = first_move()
    out = replay_game(spec([{**move, "t": 99.9}, {**move, "t": t}, {"type": "end", "t": t + 1}], time_limit=100))
    first, late, after = out["steps"]
    assert first["ok"] is True
    assert late["ok"] is False and late["over"] is True
    assert late["outcome"] == "timed_out" and late["time_left"] == 0
    assert late["columns"] == first["columns"]  # the late move did not happen
    assert after["ok"] is False and after["outcome"] == "timed_out"
    assert out["final_score"] == first["score"]  # no time bonus


def test_end_gives_floor_of_time_remaining() -> None:
    out = replay_game(spec([{"type": "end", "t": 358.3}]))
    assert out["steps"][0] == {**out["steps"][0], "ok": True, "over": True, "outcome": "ended", "time_left": 241}
    assert out["final_score"] == 0  # no sequences, no time bonus


def test_winning_move_gives_floor_of_time_remaining() -> None:
    """No seed deals a game short enough to win here, so the replay's step runs on a position."""
    text = "KSQSJSTS9S8S7S6S5S4S3S2S/AS/-/-/-/-/-/-/- p:-,-,-,-,- 30 5 0 0 play"
    game = Game.from_position(Settings(variant="spider78", suits=1), text)
    step = replay_step(game, {"type": "move", "from": 1, "count": 1, "to": 0, "t": 358.3})
    assert step["ok"] is True
    assert (step["over"], step["outcome"], step["time_left"]) == (True, "won", 241)
    assert step["final_score"] == 1691


def test_final_score_null_until_the_game_is_over() -> None:
    move = first_move()
    out = replay_game(spec([move]))
    assert out["final_score"] is None
    assert out["steps"][0]["over"] is False
    assert "final_score" not in out["steps"][0]
    done = replay_game(spec([move, {"type": "end", "t": 10}]))
    assert done["final_score"] == done["steps"][-1]["final_score"] == done["steps"][-1]["score"] + 0


def test_bad_moves_inside_a_game_give_failed_steps_and_the_replay_goes_on() -> None:
    move = first_move()
    bad = [
        {"type": "move", "from": 0, "count": 1, "to": 0},
        {"type": "jump"},
        "move",
        None,
        [1, 2],
        {"type": "move", "from": "0", "count": 1, "to": 1},
        {"type": "move", "from": 0, "count": 10**100, "to": 1},
        {"type": "deal", "pile": 9},
        {"type": "undo"},
        {"type": "end", "t": -1},
        {"type": "end", "t": "soon"},
    ]
    out = replay_game(spec([*bad, move, {"type": "end", "t": 2}]))
    steps = out["steps"]
    assert len(steps) == len(bad) + 2
    for step in steps[: len(bad)]:
        assert step["ok"] is False
        assert isinstance(step["error"], str) and step["error"]
        assert step["columns"] == out["initial"]["columns"]
    assert steps[-2]["ok"] is True and steps[-1]["ok"] is True
    assert "error" not in steps[-2]
    assert out["final_score"] is not None


def test_time_going_backwards_is_a_failed_step() -> None:
    out = replay_game(spec([{"type": "end", "t": 50}, {"type": "end", "t": 40}]))
    assert out["steps"][0]["ok"] is True
    assert out["steps"][1]["ok"] is False


@pytest.mark.parametrize(
    "game",
    [
        [],
        "spider78",
        {"suits": 2, "seed": "x"},
        {"variant": "spider78", "seed": "x"},
        {"variant": "spider78", "suits": 2},
        {"variant": None, "suits": 2, "seed": "x"},
        {"variant": "spider78", "suits": None, "seed": "x"},
        {"variant": "spider78", "suits": 2, "seed": None},
        {"variant": "klondike", "suits": 2, "seed": "x"},
        {"variant": "spider78", "suits": 4, "seed": "x"},
        {"variant": "curds_and_whey", "suits": 2, "seed": "x"},
        {"variant": "spider78", "suits": True, "seed": "x"},
        {"variant": "spider78", "suits": 2, "seed": 5},
        {"variant": "spider78", "suits": 2, "seed": "x", "moves": {"type": "end"}},
        {"variant": "spider78", "suits": 2, "seed": "x", "time_limit": -5},
        {"variant": "spider78", "suits": 2, "seed": "x", "undo": "yes"},
    ],
    ids=repr,
)
def test_replay_game_refuses_what_is_not_a_game(game: Any) -> None:
    with pytest.raises(SettingsError):
        replay_game(game)


def test_replay_lines_reports_bad_lines_and_reads_on() -> None:
    good = json.dumps(spec([{"type": "end", "t": 1}]))
    lines = [
        "not json",
        "{",
        "[]",
        "null",
        '{"variant": "spider78", "suits": 4, "seed": "x"}',
        '{"variant": "klondike", "suits": 1, "seed": "x"}',
        "[" * 100_000,  # nested too deep to read
        good,
    ]
    out = [json.loads(line) for line in replay_lines(lines)]
    assert len(out) == len(lines)
    for item in out[:-1]:
        assert set(item) == {"error"} and isinstance(item["error"], str) and item["error"]
    assert out[-1]["final_score"] == 0 and out[-1]["steps"][0]["time_left"] == 599


def test_replay_lines_one_output_line_per_game_in_order() -> None:
    lines = [json.dumps(spec([{"type": "end", "t": t}])) for t in (1, 2, 3)]
    out = [json.loads(line) for line in replay_lines(lines)]
    assert [o["steps"][0]["time_left"] for o in out] == [599, 598, 597]


def engine_replay(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spidertour.engine", "replay"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_replay_command_exit_status_zero_whatever_the_games_held() -> None:
    move = first_move()
    lines = [
        json.dumps(spec([move, {"type": "jump"}, {"type": "end", "t": 30.5}])),
        json.dumps({"variant": "curds_and_whey", "suits": 4, "seed": "Ünïcødé ♠", "moves": [{"type": "end"}]}),
    ]
    proc = engine_replay("\n".join(lines) + "\n")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 2
    assert [s["ok"] for s in out[0]["steps"]] == [True, False, True]
    assert out[0]["final_score"] == out[0]["steps"][-1]["score"]  # no sequences: no time bonus
    assert out[1]["final_score"] == 0 and out[1]["steps"][0]["time_left"] == 600


def test_replay_command_exit_status_two_when_a_line_is_not_a_game() -> None:
    lines = [
        json.dumps(spec([{"type": "end", "t": 1}])),
        "garbage",
        json.dumps({"variant": "spider", "suits": 3, "seed": "x"}),
        "",
        "[" * 100_000,
    ]
    proc = engine_replay("\n".join(lines) + "\n")
    assert proc.returncode == 2
    assert proc.stderr == "error: line 2 is not a game: not valid JSON (and 2 more line(s) not games)\n"
    out = [json.loads(line) for line in proc.stdout.splitlines()]  # every line still answered, in order
    assert len(out) == 4 and out[0]["final_score"] == 0 and all(set(o) == {"error"} for o in out[1:])


def test_spidertour_replay_of_a_servers_error_answer_fails() -> None:
    """`curl -s .../par | spidertour replay` before the finish pipes a 403: that is said, not replayed."""
    detail = "the par is published when the tournament is finished"
    proc = subprocess.run(
        [str(SPIDERTOUR), "replay"],
        input=json.dumps({"status_code": 403, "detail": detail}) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == f"error: line 1 is not a game: the server's error answer 403: {detail}\n"
    assert json.loads(proc.stdout) == {"error": f"the server's error answer 403: {detail}"}


def test_spidertour_replay_matches_the_engine() -> None:
    line = json.dumps(spec([first_move(), {"type": "end", "t": 3}]))
    proc = subprocess.run(
        [str(SPIDERTOUR), "replay"],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == list(replay_lines([line]))


# Arbitrary JSON values, as games, as lines and as moves.
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**100, -(10**100)])
    | st.floats()
    | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
moves = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "deal", "undo", "end"]) | json_values},
        optional={
            "from": st.integers(-1, 9) | json_values,
            "count": st.integers(-1, 14) | json_values,
            "to": st.integers(-1, 9) | json_values,
            "pile": st.integers(-1, 5) | json_values,
            "t": st.floats(-1, 700) | json_values,
        },
    )
    | json_values
)


@settings(max_examples=100, deadline=None)
@given(st.lists(moves, max_size=12), st.sampled_from(["spider78", "spider", "black_widow", "curds_and_whey"]))
def test_replay_of_any_moves_gives_one_step_each(raw_moves: list[Any], variant: str) -> None:
    suits = 2 if variant == "spider78" else 4
    line = json.dumps({"variant": variant, "suits": suits, "seed": "any", "moves": raw_moves})
    (out_line,) = replay_lines([line])
    out = json.loads(out_line)
    assert len(out["steps"]) == len(raw_moves)
    over = False
    for step in out["steps"]:
        assert isinstance(step["ok"], bool)
        assert set(step) >= VIEW_FIELDS
        assert step["ok"] or step["error"]
        over = over or step["over"]
        assert step["over"] == over  # once over, over for good
    assert (out["final_score"] is None) == (not over)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_replay_of_any_line_is_one_json_line(value: Any) -> None:
    text = json.dumps(value)
    (out_line,) = replay_lines([text])
    out = json.loads(out_line)
    assert isinstance(out, dict)
    assert set(out) == {"error"} or {"initial", "steps", "final_score"} <= set(out)


def test_a_deal_of_several_is_dealt_from_seed_slash_k() -> None:
    """docs/replay.md: a line with ``deal: k`` plays the deal of the seed string ``<seed>/<k>`` (renamed
    for its entry with deal_variation); a bad ``deal`` is not a game."""
    for k in (1, 2, 10):
        by_deal = replay_game(spec([], deal=k))
        by_seed = replay_game(spec([], seed=f"replay/{k}"))
        assert by_deal["initial"] == by_seed["initial"]
        renamed = replay_game(spec([], deal=k, deal_variation=True, entry=3))
        game = Game(Settings(variant="spider78", suits=2, deal_variation=True), f"replay/{k}", 3)
        assert renamed["initial"]["columns"] == game.view()["columns"]
    assert replay_game(spec([], deal=1))["initial"] != replay_game(spec([], deal=2))["initial"]
    assert replay_game(spec([]))["initial"] == replay_game(spec([], deal=None))["initial"]
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(SettingsError, match="deal"):
            replay_game(spec([], deal=bad))
