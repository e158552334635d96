"""Settings validation and bad input: refused with the engine's own errors, never anything else."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spidertour.engine import (
    BadMoveError,
    Deal,
    End,
    EngineError,
    Game,
    GameOverError,
    IllegalMoveError,
    MoveCards,
    Settings,
    SettingsError,
    Undo,
    move_from_json,
    move_from_text,
)
from spidertour.engine.settings import MAX_TIME_LIMIT

HUGE = [10**100, -(10**100), 2**63, 2**64, -1, 10**400]

# Any value a JSON document can hold (NaN and the infinities too: Python's json reads them).
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(HUGE)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
# Mostly well-shaped moves with garbage in their fields, so the checks behind the first are reached.
field_values = st.integers(min_value=-3, max_value=12) | json_values
move_shaped = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "deal", "undo", "end", "Move", "", "jump"]) | json_values},
    optional={"from": field_values, "count": field_values, "to": field_values, "pile": field_values, "t": field_values},
)
any_move_json = move_shaped | json_values


# ------------------------------------------------------------------ settings


def test_settings_defaults_follow_rules_md() -> None:
    s = Settings()
    assert s.to_json() == {
        "variant": "spider78",
        "suits": 2,
        "free_column": True,
        "undo": True,
        "undo_limit": None,
        "reveals_final": False,
        "time_limit": 600,
        "draw_pile_choice": True,
        "draw_pile_tops_up": True,
        "deal_variation": False,
    }
    assert Settings.from_json(s.to_json()) == s
    both = Settings.from_json({"variant": "spider", "reveals_final": True, "deal_variation": True})
    assert (both.reveals_final, both.deal_variation) == (True, True)
    assert Settings.from_json(both.to_json()) == both
    for variant in ("spider", "huge_spider", "black_widow", "curds_and_whey"):
        other = Settings(variant=variant)
        assert (other.suits, other.free_column, other.time_limit) == (4, False, 600)


@pytest.mark.parametrize(
    ("variant", "allowed"),
    [
        ("spider78", {1, 2}),
        ("spider", {1, 2, 4}),
        ("huge_spider", {1, 2, 4}),
        ("black_widow", {1, 2, 4}),
        ("curds_and_whey", {4}),
    ],
)
def test_settings_suits_allowed_per_game(variant: str, allowed: set[int]) -> None:
    for suits in range(0, 6):
        if suits in allowed:
            assert Settings(variant=variant, suits=suits).suits == suits
        else:
            with pytest.raises(SettingsError):
                Settings(variant=variant, suits=suits)


def test_settings_refuse_four_suits_in_spider78() -> None:
    with pytest.raises(SettingsError) as info:
        Settings(variant="spider78", suits=4)
    assert info.value.code == "bad_settings"
    assert "spider78" in info.value.reason


@pytest.mark.parametrize(
    "kw",
    [
        {"variant": "klondike"},
        {"variant": None},
        {"variant": ["spider"]},
        {"variant": "Spider78"},
        {"suits": True},  # a bool is not a suit count, even though True == 1
        {"suits": 2.0},
        {"suits": "2"},
        {"free_column": 1},
        {"free_column": "true"},
        {"undo": 0},
        {"draw_pile_choice": None},
        {"draw_pile_tops_up": "no"},
        {"reveals_final": 1},
        {"reveals_final": "true"},
        {"deal_variation": 0},
        {"deal_variation": "yes"},
        {"undo_limit": True},
        {"undo_limit": -1},
        {"undo_limit": 2.5},
        {"undo_limit": 10**100},
        {"time_limit": True},
        {"time_limit": 0},
        {"time_limit": -600},
        {"time_limit": 600.5},
        {"time_limit": math.nan},
        {"time_limit": math.inf},
        {"time_limit": "600"},
        {"time_limit": MAX_TIME_LIMIT + 1},
        {"time_limit": 10**400},
    ],
    ids=repr,
)
def test_settings_refuse_bad_values(kw: dict[str, Any]) -> None:
    with pytest.raises(SettingsError) as info:
        Settings(**kw)
    assert len(info.value.reason) < 300


def test_settings_take_a_whole_float_time_limit() -> None:
    s = Settings(time_limit=300.0)  # type: ignore[arg-type]  # what a JSON reader may hand over
    assert s.time_limit == 300 and type(s.time_limit) is int


def test_settings_from_json() -> None:
    s = Settings.from_json({"variant": "spider", "suits": 1, "undo_limit": None, "colour": "red", "undo": False})
    assert (s.variant, s.suits, s.undo_limit, s.undo, s.free_column) == ("spider", 1, None, False, False)
    assert Settings.from_json(s.to_json()) == s
    bad: object
    for bad in ([], "spider", None, 3):
        with pytest.raises(SettingsError):
            Settings.from_json(bad)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "variant",
                "suits",
                "free_column",
                "undo",
                "undo_limit",
                "time_limit",
                "draw_pile_choice",
                "draw_pile_tops_up",
            ]
        ),
        json_values,
    )
)
def test_settings_from_any_json_is_settings_or_settings_error(obj: dict[str, Any]) -> None:
    try:
        s = Settings.from_json(obj)
    except SettingsError as err:
        assert err.code == "bad_settings" and err.reason
    else:
        assert Settings.from_json(s.to_json()) == s


def test_game_needs_settings() -> None:
    with pytest.raises(TypeError):
        Game({"variant": "spider78"}, "x")  # type: ignore[arg-type]


# ------------------------------------------------------------------ moves in JSON


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        (None, "not_an_object"),
        ([], "not_an_object"),
        ("move", "not_an_object"),
        (3, "not_an_object"),
        ({}, "missing_field"),
        ({"from": 0, "count": 1, "to": 1}, "missing_field"),
        ({"type": "jump"}, "unknown_type"),
        ({"type": None}, "unknown_type"),
        ({"type": ["move"]}, "unknown_type"),
        ({"type": {"type": "move"}}, "unknown_type"),
        ({"type": "MOVE", "from": 0, "count": 1, "to": 1}, "unknown_type"),
        ({"type": "move", "count": 1, "to": 1}, "missing_field"),
        ({"type": "move", "from": 0, "to": 1}, "missing_field"),
        ({"type": "move", "from": 0, "count": 1}, "missing_field"),
        ({"type": "move", "from": True, "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": 0, "count": True, "to": 1}, "wrong_type"),
        ({"type": "move", "from": 0, "count": 1, "to": False}, "wrong_type"),
        ({"type": "move", "from": 0.0, "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": 0, "count": 1.5, "to": 1}, "wrong_type"),
        ({"type": "move", "from": "0", "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": None, "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": [0], "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": {"a": [1, {"b": None}]}, "count": 1, "to": 1}, "wrong_type"),
        ({"type": "move", "from": -1, "count": 1, "to": 1}, "out_of_range"),
        ({"type": "move", "from": 0, "count": 0, "to": 1}, "out_of_range"),
        ({"type": "move", "from": 0, "count": -5, "to": 1}, "out_of_range"),
        ({"type": "move", "from": 10**100, "count": 1, "to": 1}, "out_of_range"),
        ({"type": "move", "from": 0, "count": 10**400, "to": 1}, "out_of_range"),
        ({"type": "move", "from": 0, "count": 1, "to": -(10**100)}, "out_of_range"),
        ({"type": "deal", "pile": True}, "wrong_type"),
        ({"type": "deal", "pile": "2"}, "wrong_type"),
        ({"type": "deal", "pile": 2.0}, "wrong_type"),
        ({"type": "deal", "pile": -1}, "out_of_range"),
        ({"type": "deal", "pile": 10**100}, "out_of_range"),
    ],
    ids=repr,
)
def test_move_from_json_refuses_malformed_moves(obj: Any, code: str) -> None:
    with pytest.raises(BadMoveError) as info:
        move_from_json(obj)
    assert info.value.code == code
    assert 0 < len(info.value.reason) < 300


def test_move_from_json_reads_every_move_type() -> None:
    assert move_from_json({"type": "move", "from": 3, "count": 2, "to": 8, "t": 1.5}) == MoveCards(3, 2, 8)
    assert move_from_json({"type": "deal", "pile": 4}) == Deal(4)
    assert move_from_json({"type": "deal"}) == Deal()
    assert move_from_json({"type": "deal", "pile": None}) == Deal()
    assert move_from_json({"type": "undo", "extra": [1]}) == Undo()
    assert move_from_json({"type": "end"}) == End()
    for move in (MoveCards(0, 13, 8), Deal(2), Deal(), Undo(), End()):
        assert move_from_json(move.to_json()) == move
        assert move_from_text(str(move)) == move


@settings(max_examples=100, deadline=None)
@given(any_move_json)
def test_move_from_any_json_is_a_move_or_bad_move_error(obj: Any) -> None:
    try:
        move = move_from_json(obj)
    except BadMoveError as err:
        assert err.code in {"not_an_object", "missing_field", "unknown_type", "wrong_type", "out_of_range"}
    else:
        assert move_from_json(move.to_json()) == move


@pytest.mark.parametrize(
    "text", ["", "3", "3>", ">5", "3:>5", "3:0>5x", "d-1", "dx", "undo", "END ", "-1>2", "x", "12345>1"]
)
def test_move_from_text_refuses_garbage(text: str) -> None:
    with pytest.raises(BadMoveError):
        move_from_text(text)


@pytest.mark.parametrize("value", [None, 3, ["u"], {"type": "undo"}])
def test_move_from_text_refuses_non_text(value: Any) -> None:
    with pytest.raises(BadMoveError):
        move_from_text(value)


def test_move_from_text_reads_every_form() -> None:
    assert move_from_text("3>5") == MoveCards(3, 1, 5)
    assert move_from_text(" 0:4>8 ") == MoveCards(0, 4, 8)
    assert move_from_text("d2") == Deal(2)
    assert move_from_text("d") == Deal()
    assert move_from_text("u") == Undo()
    assert move_from_text("end") == End()


# ------------------------------------------------------------------ moves played on a game


def fresh(variant: str = "spider78") -> Game:
    return Game(Settings(variant=variant), "bad-input")


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (None, "not_a_move"),
        (3, "not_a_move"),
        ("3>5", "not_a_move"),
        ({"type": "move", "from": 0, "count": 1, "to": 1}, "not_a_move"),
        ((0, 1, 1), "not_a_move"),
        ([0, 1, 1], "not_a_move"),
        (MoveCards("0", 1, 1), "wrong_type"),  # type: ignore[arg-type]
        (MoveCards(0.0, 1, 1), "wrong_type"),  # type: ignore[arg-type]
        (MoveCards(0, 1.0, 1), "wrong_type"),  # type: ignore[arg-type]
        (MoveCards(True, 1, 0), "wrong_type"),
        (MoveCards(0, False, 1), "wrong_type"),
        (MoveCards(None, 1, 1), "wrong_type"),  # type: ignore[arg-type]
        (MoveCards(-1, 1, 0), "out_of_range"),
        (MoveCards(0, 1, -1), "out_of_range"),
        (MoveCards(0, 0, 1), "out_of_range"),
        (MoveCards(0, -1, 1), "out_of_range"),
        (MoveCards(10**100, 1, 1), "out_of_range"),
        (MoveCards(0, 1, 9), "out_of_range"),
        (Deal(-1), "out_of_range"),
        (Deal(5), "out_of_range"),
        (Deal(10**100), "out_of_range"),
        (Deal("1"), "wrong_type"),  # type: ignore[arg-type]
        (Deal(1.0), "wrong_type"),  # type: ignore[arg-type]
        (Deal(True), "wrong_type"),
    ],
    ids=repr,
)
def test_play_refuses_bad_moves_with_bad_move_error(move: Any, code: str) -> None:
    game = fresh()
    before = game.position()
    with pytest.raises(BadMoveError) as info:
        game.play(move)
    assert info.value.code == code
    assert game.position() == before


def test_play_refuses_too_many_cards_as_illegal() -> None:
    game = fresh()
    with pytest.raises(IllegalMoveError) as info:
        game.play(MoveCards(0, 10**100, 1))
    assert info.value.code == "face_down"


@pytest.mark.parametrize(
    "t", ["1", True, False, -1, -0.5, -(10**400), math.nan, math.inf, -math.inf, [], {"t": 1}], ids=repr
)
def test_play_refuses_bad_times(t: Any) -> None:
    game = fresh()
    game.play(next(iter(game.legal_moves())), t=5)
    before = game.position()
    with pytest.raises(BadMoveError) as info:
        game.play(next(iter(game.legal_moves())), t=t)
    assert info.value.code in {"wrong_type", "out_of_range"}
    assert game.position() == before
    assert game.t == 5
    with pytest.raises(BadMoveError):
        game.tick(t)
    assert not game.over


def test_time_never_goes_backwards() -> None:
    game = fresh()
    game.tick(10)
    with pytest.raises(BadMoveError) as info:
        game.play(End(), t=9.99)
    assert info.value.code == "time_backwards"
    assert not game.over
    game.play(End(), t=10)  # the same time again is fine
    assert game.time_left == 590


@pytest.mark.parametrize("t", [10**100, 10**400, 1e308], ids=repr)
def test_huge_times_end_the_game_by_time(t: float) -> None:
    game = fresh()
    with pytest.raises(GameOverError):
        game.play(End(), t=t)
    assert (game.outcome, game.time_left, game.final_score) == ("timed_out", 0, 0)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["spider78", "spider", "black_widow", "curds_and_whey"]), any_move_json)
def test_play_json_of_anything_is_accepted_or_refused_cleanly(variant: str, obj: Any) -> None:
    game = fresh(variant)
    before = game.position()
    try:
        game.play_json(obj, obj.get("t") if isinstance(obj, dict) else None)
    except (BadMoveError, IllegalMoveError, GameOverError) as err:
        assert isinstance(err, EngineError) and err.reason and err.code
        if not game.over:  # refused: nothing but the clock moved
            assert game.position() == before
    else:  # accepted: a card move or a deal changed the position, or an end ended the game
        assert game.position() != before or game.over
