"""Beam search: level by level, the best few positions of each level go on, the rest are dropped.

Each level holds the positions one move further than the level before. Positions are kept in
separate beams by the number of deals made (stock rows or draw piles), so a position before a
deal never competes with one after it: the cost of the cards still in the reserve would always
favour dealing, and the cost of the fresh cards on the columns would always favour waiting. Each
beam keeps its ``width`` cheapest positions (with the Spider rules and several suits
``heuristic.disorder_cost``, else ``heuristic.column_cost``: summed over the columns); a table of the positions
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
from .position import DEAL, Columns, Table, card_moves, deal_cards, deals, moved
from .search import CHECK_EVERY, Clock, Node, SearchOutcome, _line

FIRST_WIDTH = 64  # the first beam's width; each new try doubles it
MAX_WIDTH = 1 << 16
PATIENCE = 40  # levels a beam may go without a better best cost before it stops
MAX_LEVELS = 1000  # no line is longer than this

# A position's key is the sum of its columns' hashes, each times its column's own odd number,
# plus the deals made times another: a move changes the key by its two columns alone.
_SPREAD = 0x9E3779B97F4A7C15
_DEALT = 0xC2B2AE3D27D4EB4F

# A beam entry: cost, position, deals made, line, the columns' hashes, key.
Entry = tuple[int, Columns, int, "Node | None", list[int], int]
# A position met at the next level, built only if kept: cost, the parent's columns, deals made,
# line, the parent's column hashes, then the two changed columns with their hashes (src, column,
# hash, dst, column, hash); a deal's candidate is built already (src -1).
Candidate = tuple[int, Columns, int, "Node | None", list[int], int, tuple[int, ...], int, int, tuple[int, ...], int]


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
    if table.several_suits:
        plain = h.disorder_cost_no_empty if needs_fill else h.disorder_cost
    else:
        plain = h.column_cost_no_empty if needs_fill else h.column_cost
    # A column's cost by the column's hash: the same columns come back often, and each new
    # column is hashed once for both this table and the position's key.
    known: dict[int, int] = {}
    costs_of = [h.free_cost if i == free else plain for i in range(table.width)]

    def cost_of(i: int, col: tuple[int, ...], hc: int) -> int:
        c = known.get(hc)
        if c is None or i == free:
            c = costs_of[i](col)
            if i != free:
                known[hc] = c
        return c

    mult = [(2 * i + 1) * _SPREAD for i in range(table.width)]

    def materialize(cols: Columns, dealt: int) -> tuple[int, list[int], int]:
        """A position's cost, its columns' hashes and its key."""
        hcs = [hash(c) for c in cols]
        cost = h.RESERVE * table.reserve_left(dealt)
        cost += sum(cost_of(i, c, hc) for i, (c, hc) in enumerate(zip(cols, hcs, strict=True)))
        return cost, hcs, sum(m * hc for m, hc in zip(mult, hcs, strict=True)) + _DEALT * dealt

    def stage(dealt: int) -> int:  # which beam: the number of deals made (draw piles: of any piles)
        return dealt.bit_count() if table.piles is not None else dealt

    cost0, hcs0, key0 = materialize(start, dealt0)
    beams: dict[int, list[Entry]] = {stage(dealt0): [(cost0, start, dealt0, None, hcs0, key0)]}
    best = {stage(dealt0): cost0}
    stale = {stage(dealt0): 0}
    seen = {key0}
    nodes = 0
    level = 0
    while beams and level < MAX_LEVELS:
        level += 1
        nxt: dict[int, dict[int, Candidate]] = {}
        for n0, beam in beams.items():
            same = nxt.setdefault(n0, {})
            for cost, cols, dealt, node, hcs, key in beam:
                fill = needs_fill and table.reserve_left(dealt) > 0
                if max_nodes is not None and nodes >= max_nodes:
                    return None, nodes, len(seen), level, "nodes"
                if deadline is not None and nodes % CHECK_EVERY == 0 and clock() >= deadline:  # type: ignore[misc]
                    return None, nodes, len(seen), level, "time"
                nodes += 1
                moves = card_moves(table, cols, True, fill and not all(cols[:dealt_columns]))
                last = table.reserve_left(dealt) == 0
                for move in moves:
                    src, count, dst = move
                    if dst == free and not use_free:
                        continue
                    s = cols[src]
                    ns, nd = moved(s, cols[dst], count)
                    hs = hash(ns)
                    hd = hash(nd)
                    k = key + mult[src] * (hs - hcs[src]) + mult[dst] * (hd - hcs[dst])
                    if k in seen or k in same:
                        continue
                    child = (node, move)
                    if last and not nd and not ns and not any(c for i, c in enumerate(cols) if i != src and i != dst):
                        return _line(child), nodes, len(seen), level, None
                    c = (
                        cost
                        - cost_of(src, s, hcs[src])
                        - cost_of(dst, cols[dst], hcs[dst])
                        + cost_of(src, ns, hs)
                        + cost_of(dst, nd, hd)
                    )
                    same[k] = (c, cols, dealt, child, hcs, src, ns, hs, dst, nd, hd)
                for pile in deals(table, cols, dealt):
                    new, nd_ = deal_cards(table, cols, dealt, pile)
                    c, new_hcs, k = materialize(new, nd_)
                    after = nxt.setdefault(stage(nd_), {})
                    if k in seen or k in after:
                        continue
                    child = (node, (DEAL, pile, 0))
                    if table.reserve_left(nd_) == 0 and not any(new):
                        return _line(child), nodes, len(seen), level, None
                    after[k] = (c, new, nd_, child, new_hcs, -1, (), 0, -1, (), 0)
        beams = {}
        for n, found in nxt.items():
            if not found:
                continue
            if n in stale and stale[n] >= PATIENCE:
                continue  # this beam has stopped
            kept = heapq.nsmallest(width, found.items(), key=lambda kv: kv[1][0])
            seen.update(k for k, _ in kept)
            beams[n] = [_entry(k, cand) for k, cand in kept]
            top = kept[0][1][0]
            if n not in best or top < best[n]:
                best[n] = top
                stale[n] = 0
            else:
                stale[n] += 1
    return None, nodes, len(seen), level, None


def _entry(key: int, cand: Candidate) -> Entry:
    """A kept candidate as a beam entry: its columns built now (most candidates never are)."""
    c, cols, dealt, child, hcs, src, ns, hs, dst, nd, hd = cand
    if src < 0:
        return (c, cols, dealt, child, hcs, key)
    new = list(cols)
    new[src] = ns
    new[dst] = nd
    new_hcs = hcs.copy()
    new_hcs[src] = hs
    new_hcs[dst] = hd
    return (c, tuple(new), dealt, child, new_hcs, key)
