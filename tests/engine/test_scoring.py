"""docs/rules.md, one test per rule, for every game the rule applies to: the free column's bonus, undo,
reveals_final, time, ending and scoring.

Positions are written in the engine's notation through the ``make`` fixture (conftest.py and
positions.py): only the cards a test needs are placed, the rest of the deck waits in the reserve.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from spidertour.engine import (
    ENDED,
    TIMED_OUT,
    WON,
    Deal,
    End,
    Game,
    GameOverError,
    IllegalMoveError,
    MoveCards,
    Undo,
)
from tests.engine.positions import (
    ALL_VARIANTS,
    FACE_DOWN_GAMES,
    SPADES_K_TO_2,
    SPIDER_LIKE,
    STOCK_GAMES,
    Make,
    col,
    position,
    rejected,
    settings,
)

# ------------------------------------------------------------------ the free column's bonus


def winning(make: Make, **kw: Any) -> Game:
    """spider78: five sequences gone, the sixth one move away (column 1's Ace onto column 0)."""
    return position(make, "spider78", {0: SPADES_K_TO_2, 1: "AS"}, sequences=5, **kw)


def test_free_column_bonus_only_when_won_and_never_used(make: Make) -> None:
    game = winning(make)
    game.play(MoveCards(1, 1, 0), t=100)
    assert game.outcome == WON
    assert game.free_column_bonus == 100
    assert game.final_score == 600 + 100 + 500
    assert game.view()["free_column_bonus"] == 100


def test_free_column_bonus_lost_once_used(make: Make) -> None:
    game = winning(make, free_used=True)
    game.play(MoveCards(1, 1, 0), t=100)
    assert game.outcome == WON
    assert game.free_column_bonus == 0
    assert game.final_score == 600 + 500


def test_free_column_bonus_needs_a_free_column(make: Make) -> None:
    game = winning(make, free_column=False)
    game.play(MoveCards(1, 1, 0), t=100)
    assert (game.outcome, game.free_column_bonus, game.final_score) == (WON, 0, 1100)


def test_free_column_bonus_needs_a_win(make: Make) -> None:
    game = winning(make)
    game.play(End(), t=100)
    assert game.outcome == ENDED
    assert game.free_column_bonus == 0
    assert game.final_score == 500 + 500 * 5 // 6


def test_undo_of_move_into_free_column_clears_used_mark(make: Make) -> None:
    game = position(make, "spider78", {0: "9S", 1: "5H"})
    game.play(MoveCards(0, 1, 8))
    assert game.free_used
    game.play(MoveCards(8, 1, 2))
    game.play(Undo())
    assert game.free_used  # the card went in earlier: still used
    game.play(Undo())
    assert not game.free_used
    assert game.view()["free_column_used"] is False
    assert col(game, 0) == "9S"


# ------------------------------------------------------------------ undo


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_undo_takes_back_moves_one_by_one(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "8S", 1: "9S", 2: "TS", 3: "JS"})
    positions = [game.position()]
    for move in (MoveCards(0, 1, 1), MoveCards(1, 2, 2), MoveCards(2, 3, 3)):
        game.play(move)
        positions.append(game.position())
    assert col(game, 3) == "JSTS9S8S"
    assert game.can_undo
    for expected in reversed(positions[:-1]):
        result = game.play(Undo())
        assert result.completed == 0
        assert game.position().split(" ")[:5] == expected.split(" ")[:5]
    assert game.undos_used == 3
    assert not game.can_undo
    rejected(game, Undo(), "nothing_to_undo")


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_undo_turns_revealed_card_back_down_and_takes_back_points(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS"})
    game.play(MoveCards(0, 1, 1))
    assert (game.reveals, game.score) == (1, 25)
    result = game.play(Undo())
    assert result.revealed == -1
    assert col(game, 0) == "4h5h9S"
    assert (game.reveals, game.score) == (0, 0)
    assert game.view()["columns"][0] == ["??", "??", "9S"]


@pytest.mark.parametrize("variant", [*STOCK_GAMES, "spider78"])
def test_undo_never_across_a_deal(make: Make, variant: str) -> None:
    game = Game(settings(variant), "undo-deal")
    move = next(m for m in game.legal_moves() if isinstance(m, MoveCards))
    game.play(move)
    assert game.can_undo
    game.play(Deal(0) if variant == "spider78" else Deal())
    assert not game.can_undo
    assert "a deal cannot be taken back" in rejected(game, Undo(), "nothing_to_undo").reason
    move = next(m for m in game.legal_moves() if isinstance(m, MoveCards))
    game.play(move)
    game.play(Undo())
    refused = rejected(game, Undo(), "nothing_to_undo")  # the move before the deal stays
    assert "a deal cannot be taken back" in refused.reason


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_undo_never_across_sequence_completing_move(make: Make, variant: str) -> None:
    game = position(make, variant, {0: SPADES_K_TO_2, 1: "AS", 2: "9H", 3: "TH"})
    game.play(MoveCards(2, 1, 3))
    game.play(MoveCards(1, 1, 0))
    assert game.sequences == 1
    assert not game.can_undo
    assert "completed a sequence" in rejected(game, Undo(), "nothing_to_undo").reason
    assert col(game, 3) == "TH9H"


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_undo_off_rejects_every_undo(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"}, undo=False)
    game.play(MoveCards(0, 1, 1))
    assert not game.can_undo
    assert game.view()["can_undo"] is False
    rejected(game, Undo(), "undo_off")
    assert game.undos_used == 0


def test_undo_with_nothing_to_take_back_is_rejected() -> None:
    game = Game(settings("spider78"), "nothing")
    assert rejected(game, Undo(), "nothing_to_undo").reason == "there is no move to take back"
    assert game.undos_used == 0


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_undo_limit_counts_only_successful_undos(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"}, undo_limit=2)
    rejected(game, Undo(), "nothing_to_undo")  # refused: does not count
    game.play(MoveCards(0, 1, 1))
    game.play(Undo())
    game.play(MoveCards(0, 1, 1))
    game.play(Undo())
    assert game.undos_used == 2
    game.play(MoveCards(0, 1, 1))
    assert not game.can_undo
    rejected(game, Undo(), "undo_limit")
    assert game.undos_used == 2


def test_undo_limit_zero_allows_no_undo(make: Make) -> None:
    game = position(make, "spider", {0: "9S", 1: "TS"}, undo_limit=0)
    game.play(MoveCards(0, 1, 1))
    rejected(game, Undo(), "undo_limit")


# ------------------------------------------------------------------ reveals_final


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_reveals_final_refuses_to_undo_a_reveal(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS"}, reveals_final=True)
    game.play(MoveCards(0, 1, 1))
    assert (game.reveals, game.score) == (1, 25)
    assert not game.can_undo and game.view()["can_undo"] is False
    err = rejected(game, Undo(), "reveals_final")
    assert isinstance(err, IllegalMoveError) and "revealed card stays revealed" in err.reason
    assert (game.reveals, game.score, game.undos_used) == (1, 25, 0)
    assert game.view()["columns"][0] == ["??", "5H"]


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_reveals_final_still_undoes_a_move_that_reveals_nothing(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS", 2: "8H", 3: "9H"}, reveals_final=True)
    before = game.position()
    game.play(MoveCards(2, 1, 3))  # empties column 2: nothing to turn
    assert game.can_undo
    game.play(Undo())
    assert game.position().split(" ")[:5] == before.split(" ")[:5]
    assert game.undos_used == 1


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_reveals_final_closes_the_door_on_earlier_moves(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS", 2: "8H", 3: "9H"}, reveals_final=True)
    game.play(MoveCards(2, 1, 3))  # undoable on its own
    game.play(MoveCards(0, 1, 1))  # turns 5H: closes the door on both
    rejected(game, Undo(), "reveals_final")
    game.play(MoveCards(3, 1, 1))  # 8H onto 9S: a later move is undoable again
    assert game.can_undo
    game.play(Undo())
    assert not game.can_undo
    rejected(game, Undo(), "reveals_final")  # but never across the reveal
    assert (col(game, 2), col(game, 3), game.reveals) == ("-", "9H8H", 1)


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_without_reveals_final_the_same_reveal_is_undone(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS", 2: "8H", 3: "9H"})
    game.play(MoveCards(2, 1, 3))
    game.play(MoveCards(0, 1, 1))
    game.play(Undo())
    game.play(Undo())
    assert (col(game, 0), col(game, 2), game.reveals) == ("4h5h9S", "8H", 0)


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_reveals_final_with_undo_limit(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS", 2: "8H", 3: "9H"}, reveals_final=True, undo_limit=1)
    game.play(MoveCards(0, 1, 1))
    rejected(game, Undo(), "reveals_final")  # refused: does not count
    assert game.undos_used == 0
    game.play(MoveCards(2, 1, 3))
    game.play(Undo())
    assert game.undos_used == 1
    game.play(MoveCards(2, 1, 3))
    assert not game.can_undo
    rejected(game, Undo(), "undo_limit")


@pytest.mark.parametrize("variant", SPIDER_LIKE)
def test_reveals_final_after_a_sequence_that_reveals(make: Make, variant: str) -> None:
    for final, code in ((True, "reveals_final"), (False, "nothing_to_undo")):
        game = position(make, variant, {0: "4h" + SPADES_K_TO_2, 1: "AS"}, reveals_final=final)
        result = game.play(MoveCards(1, 1, 0))
        assert (result.completed, result.revealed, col(game, 0)) == (1, 1, "4H")
        rejected(game, Undo(), code)


def test_reveals_final_a_deal_reopens_nothing(make: Make) -> None:
    """After a deal the reason is the deal's: nothing earlier can be undone, reveal or not."""
    piles = ["2S3S4S5S6S7S8S2H", "-", "-", "-", "-"]
    game = position(make, "spider78", {0: "4h5h9S", 1: "TS"}, piles=piles, rest=7, reveals_final=True)
    game.play(MoveCards(0, 1, 1))
    game.play(Deal(0))
    rejected(game, Undo(), "nothing_to_undo")


def test_reveals_final_changes_nothing_in_curds_and_whey(make: Make) -> None:
    game = position(make, "curds_and_whey", {0: "9S", 1: "TS"}, reveals_final=True)
    before = game.position()
    game.play(MoveCards(0, 1, 1))
    game.play(Undo())
    assert game.position().split(" ")[:5] == before.split(" ")[:5]


# ------------------------------------------------------------------ time, ending and scoring


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("t", [600, 600.0, 600.5, 10_000])
def test_move_at_or_after_time_limit_ends_game_by_time_and_is_rejected(make: Make, variant: str, t: float) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"}, sequences=1)
    with pytest.raises(GameOverError) as info:
        game.play(MoveCards(0, 1, 1), t=t)
    assert info.value.code == "time_up"
    assert col(game, 0) == "9S"  # the move itself did not happen
    assert (game.outcome, game.time_left, game.time_bonus) == (TIMED_OUT, 0, 0)
    assert game.final_score == game.score == 100
    rejected(game, End(), "time_up")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_move_just_before_time_limit_is_accepted(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"})
    game.play(MoveCards(0, 1, 1), t=599.999)
    assert not game.over
    assert game.final_score is None


def test_tick_at_time_limit_ends_game() -> None:
    game = Game(settings("spider", time_limit=60), "tick")
    assert game.tick(59.5) is False
    assert game.tick(60) is True
    assert (game.outcome, game.time_left) == (TIMED_OUT, 0)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize(("t", "left"), [(0, 600), (358.3, 241), (599.999, 0), (12, 588)])
def test_end_gives_whole_seconds_remaining(variant: str, t: float, left: int) -> None:
    game = Game(settings(variant), "end")
    game.play(End(), t=t)
    assert (game.outcome, game.time_left) == (ENDED, left)
    assert left == math.floor(600 - t)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_time_bonus_is_tr_times_cs_over_s_rounded_down(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"}, sequences=1, reveals=3)
    need = game.settings.rules.sequences_to_win
    game.play(End(), t=358.3)
    assert game.time_bonus == 241 * 1 // need
    assert game.final_score == 25 * 3 + 100 + 241 // need
    assert game.view()["time_bonus"] == 241 // need


def test_time_bonus_rounds_down_not_to_nearest(make: Make) -> None:
    game = position(make, "spider78", {0: "9S", 1: "TS"}, sequences=4)
    game.play(End(), t=358.3)
    assert game.time_bonus == 160  # 241 x 4 / 6 = 160.67


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_ending_with_no_sequences_gives_no_time_bonus(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"}, reveals=2)
    game.play(End(), t=10)
    assert game.time_left == 590
    assert game.time_bonus == 0
    assert game.final_score == 50


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_nothing_accepted_after_the_end(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"})
    game.play(End(), t=5)
    for move in (MoveCards(0, 1, 1), Undo(), End(), Deal()):
        rejected(game, move, "game_over")
    assert list(game.legal_moves()) == []
    assert (game.outcome, game.time_left) == (ENDED, 595)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_winning_move_ends_game_with_whole_seconds_remaining(make: Make, variant: str) -> None:
    need = settings(variant).rules.sequences_to_win
    game = position(make, variant, {0: SPADES_K_TO_2, 1: "AS"}, sequences=need - 1)
    result = game.play(MoveCards(1, 1, 0), t=33.9)
    assert result.completed == 1
    assert (game.outcome, game.time_left, game.sequences) == (WON, 566, need)
    assert game.final_score == 100 * need + 566 + game.free_column_bonus
    assert not game.can_undo


def test_score_is_25_a_reveal_and_100_a_sequence(make: Make) -> None:
    game = position(make, "spider", {0: "9S", 1: "TS"}, sequences=2, reveals=7)
    assert game.score == 375
    assert game.view()["score"] == 375
    assert game.final_score is None


def test_worked_example_of_rules_md_scores_1691(make: Make) -> None:
    """30 reveals, 6 sequences, free column unused, won with 241.7 s left: 750 + 600 + 100 + 241."""
    game = winning(make, reveals=30)
    game.play(MoveCards(1, 1, 0), t=600 - 241.7)
    assert game.outcome == WON
    assert (game.reveals, game.sequences, game.time_left) == (30, 6, 241)
    assert (game.score, game.free_column_bonus, game.time_bonus) == (1350, 100, 241)
    assert game.final_score == 1691
    view = game.view()
    assert (view["final_score"], view["over"], view["outcome"]) == (1691, True, "won")
