"""A knockout bracket's arithmetic, with no I/O: its size, the standard positions of the seeds, the
first round's pairings (byes to the top seeds), who wins a pairing, and the final places."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Side:
    """A player in a pairing, with its seed (1: the highest)."""

    player_id: int
    seed: int


@dataclass(frozen=True)
class Pairing:
    """Slot ``slot`` of a round: ``first`` the higher seed; ``second`` None for a bye (``first`` wins)."""

    slot: int
    first: Side
    second: Side | None


@dataclass(frozen=True)
class Result:
    """What decides a pairing of one player: its game's final score and time left (None: it never
    played, which counts as 0 and loses to anyone who did), its seed, and whether it was disqualified."""

    player_id: int
    seed: int
    final_score: int | None
    time_left: int | None
    disqualified: bool = False


def size_for(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_for(size: int) -> int:
    return size.bit_length() - 1


def positions(size: int) -> list[int]:
    """The seeds in bracket order: neighbours meet in round 1 (seed s against size + 1 - s), and
    seeds 1 and 2 only in the final (each half holds one of them, and so on down)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(player_ids: list[int]) -> list[Pairing]:
    """Round 1 of players already in seed order (the first is seed 1): the seeds past the number of
    players are byes, so the top seeds have them."""
    size = size_for(len(player_ids))
    order = positions(size)
    pairings = []
    for slot in range(size // 2):
        a, b = sorted(order[2 * slot : 2 * slot + 2])
        first = Side(player_ids[a - 1], a)
        second = Side(player_ids[b - 1], b) if b <= len(player_ids) else None
        pairings.append(Pairing(slot + 1, first, second))
    return pairings


def _strength(result: Result) -> tuple[int, int, int, int]:
    played = result.final_score is not None
    return (int(played), result.final_score or 0, result.time_left or 0, -result.seed)


def winner(results: list[Result]) -> int | None:
    """The winner of a pairing: of those not disqualified, the higher final score, then more time
    left, then the higher seed (the smaller number); one who never played scores 0 and loses to one
    who did. None when nobody may advance."""
    left = [r for r in results if not r.disqualified]
    if not left:
        return None
    return max(left, key=_strength).player_id


def place_of_loser(round_: int, rounds: int) -> int:
    """The shared place of those who lost in ``round_`` of ``rounds``: the final's loser 2nd, the
    semi-finals' 3rd, the quarter-finals' 5th, and so on (``2 ** (rounds - round_) + 1``)."""
    return (1 << (rounds - round_)) + 1
