"""docs/rules.md, one test per rule, for every game the rule applies to: which groups move and where,
empty and free columns, reveals, completed sequences, dealing.

Positions are written in the engine's notation through the ``make`` fixture (conftest.py and
positions.py): only the cards a test needs are placed, the rest of the deck waits in the reserve.
"""

from __future__ import annotations

import pytest

from spidertour.engine import (
    WON,
    BadMoveError,
    Deal,
    Game,
    IllegalMoveError,
    MoveCards,
)
from spidertour.engine.cards import card_text
from tests.engine.positions import (
    ALL_VARIANTS,
    FACE_DOWN_GAMES,
    FILLER,
    HEARTS_K_TO_2,
    SPADES_K_TO_2,
    SPIDER_LIKE,
    SPIDER_RULES,
    STOCK_GAMES,
    Make,
    col,
    free,
    position,
    rejected,
    settings,
)

# ------------------------------------------------------------------ which groups move (building)


@pytest.mark.parametrize("variant", SPIDER_RULES)
def test_spider_group_must_be_same_suit_run(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9H8S7S", 1: "TS", 3: "9S", 4: "9S7S"})
    err = rejected(game, MoveCards(0, 3, 1), "not_a_group")
    assert isinstance(err, IllegalMoveError)
    rejected(game, MoveCards(4, 2, 1), "not_a_group")  # same suit but a gap: 9S 7S
    game.play(MoveCards(0, 2, 3))  # 8S 7S is a same-suit run
    assert (col(game, 0), col(game, 3)) == ("9H", "9S8S7S")
    game.play(MoveCards(3, 3, 1))
    assert (col(game, 3), col(game, 1)) == ("-", "TS9S8S7S")


@pytest.mark.parametrize("variant", SPIDER_RULES)
def test_spider_group_never_ascends(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "7S8S", 1: "9S"})
    rejected(game, MoveCards(0, 2, 1), "not_a_group")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_single_card_is_always_a_group(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "2H9S", 1: "TS"})
    result = game.play(MoveCards(0, 1, 1))
    assert result.changed == (0, 1)
    assert (col(game, 0), col(game, 1)) == ("2H", "TS9S")


@pytest.mark.parametrize("variant", SPIDER_LIKE)
def test_spider_group_goes_onto_one_rank_higher_of_any_suit(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S8S", 1: "TH", 2: "JS", 3: "9H", 4: "TS"})
    rejected(game, MoveCards(0, 2, 2), "cannot_place")  # two ranks higher
    rejected(game, MoveCards(0, 2, 3), "cannot_place")  # same rank
    other = game.copy()
    game.play(MoveCards(0, 2, 1))  # another suit
    assert col(game, 1) == "TH9S8S"
    other.play(MoveCards(0, 2, 4))  # the same suit
    assert col(other, 4) == "TS9S8S"


def test_black_widow_group_is_any_suit_descending_run(make: Make) -> None:
    game = position(make, "black_widow", {0: "9S8H7D", 1: "TC", 2: "9C7H", 3: "8D", 4: "8S8H", 5: "9D"})
    game.play(MoveCards(0, 3, 1))
    assert col(game, 1) == "TC9S8H7D"
    rejected(game, MoveCards(2, 2, 3), "not_a_group")  # a gap
    rejected(game, MoveCards(4, 2, 1), "not_a_group")  # one rank is not a run
    game.play(MoveCards(1, 2, 5))  # 8H 7D onto 9D: one rank higher, any suit
    assert col(game, 5) == "9D8H7D"


def test_black_widow_removes_only_same_suit_king_to_ace(make: Make) -> None:
    mixed = "KSQHJSTS9S8S7S6S5S4S3S2S"
    game = position(make, "black_widow", {0: "5d" + mixed, 1: "AS", 2: "4d" + SPADES_K_TO_2, 3: "AS"})
    result = game.play(MoveCards(1, 1, 0))
    assert result.completed == 0
    assert col(game, 0) == "5d" + mixed + "AS"
    assert game.sequences == 0
    game.play(MoveCards(0, 13, 1))  # the mixed King-to-Ace run still moves as a unit
    assert col(game, 1) == mixed + "AS"
    result = game.play(MoveCards(3, 1, 2))
    assert result.completed == 1
    assert col(game, 2) == "4D"
    assert (game.sequences, game.reveals, game.score) == (1, 2, 150)


def test_curds_group_is_suit_run_or_same_rank_never_mixed(make: Make) -> None:
    game = position(
        make,
        "curds_and_whey",
        {0: "5H5S5C", 1: "5D", 2: "8S7S6S", 3: "9S", 4: "7D6D6C", 5: "8D", 6: "6H", 7: "QHJHTH"},
    )
    game.play(MoveCards(0, 3, 1))  # one rank
    assert col(game, 1) == "5D5H5S5C"
    game.play(MoveCards(2, 3, 3))  # one suit, descending
    assert col(game, 3) == "9S8S7S6S"
    rejected(game, MoveCards(4, 3, 5), "not_a_group")  # a run then a rank: a mix
    game.play(MoveCards(4, 2, 6))
    assert (col(game, 4), col(game, 6)) == ("7D", "6H6D6C")
    rejected(game, MoveCards(7, 3, 0), "king_only")  # a Queen-headed run into an empty column


def test_curds_suit_run_stops_at_another_suit(make: Make) -> None:
    game = position(make, "curds_and_whey", {0: "7D6H5H", 1: "8D", 2: "7H", 3: "6S"})
    rejected(game, MoveCards(0, 3, 1), "not_a_group")  # 7D is one rank higher but another suit
    rejected(game, MoveCards(0, 3, 3), "not_a_group")
    game.play(MoveCards(0, 2, 2))
    assert col(game, 2) == "7H6H5H"
    game = position(make, "curds_and_whey", {0: "6D5H5S", 1: "7D", 2: "6H"})
    rejected(game, MoveCards(0, 3, 1), "not_a_group")  # a rank then a run: a mix too
    game.play(MoveCards(0, 2, 2))
    assert col(game, 2) == "6H5H5S"


def test_curds_target_is_same_suit_one_higher_or_same_rank(make: Make) -> None:
    game = position(make, "curds_and_whey", {0: "5H", 1: "6S", 2: "6H", 3: "5S", 4: "4H", 5: "7H"})
    rejected(game, MoveCards(0, 1, 1), "cannot_place")  # one higher, another suit
    rejected(game, MoveCards(0, 1, 4), "cannot_place")  # same suit, lower
    rejected(game, MoveCards(0, 1, 5), "cannot_place")  # same suit, two higher
    same_rank = game.copy()
    game.play(MoveCards(0, 1, 2))
    assert col(game, 2) == "6H5H"
    same_rank.play(MoveCards(0, 1, 3))
    assert col(same_rank, 3) == "5S5H"


def test_curds_group_target_follows_its_first_card(make: Make) -> None:
    game = position(make, "curds_and_whey", {0: "5H5S", 1: "6H", 2: "6D5D", 3: "6C", 4: "6S"})
    rejected(game, MoveCards(0, 2, 4), "cannot_place")  # 6S is one higher than 5S, not 5H
    game.play(MoveCards(0, 2, 1))  # a group of one rank onto the same suit one higher
    assert col(game, 1) == "6H5H5S"
    game.play(MoveCards(2, 2, 3))  # a suit run onto the same rank
    assert col(game, 3) == "6C6D5D"


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_kings_never_go_onto_aces(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "KS", 1: "AS", 2: "AHKH"})
    rejected(game, MoveCards(0, 1, 1), "cannot_place")
    rejected(game, MoveCards(2, 2, 3), "not_a_group")  # no wrapping inside a group either
    assert not any(m.dst == 1 for m in game.legal_moves() if isinstance(m, MoveCards))


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_group_never_includes_face_down_card(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9s8S", 1: "TS"})
    rejected(game, MoveCards(0, 2, 1), "face_down")
    game.play(MoveCards(0, 1, 2))
    assert col(game, 0) == "9S"


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_move_needs_cards_and_another_column(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S", 1: "TS"})
    rejected(game, MoveCards(0, 1, 0), "same_column")
    rejected(game, MoveCards(2, 1, 1), "empty_column")
    rejected(game, MoveCards(0, 2, 1), "face_down")  # more cards than the column holds
    err = rejected(game, MoveCards(0, 1, len(game.columns)), "out_of_range")
    assert isinstance(err, BadMoveError)


# ------------------------------------------------------------------ empty and free columns


@pytest.mark.parametrize("variant", SPIDER_LIKE)
def test_empty_column_takes_any_card_or_group(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S8S", 1: "5H"})
    game.play(MoveCards(0, 2, 2))
    game.play(MoveCards(1, 1, 3))
    assert (col(game, 2), col(game, 3)) == ("9S8S", "5H")


def test_curds_empty_column_takes_only_king(make: Make) -> None:
    game = position(make, "curds_and_whey", {0: "QH", 1: "KHQS", 2: "KS", 3: "QC"})
    rejected(game, MoveCards(0, 1, 4), "king_only")
    rejected(game, MoveCards(1, 1, 4), "king_only")
    game.play(MoveCards(2, 1, 4))
    assert col(game, 4) == "KS"
    game.play(MoveCards(4, 1, 2))  # back into the emptied column: a King again
    assert not any(m.dst == 4 and m.src == 0 for m in game.legal_moves() if isinstance(m, MoveCards))


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_free_column_takes_any_card_or_group(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "9S8S", 1: "5H", 3: "TS"}, free_column=True)
    f = free(game)
    assert f == game.settings.rules.columns  # after the dealt columns
    assert not game.free_used
    game.play(MoveCards(0, 2, f))  # no King, yet curds_and_whey's free column takes it
    assert col(game, f) == "9S8S"
    assert game.free_used and game.view()["free_column_used"] is True
    rejected(game, MoveCards(1, 1, f), "cannot_place")  # then it builds like any column
    game.play(MoveCards(f, 2, 3))  # and plays out like any column
    assert (col(game, f), col(game, 3)) == ("-", "TS9S8S")
    assert game.free_used  # once used, always used


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_free_column_is_off_or_on_by_game(variant: str) -> None:
    game = Game(settings(variant), "free")
    assert game.settings.free_column is (variant == "spider78")
    assert len(game.columns) == game.settings.rules.columns + (variant == "spider78")
    assert game.free_column == (8 if variant == "spider78" else None)
    if variant == "spider78":
        assert game.view()["columns"][8] == []


# ------------------------------------------------------------------ reveals


@pytest.mark.parametrize("variant", FACE_DOWN_GAMES)
def test_reveal_turns_card_face_up_for_25_points(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "4h5h9S", 1: "TS", 2: "8H", 3: "JH"})
    result = game.play(MoveCards(0, 1, 1))
    assert result.revealed == 1
    assert col(game, 0) == "4h5H"
    assert (game.reveals, game.score) == (1, 25)
    assert game.view()["columns"][0] == ["??", "5H"]
    game.play(MoveCards(2, 1, 4))  # a column left empty reveals nothing
    game.play(MoveCards(1, 2, 3))  # a face-up card left exposed reveals nothing
    assert (game.reveals, game.score) == (1, 25)


# ------------------------------------------------------------------ completed sequences


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_completed_sequence_removed_from_target_after_move(make: Make, variant: str) -> None:
    under = "3h" if variant != "curds_and_whey" else "3H"
    game = position(make, variant, {0: under + SPADES_K_TO_2, 1: "AS"})
    result = game.play(MoveCards(1, 1, 0))
    assert result.completed == 1
    assert col(game, 0) == "3H"
    assert game.sequences == 1
    reveal = 1 if variant != "curds_and_whey" else 0
    assert (result.revealed, game.reveals, game.score) == (reveal, reveal, 100 + 25 * reveal)
    assert not game.over


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_completed_sequence_must_be_one_suit_king_to_ace(make: Make, variant: str) -> None:
    game = position(make, variant, {0: "KHQSJSTS9S8S7S6S5S4S3S2S", 1: "AS", 2: HEARTS_K_TO_2[2:], 3: "AH"})
    game.play(MoveCards(1, 1, 0))
    game.play(MoveCards(3, 1, 2))  # Queen to Ace: twelve cards only
    assert game.sequences == 0
    assert len(game.columns[0]) == 13 and len(game.columns[2]) == 12


@pytest.mark.parametrize("variant", STOCK_GAMES)
def test_sequences_removed_after_stock_deal_in_every_column(make: Make, variant: str) -> None:
    width = settings(variant).rules.columns
    columns = {c: FILLER[c] for c in range(width)}
    columns[0] = "kd" + SPADES_K_TO_2
    columns[3] = "kc" + HEARTS_K_TO_2
    dealt = FILLER[:width]
    dealt[0], dealt[3] = "AS", "AH"
    game = position(make, variant, columns, stock="".join(dealt), rest=width - 1)
    result = game.play(Deal())
    assert (result.completed, result.revealed) == (2, 2)
    assert (col(game, 0), col(game, 3)) == ("KD", "KC")
    assert col(game, 1) == FILLER[1] * 2
    assert (game.sequences, game.reveals, game.score) == (2, 2, 250)
    assert not game.can_undo


def test_spider78_sequences_removed_after_deal_in_every_column(make: Make) -> None:
    game = position(
        make,
        "spider78",
        {0: "3h" + SPADES_K_TO_2, 5: "4h" + HEARTS_K_TO_2, 7: "2S"},
        piles=["AS5H6H7H8HAH9HTH", "-", "-", "-", "-"],
        rest=7,
    )
    result = game.play(Deal(0))
    assert (result.completed, result.revealed) == (2, 2)
    assert (col(game, 0), col(game, 5), col(game, 3)) == ("3H", "4H", "7H")
    assert (game.sequences, game.reveals) == (2, 2)


def test_deal_that_completes_the_last_sequences_wins(make: Make) -> None:
    game = position(
        make,
        "spider78",
        {0: SPADES_K_TO_2, 1: HEARTS_K_TO_2},
        piles=["ASAH", "-", "-", "-", "-"],
        sequences=4,
    )
    result = game.play(Deal(0), t=100.5)
    assert result.completed == 2
    assert game.outcome == WON
    assert game.time_left == 499
    assert game.final_score == 600 + 100 + 499


# ------------------------------------------------------------------ dealing


def test_spider78_deals_any_pile_in_any_order() -> None:
    game = Game(settings("spider78"), "piles")
    piles = [list(p) for p in game.piles or []]
    tops = [list(c) for c in game.columns]
    game.play(Deal(3))
    for i in range(8):  # the pile's top card onto column 0, card i onto column i
        assert game.columns[i] == [*tops[i], piles[3][i]]
        assert game.down[i] == len(tops[i]) - 1  # dealt face up
    assert game.columns[8] == []  # the free column never receives a dealt card
    assert game.view()["draw_piles"][3] == {"count": 0, "top": None}
    rejected(game, Deal(3), "pile_empty")
    game.play(Deal(0))
    assert [c[-1] for c in game.columns[:8]] == piles[0]
    assert sorted(m.pile or 0 for m in game.legal_moves() if isinstance(m, Deal)) == [1, 2, 4]
    err = rejected(game, Deal(5), "out_of_range")
    assert isinstance(err, BadMoveError)
    rejected(game, Deal(), "missing_field")  # with a choice of piles, name one


def test_spider78_deal_allowed_into_empty_column(make: Make) -> None:
    game = position(make, "spider78", {0: "9S", 2: "5H"}, piles=["KSQSJSTS9S8S7S6S", "-", "-", "-", "-"], rest=0)
    assert col(game, 1) == "-" and col(game, 8) == "-"
    game.play(Deal(0))
    assert col(game, 1) == "QS"
    assert col(game, 8) == "-"


def test_spider78_free_column_never_receives_dealt_card(make: Make) -> None:
    game = position(make, "spider78", {0: "9S", 8: "5H"}, piles=["KSQSJSTS9S8S7S6S", "-", "-", "-", "-"], rest=0)
    game.play(Deal(0))
    assert col(game, 8) == "5H"
    assert col(game, 7) == "6S"


def test_spider78_piles_in_order_when_draw_pile_choice_off() -> None:
    game = Game(settings("spider78", draw_pile_choice=False), "order")
    piles = [list(p) for p in game.piles or []]
    assert [m for m in game.legal_moves() if isinstance(m, Deal)] == [Deal()]
    rejected(game, Deal(1), "wrong_pile")
    rejected(game, Deal(4), "wrong_pile")
    game.play(Deal())
    assert [c[-1] for c in game.columns[:8]] == piles[0]
    game.play(Deal(1))  # naming the next pile is fine
    assert [c[-1] for c in game.columns[:8]] == piles[1]
    rejected(game, Deal(3), "wrong_pile")
    game.play(Deal())
    game.play(Deal())
    game.play(Deal())
    assert [c[-1] for c in game.columns[:8]] == piles[4]
    rejected(game, Deal(), "pile_empty")
    assert not [m for m in game.legal_moves() if isinstance(m, Deal)]


@pytest.mark.parametrize("variant", STOCK_GAMES)
def test_stock_deal_puts_next_card_on_each_column_from_column_0(variant: str) -> None:
    game = Game(settings(variant), "stock")
    width = game.settings.rules.columns
    stock = list(game.stock or [])
    assert len(stock) == 5 * width
    for n in range(5):
        before = [len(c) for c in game.columns]
        down = list(game.down)
        game.play(Deal())
        assert [c[-1] for c in game.columns] == stock[n * width : (n + 1) * width]
        assert [len(c) for c in game.columns] == [h + 1 for h in before]
        assert game.down == down  # dealt face up
        assert game.view()["stock"] == (4 - n) * width
        assert game.view()["deals_left"] == 4 - n
    rejected(game, Deal(), "stock_empty")
    assert not [m for m in game.legal_moves() if isinstance(m, Deal)]


@pytest.mark.parametrize("variant", STOCK_GAMES)
def test_stock_deal_refused_while_a_dealt_column_is_empty(make: Make, variant: str) -> None:
    width = settings(variant).rules.columns
    columns = {c: FILLER[c] for c in range(width)}
    stock = "".join(FILLER[:width])
    game = position(make, variant, columns, free_column=True, stock=stock, rest=1)
    columns[2] = "-"
    empty = position(make, variant, columns, free_column=True, stock=stock, rest=1)
    rejected(empty, Deal(), "empty_column")
    assert Deal() not in list(empty.legal_moves())
    assert Deal() in list(game.legal_moves())
    game.play(Deal())  # the free column may be empty: it is not a dealt column
    assert col(game, free(game)) == "-"
    assert [card_text(c[-1]) for c in game.columns[:width]] == FILLER[:width]


@pytest.mark.parametrize("variant", STOCK_GAMES)
def test_stock_deal_names_no_pile(variant: str) -> None:
    game = Game(settings(variant), "stock")
    err = rejected(game, Deal(0), "no_piles")
    assert isinstance(err, BadMoveError)


def test_curds_has_nothing_to_deal() -> None:
    game = Game(settings("curds_and_whey"), "curds")
    assert all(d == 0 for d in game.down)  # every card face up
    assert [len(c) for c in game.columns] == [4] * 13
    rejected(game, Deal(), "nothing_to_deal")
    rejected(game, Deal(0), "nothing_to_deal")
    assert not [m for m in game.legal_moves() if isinstance(m, Deal)]
    assert "draw_piles" not in game.view() and "stock" not in game.view()


@pytest.mark.parametrize("tops_up", [True, False])
def test_draw_pile_tops_up_shows_or_hides_top_cards(tops_up: bool) -> None:
    game = Game(settings("spider78", draw_pile_tops_up=tops_up), "tops")
    piles = [list(p) for p in game.piles or []]
    shown = game.view()["draw_piles"]
    assert [p["count"] for p in shown] == [8] * 5
    if tops_up:
        assert [p["top"] for p in shown] == [card_text(p[0]) for p in piles]
    else:
        assert [p["top"] for p in shown] == [None] * 5
    game.play(Deal(2))
    assert game.view()["draw_piles"][2] == {"count": 0, "top": None}
