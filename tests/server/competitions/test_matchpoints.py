"""The ranking of several deals as pure functions: matchpoints as duplicate bridge scores them, and
the ties (docs/competitions.md "Several deals")."""

from __future__ import annotations

from spidertour.server.competitions.matchpoints import Entrant, matchpoints, rank


def test_matchpoints_of_a_hand_checked_field() -> None:
    # Deal 1: 300, 200, 200, 0 -> 3, 1.5, 1.5, 0. Deal 2: 0, 500, 100, 100 -> 0, 3, 1.5, 1.5.
    # Deal 3: 50, 50, 50, 50 -> 1.5 each (three ties).
    field = [[300, 0, 50], [200, 500, 50], [200, 100, 50], [0, 100, 50]]
    assert matchpoints(field) == [4.5, 6.0, 4.5, 3.0]
    assert sum(matchpoints(field)) == 3 * (4 * 3 / 2)  # each deal shares out n(n-1)/2 points


def test_an_entry_that_never_played_a_deal_scores_0_on_it() -> None:
    assert matchpoints([[100, 0], [100]]) == [1.0, 1.0]  # deal 2: 0 against 0, a tie
    assert matchpoints([[100, 10], [100]]) == [1.5, 0.5]
    assert matchpoints([]) == [] and matchpoints([[7, 7]]) == [0.0]


def test_one_lucky_deal_counts_for_little() -> None:
    steady = Entrant(entry_id=10, ordinal=1, scores=(300, 300, 300))
    lucky = Entrant(entry_id=11, ordinal=2, scores=(0, 0, 2000))
    third = Entrant(entry_id=12, ordinal=3, scores=(100, 100, 500))
    # Deals 1 and 2: steady 2, third 1, lucky 0. Deal 3: lucky 2, third 1, steady 0.
    by_total = rank([steady, lucky, third], "total")
    by_points = rank([steady, lucky, third], "matchpoints")
    assert [r.entrant.entry_id for r in by_total] == [11, 10, 12]
    assert [(r.entrant.entry_id, r.matchpoints, r.total) for r in by_points] == [
        (10, 4.0, 900),
        (12, 3.0, 700),
        (11, 2.0, 2000),
    ]
    assert all(r.matchpoints is None for r in by_total)


def test_ties_go_to_the_total_then_the_earlier_entry() -> None:
    a = Entrant(entry_id=1, ordinal=1, scores=(100, 0))
    b = Entrant(entry_id=2, ordinal=2, scores=(0, 200))
    c = Entrant(entry_id=3, ordinal=3, scores=(50, 50))
    # Deal 1: a 2, c 1, b 0. Deal 2: b 2, c 1, a 0. All three on 2 points; totals a 100, b 200, c 100.
    ranked = rank([a, b, c], "matchpoints")
    assert [(r.rank, r.entrant.entry_id, r.matchpoints) for r in ranked] == [(1, 2, 2.0), (2, 1, 2.0), (3, 3, 2.0)]
    # By total: the total, then more time left, then the earlier entry.
    d = Entrant(entry_id=4, ordinal=4, scores=(100, 0), time_left=30)
    assert [r.entrant.entry_id for r in rank([a, d, c], "total")] == [4, 1, 3]
