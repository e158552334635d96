"""Best-first search over the solver's positions, with a table of positions seen.

The open list is a heap ordered by the heuristic cost (plus a little for each move made, so that
of two equally promising positions the one reached sooner goes first); among equals the newest
goes first, which makes the search dive like a depth-first one along a promising line and fall
back to the best position left when that line dies. A position reached before (by any line) is
never queued again. When the open list runs dry with nothing left out, every position reachable
from the start has been seen: the deal is proven lost.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from . import heuristic as h
from .position import DEAL, Columns, SolverMove, Table, card_moves, deal_cards, deals, has_progress, play_cards

Clock = Callable[[], float]
SCALE = 16  # heuristic points weigh this many moves: among equals, shorter lines first
DEPTH = 1  # cost of each move made (in heuristic points): prefers shorter lines among equals
OPEN_LIMIT = 200_000  # open positions kept; past it the worst half is dropped (and nothing is proven)
CHECK_EVERY = 128  # positions expanded between two looks at the clock


@dataclass(slots=True)
class SearchOutcome:
    line: list[SolverMove] | None  # the winning line, or None
    nodes: int  # positions expanded
    generated: int  # distinct positions reached (expanded or queued)
    max_depth: int  # the longest line explored, in moves
    exhausted: bool  # every reachable position was seen: no win exists (with these moves)
    stopped: str | None  # "nodes" or "time" when the budget ran out
    state: Paused | None = None  # where a search stopped by its budget can go on from


@dataclass(slots=True)
class Paused:
    """A best-first search stopped by its budget: its open list and table, to go on with later."""

    heap: list[Entry]
    seen: set[int]
    counter: int
    complete: bool
    max_depth: int


# A line of moves as a linked list, last move first: (the line before it, the move), None when empty.
Node: TypeAlias = "tuple[Node | None, SolverMove]"
# What waits in the search's queue: priority, order, cost, position, cards dealt, line, depth.
Entry: TypeAlias = "tuple[int, int, int, Columns, int, Node | None, int]"


def _line(node: Node | None) -> list[SolverMove]:
    out: list[SolverMove] = []
    while node is not None:
        node, move = node
        out.append(move)
    out.reverse()
    return out


def position_cost(table: Table, cols: Columns, dealt: int) -> int:
    free = table.free
    cost = h.RESERVE * table.reserve_left(dealt)
    for i, col in enumerate(cols):
        cost += h.free_cost(col) if i == free else h.column_cost(col)
    return cost


def search(
    table: Table,
    start: Columns,
    dealt0: int,
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    clock: Clock | None = None,
    use_free: bool = True,
    prune: bool = True,
    resume: Paused | None = None,
) -> SearchOutcome:
    """Look for a line from (start, dealt0) that clears every card. Stops at the budget.

    ``resume``: go on from where an earlier search (the same start, use_free and prune) stopped.
    """
    if deadline is not None and clock is None:
        raise ValueError("a time budget needs a clock")
    free = table.free
    dealt_columns = table.dealt_columns
    needs_fill = table.stock is not None and not table.deal_onto_empty  # a deal waits for empty columns
    column_cost = h.column_cost
    if needs_fill:  # an empty column must be filled again before the next deal: no bonus for it
        column_cost = h.column_cost_no_empty
    free_cost = h.free_cost
    reserve = h.RESERVE
    heappush = heapq.heappush
    heappop = heapq.heappop
    fresh = resume is None
    if resume is None:
        cost0 = position_cost(table, start, dealt0)
        resume = Paused([(cost0 * SCALE, 0, cost0, start, dealt0, None, 0)], {hash((start, dealt0))}, 0, True, 0)
        resume.complete = (use_free or free < 0) and not prune
    heap = resume.heap
    seen = resume.seen
    counter = resume.counter
    complete = resume.complete
    max_depth = resume.max_depth
    seen_before = 0 if fresh else len(seen)
    nodes = 0
    stopped: str | None = None
    if not any(start) and table.reserve_left(dealt0) == 0:
        return SearchOutcome([], 0, 1, 0, False, None)
    while heap:
        if max_nodes is not None and nodes >= max_nodes:
            stopped = "nodes"
            break
        if deadline is not None and nodes % CHECK_EVERY == 0 and clock() >= deadline:  # type: ignore[misc]
            stopped = "time"
            break
        _, _, cost, cols, dealt, node, depth = heappop(heap)
        nodes += 1
        depth += 1
        if depth > max_depth:
            max_depth = depth
        costs = [free_cost(c) if i == free else column_cost(c) for i, c in enumerate(cols)]
        fill = needs_fill and table.reserve_left(dealt) > 0 and not all(cols[:dealt_columns])
        moves = card_moves(table, cols, prune, fill)
        if not use_free and free >= 0:
            moves = [m for m in moves if m[2] != free]
        for move in moves:
            src, count, dst = move
            new = play_cards(cols, src, count, dst)
            key = hash((new, dealt))
            if key in seen:
                continue
            seen.add(key)
            ns = new[src]
            nd = new[dst]
            c = (
                cost
                - costs[src]
                - costs[dst]
                + (free_cost(ns) if src == free else column_cost(ns))
                + (free_cost(nd) if dst == free else column_cost(nd))
            )
            child = (node, move)
            if not nd and not any(new) and table.reserve_left(dealt) == 0:
                return SearchOutcome(_line(child), nodes, len(seen) - seen_before, depth, False, None)
            counter -= 1
            heappush(heap, (c * SCALE + DEPTH * depth, counter, c, new, dealt, child, depth))
        for pile in deals(table, cols, dealt) if not prune or not has_progress(table, cols, moves) else ():
            new, nd_ = deal_cards(table, cols, dealt, pile)
            key = hash((new, nd_))
            if key in seen:
                continue
            seen.add(key)
            move = (DEAL, pile, 0)
            child = (node, move)
            left = table.reserve_left(nd_)
            if left == 0 and not any(new):
                return SearchOutcome(_line(child), nodes, len(seen) - seen_before, depth, False, None)
            c = reserve * left
            for i, col in enumerate(new):
                c += free_cost(col) if i == free else column_cost(col)
            counter -= 1
            heappush(heap, (c * SCALE + DEPTH * depth, counter, c, new, nd_, child, depth))
        if len(heap) > OPEN_LIMIT:
            heap = heapq.nsmallest(OPEN_LIMIT // 2, heap)
            heapq.heapify(heap)
            complete = False
    exhausted = not heap and stopped is None and complete
    paused = Paused(heap, seen, counter, complete, max_depth) if stopped is not None else None
    return SearchOutcome(None, nodes, len(seen) - seen_before, max_depth, exhausted, stopped, paused)
