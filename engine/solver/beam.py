"""Beam search: level by level, the best few positions of each level go on, the rest are dropped.

Each level holds the positions one move further than the level before. Positions are kept in
separate beams by the number of deals made (stock rows or draw piles), so a position before a
deal never competes with one after it: the cost of the cards still in the reserve would always
favour dealing, and the cost of the fresh cards on the columns would always favour waiting. Each
beam keeps its ``width`` cheapest positions (``heuristic.py``'s cost); a table of the positions
already kept drops any position met again. A beam whose best cost has not improved for
``PATIENCE`` levels stops growing (it is shuffling cards), though the deals it fed stay.

The search is not complete: when every beam has stopped without a win, it starts again with a
beam twice as wide, until the budget runs out. It finds lines the best-first search misses on
hard deals (2 and 4 suits), because it keeps developing many positions at once instead of diving
along one; and its lines are short, one level a move.
"""

from __future__ import annotations

import heapq

from . import heuristic as h
from .position import DEAL, Columns, Table, card_moves, deal_cards, deals, play_cards
from .search import CHECK_EVERY, Clock, Node, SearchOutcome, _line

FIRST_WIDTH = 64  # the first beam's width; each new try doubles it
MAX_WIDTH = 1 << 16
PATIENCE = 20  # levels a beam may go without a better best cost before it stops
MAX_LEVELS = 1000  # no line is longer than this

# A beam entry: cost, position, deals made, line.
Entry = tuple[int, Columns, int, "Node | None"]


def beam_search(
    table: Table,
    start: Columns,
    dealt0: int,
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    clock: Clock | None = None,
    use_free: bool = True,
    first_width: int = FIRST_WIDTH,
) -> SearchOutcome:
    """Look for a winning line with beams of growing width, within the budget."""
    if deadline is not None and clock is None:
        raise ValueError("a time budget needs a clock")
    if not any(start) and table.reserve_left(dealt0) == 0:
        return SearchOutcome([], 0, 1, 0, False, None)
    nodes = generated = max_depth = 0
    width = max(1, first_width)
    while True:
        left = None if max_nodes is None else max_nodes - nodes
        line, n, g, depth, stopped = _one_beam(table, start, dealt0, width, left, deadline, clock, use_free)
        nodes += n
        generated += g
        max_depth = max(max_depth, depth)
        if line is not None or stopped is not None:
            return SearchOutcome(line, nodes, generated, max_depth, False, stopped)
        if width >= MAX_WIDTH:
            return SearchOutcome(None, nodes, generated, max_depth, False, None)
        width *= 2


def _one_beam(
    table: Table,
    start: Columns,
    dealt0: int,
    width: int,
    max_nodes: int | None,
    deadline: float | None,
    clock: Clock | None,
    use_free: bool,
) -> tuple[list[tuple[int, int, int]] | None, int, int, int, str | None]:
    free = table.free
    dealt_columns = table.dealt_columns
    needs_fill = table.stock is not None and not table.deal_onto_empty
    plain = h.column_cost_no_empty if needs_fill else h.column_cost
    known: dict[tuple[int, ...], int] = {}  # column -> its cost: the same columns come back often

    def column_cost(col: tuple[int, ...]) -> int:
        c = known.get(col)
        if c is None:
            c = known[col] = plain(col)
        return c

    costs_of = [h.free_cost if i == free else column_cost for i in range(table.width)]

    def full_cost(cols: Columns, dealt: int) -> int:
        return h.RESERVE * table.reserve_left(dealt) + sum(f(c) for f, c in zip(costs_of, cols, strict=True))

    def stage(dealt: int) -> int:  # which beam: the number of deals made (draw piles: of any piles)
        return dealt.bit_count() if table.piles is not None else dealt

    beams: dict[int, list[Entry]] = {stage(dealt0): [(full_cost(start, dealt0), start, dealt0, None)]}
    best = {stage(dealt0): beams[stage(dealt0)][0][0]}
    stale = {stage(dealt0): 0}
    seen = {hash((start, dealt0))}
    nodes = 0
    level = 0
    while beams and level < MAX_LEVELS:
        level += 1
        nxt: dict[int, dict[int, Entry]] = {}
        for key0, beam in beams.items():
            same = nxt.setdefault(key0, {})
            for cost, cols, dealt, node in beam:
                fill = needs_fill and table.reserve_left(dealt) > 0
                if max_nodes is not None and nodes >= max_nodes:
                    return None, nodes, len(seen), level, "nodes"
                if deadline is not None and nodes % CHECK_EVERY == 0 and clock() >= deadline:  # type: ignore[misc]
                    return None, nodes, len(seen), level, "time"
                nodes += 1
                costs = [f(c) for f, c in zip(costs_of, cols, strict=True)]
                moves = card_moves(table, cols, True, fill and not all(cols[:dealt_columns]))
                for move in moves:
                    src, count, dst = move
                    if dst == free and not use_free:
                        continue
                    new = play_cards(cols, src, count, dst)
                    key = hash((new, dealt))
                    if key in seen or key in same:
                        continue
                    ns = new[src]
                    nd = new[dst]
                    child = (node, move)
                    if not nd and not any(new) and table.reserve_left(dealt) == 0:
                        return _line(child), nodes, len(seen), level, None
                    c = cost - costs[src] - costs[dst] + costs_of[src](ns) + costs_of[dst](nd)
                    same[key] = (c, new, dealt, child)
                for pile in deals(table, cols, dealt):
                    new, nd_ = deal_cards(table, cols, dealt, pile)
                    key = hash((new, nd_))
                    after = nxt.setdefault(stage(nd_), {})
                    if key in seen or key in after:
                        continue
                    child = (node, (DEAL, pile, 0))
                    if table.reserve_left(nd_) == 0 and not any(new):
                        return _line(child), nodes, len(seen), level, None
                    after[key] = (full_cost(new, nd_), new, nd_, child)
        beams = {}
        for n, found in nxt.items():
            if not found:
                continue
            if n in stale and stale[n] >= PATIENCE:
                continue  # this beam has stopped
            kept = heapq.nsmallest(width, found.items(), key=lambda kv: kv[1][0])
            seen.update(k for k, _ in kept)
            beams[n] = [e for _, e in kept]
            top = kept[0][1][0]
            if n not in best or top < best[n]:
                best[n] = top
                stale[n] = 0
            else:
                stale[n] += 1
    return None, nodes, len(seen), level, None
