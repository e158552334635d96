"""The series' points rule and table on hand-made results: no server, no database."""

from __future__ import annotations

from spidertour.server.competitions.series.points import Line, Result, result_points, table


def results(*tournaments: list[int | None]) -> list[Result]:
    """Results from each tournament's finishing order of player ids (None: a disqualified player id
    follows as a negative number)."""
    out = []
    for tid, order in enumerate(tournaments, start=1):
        ranked = [p for p in order if p is not None and p > 0]
        for rank, pid in enumerate(ranked, start=1):
            out.append(Result(pid, tid, rank, len(ranked)))
        out.extend(Result(-p, tid, None, len(ranked)) for p in order if p is not None and p < 0)
    return out


def test_field_points_are_ranked_entrants_minus_rank_plus_one() -> None:
    assert [result_points("field", rank, 5) for rank in range(1, 6)] == [5, 4, 3, 2, 1]
    assert result_points("field", None, 5) == 0


def test_list_points_give_zero_past_the_lists_end() -> None:
    rule = [10, 8, 6]
    assert [result_points(rule, rank, 7) for rank in range(1, 8)] == [10, 8, 6, 0, 0, 0, 0]
    assert result_points(rule, None, 7) == 0
    assert result_points([0], 1, 1) == 0


def test_best_of_counts_only_the_best_results() -> None:
    # Player 1: 3rd of 3 (1), 1st of 2 (2), 1st of 4 (4): the best two are 4 + 2.
    found = table("field", 2, results([2, 3, 1], [1, 2], [1, 2, 3, 4]))
    one = next(line for line in found if line.player_id == 1)
    assert one == Line(1, points=6, counted=2, played=3, best_rank=1)
    every = next(line for line in table("field", None, results([2, 3, 1], [1, 2], [1, 2, 3, 4])) if line.player_id == 1)
    assert every == Line(1, points=7, counted=3, played=3, best_rank=1)
    # Fewer results than best_of: all of them count.
    assert next(line for line in found if line.player_id == 4) == Line(4, points=1, counted=1, played=1, best_rank=4)


def test_a_disqualified_result_scores_zero_and_counts_as_played() -> None:
    found = table([10, 5], None, results([1, 2, -3], [3, 1]))
    assert found == [
        Line(1, points=15, counted=2, played=2, best_rank=1),
        Line(3, points=10, counted=2, played=2, best_rank=1),
        Line(2, points=5, counted=1, played=1, best_rank=2),
    ]
    alone = table("field", 1, results([1, -2]))
    assert alone[-1] == Line(2, points=0, counted=1, played=1, best_rank=None)


def test_ties_go_to_the_better_best_rank_then_more_played_then_the_smaller_id() -> None:
    rule = [4, 2, 2]
    # 4 points each: player 2 (3rd and 2nd: 2 + 2) has a worse best rank than player 1 (1st: 4).
    found = table(rule, None, [Result(2, 10, 3, 5), Result(2, 11, 2, 5), Result(1, 12, 1, 5)])
    assert [(line.player_id, line.points, line.best_rank) for line in found] == [(1, 4, 1), (2, 4, 2)]
    # 6 points each and both once first: player 4 played three times (4 + 2 + 0), player 3 twice (4 + 2).
    found = table(
        rule, None, [Result(3, 1, 1, 9), Result(3, 2, 2, 9), Result(4, 1, 3, 9), Result(4, 2, 1, 9), Result(4, 3, 7, 9)]
    )
    assert [(line.player_id, line.points, line.played) for line in found] == [(4, 6, 3), (3, 6, 2)]
    # Everything equal: the smaller player id first, whatever order the results came in.
    found = table("field", None, [Result(6, 1, 1, 2), Result(5, 1, 2, 2), Result(6, 2, 2, 2), Result(5, 2, 1, 2)])
    assert [(line.player_id, line.points) for line in found] == [(5, 3), (6, 3)]
    # More points always first, whatever the best rank.
    found = table(rule, None, [Result(8, 1, 1, 3), Result(9, 1, 2, 3), Result(9, 2, 2, 3), Result(9, 3, 2, 3)])
    assert [line.player_id for line in found] == [9, 8]


def test_the_same_results_in_any_order_give_the_same_table() -> None:
    made = results([1, 2, 3, -4], [3, 1], [2, 4, 1, 3])
    assert table("field", 2, made) == table("field", 2, list(reversed(made)))
