"""The small rules a game is declared from: which groups may move, and what a column accepts.

A group rule answers "how many cards at the end of this column form a movable group". Every
rule of docs/rules.md is closed under shortening (the last k cards of a movable group move too), so
the last ``count`` cards may move exactly when ``1 <= count <= run_length(...)``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Card

# (cards of a column, how many of them are face up) -> length of the movable group at its end
GroupRule = Callable[[list[Card], int], int]
# (exposed card of the target, first card of the group) -> may the group go there
AcceptRule = Callable[[Card, Card], bool]


def suit_run(cards: list[Card], up: int) -> int:
    """Spider: a same-suit run in strictly descending rank."""
    n = 1 if up else 0
    i = len(cards) - 1
    while n < up and cards[i - 1] == cards[i] + 1:
        n += 1
        i -= 1
    return n


def rank_run(cards: list[Card], up: int) -> int:
    """Black Widow: descending by one rank at each step, whatever the suits."""
    n = 1 if up else 0
    i = len(cards) - 1
    while n < up and (cards[i - 1] & 15) == (cards[i] & 15) + 1:
        n += 1
        i -= 1
    return n


def suit_run_or_same_rank(cards: list[Card], up: int) -> int:
    """Curds and Whey: a same-suit descending run, or cards of one rank, never a mix."""
    if up < 2:
        return up
    if cards[-2] == cards[-1] + 1:
        return suit_run(cards, up)
    n = 1
    i = len(cards) - 1
    rank = cards[i] & 15
    while n < up and (cards[i - 1] & 15) == rank:
        n += 1
        i -= 1
    return n


def one_rank_higher(top: Card, first: Card) -> bool:
    """Spider and Black Widow: onto a card exactly one rank higher, of any suit."""
    return (top & 15) == (first & 15) + 1


def suit_higher_or_same_rank(top: Card, first: Card) -> bool:
    """Curds and Whey: onto the same suit one rank higher, or onto the same rank."""
    return top == first + 1 or (top & 15) == (first & 15)
