"""The bracket's arithmetic alone: sizes, standard positions, byes to the top seeds, winners and places,
for every field from 2 to 64 entrants."""

from __future__ import annotations

import pytest

from spidertour.server.brackets import seeding
from spidertour.server.brackets.seeding import Result


@pytest.mark.parametrize("entrants", range(2, 65))
def test_first_round_for_every_field_from_2_to_64(entrants: int) -> None:
    players = [1000 + i for i in range(entrants)]  # in seed order: player 1000 is seed 1
    size = seeding.size_for(entrants)
    assert size >= entrants and size // 2 < entrants and size & (size - 1) == 0
    pairings = seeding.first_round(players)
    assert [p.slot for p in pairings] == list(range(1, size // 2 + 1))
    seen = [s.seed for p in pairings for s in (p.first, p.second) if s is not None]
    assert sorted(seen) == list(range(1, entrants + 1))  # everyone once
    byes = [p.first.seed for p in pairings if p.second is None]
    assert sorted(byes) == list(range(1, size - entrants + 1))  # the top seeds have the byes
    for p in pairings:
        assert p.first.player_id == players[p.first.seed - 1]
        if p.second is not None:
            assert p.first.seed < p.second.seed and p.first.seed + p.second.seed == size + 1
    # Seeds 1 and 2 in different halves (they meet only in the final), 1-4 in different quarters.
    slot_of = {s.seed: p.slot for p in pairings for s in (p.first, p.second) if s is not None}
    if size >= 4:
        assert (slot_of[1] - 1) // (size // 4) != (slot_of[2] - 1) // (size // 4)
    if size >= 8 and entrants >= 4:
        quarters = {(slot_of[s] - 1) // (size // 8) for s in (1, 2, 3, 4)}
        assert len(quarters) == 4


def test_positions_of_eight() -> None:
    assert seeding.positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding.rounds_for(64) == 6 and seeding.rounds_for(2) == 1


def test_the_winner_by_score_then_time_left_then_seed() -> None:
    assert seeding.winner([Result(1, 1, 100, 5), Result(2, 2, 120, 0)]) == 2  # score
    assert seeding.winner([Result(1, 1, 100, 5), Result(2, 2, 100, 9)]) == 2  # time left
    assert seeding.winner([Result(1, 3, 100, 5), Result(2, 2, 100, 5)]) == 2  # the higher seed
    assert seeding.winner([Result(1, 1, None, None), Result(2, 2, 0, 0)]) == 2  # absent loses to a 0 played
    assert seeding.winner([Result(1, 1, None, None), Result(2, 2, None, None)]) == 1  # both absent: seed
    assert seeding.winner([Result(1, 1, 900, 9, disqualified=True), Result(2, 2, None, None)]) == 2
    assert seeding.winner([Result(1, 1, 9, 9, disqualified=True), Result(2, 2, 9, 9, disqualified=True)]) is None


def test_shared_places() -> None:
    assert [seeding.place_of_loser(r, 4) for r in (4, 3, 2, 1)] == [2, 3, 5, 9]
