"""The solver's move generator: what its pruning keeps and drops, checked against every legal move."""

from __future__ import annotations

import random

import pytest

from spidertour.engine import Game, Settings
from spidertour.engine.cards import parse_card
from spidertour.engine.solver.position import (
    DOWN,
    Columns,
    Table,
    card_moves,
    deal_cards,
    deals,
    from_game,
    play_cards,
    spider_run,
)


def cards(text: str) -> tuple[int, ...]:
    """Cards bottom to top; a card written in brackets is face down."""
    out = []
    for word in text.split():
        down = word.startswith("[")
        out.append(parse_card(word.strip("[]")) + (DOWN if down else 0))
    return tuple(out)


def four_suit_table(columns: list[str]) -> tuple[Table, Columns]:
    table, _, _ = from_game(Game(Settings(variant="spider", suits=4), "moves"))
    return table, tuple(cards(c) for c in columns)


def test_a_part_of_a_run_moves_onto_the_rest_of_its_suit_only_to_make_a_longer_run() -> None:
    table, cols = four_suit_table(
        [
            *("[KH] 9S 8S 7S", "[KH] JS TS 9S 8S", "[KH] 8H", "[KH] QD", "[KH] KD"),
            *("[KH] KC", "[KH] QC", "[KH] JC", "[KH] TC", "[KH] 9C"),
        ]
    )
    assert table.several_suits
    moves = card_moves(table, cols)
    # 7S onto 8S makes a run of five there out of one of three here: kept.
    assert (0, 1, 1) in moves
    # 7S onto 8H breaks a run of spades for an off-suit join: dropped.
    assert (0, 1, 2) not in moves
    # Nothing from the longer run onto the shorter one (it would leave a shorter run).
    assert not any(src == 1 and dst == 0 for src, _, dst in moves)
    # Every legal move is still offered by the full generator.
    assert (0, 1, 2) in card_moves(table, cols, prune=False)


def test_one_suit_games_do_not_consolidate() -> None:
    table, _, _ = from_game(Game(Settings(variant="spider", suits=1), "moves"))
    assert not table.several_suits


@pytest.mark.parametrize(("variant", "suits"), [("spider", 2), ("spider", 4), ("spider78", 2), ("huge_spider", 1)])
def test_pruned_moves_are_legal_moves(variant: str, suits: int) -> None:
    """Along random games, every pruned move is one of the legal moves, and the pruned list drops
    only what its docstring says: every whole-run move onto a non-empty column is kept."""
    rng = random.Random(7)
    for i in range(5):
        table, cols, dealt = from_game(Game(Settings(variant=variant, suits=suits), f"moves-{i}"))
        for _ in range(150):
            legal = card_moves(table, cols, prune=False)
            pruned = card_moves(table, cols)
            assert set(pruned) <= set(legal)
            for src, count, dst in legal:
                if cols[dst] and count == spider_run(cols[src]):
                    assert (src, count, dst) in pruned
            ds = deals(table, cols, dealt)
            if not legal and not ds:
                break
            if ds and (not legal or rng.random() < 0.05):
                cols, dealt = deal_cards(table, cols, dealt, rng.choice(ds))
            else:
                cols = play_cards(cols, *rng.choice(legal))
