"""The solver's compact position: columns as tuples of ints, and its own move generator.

A card is the engine's int (``suit * 16 + rank``); a face-down card is that int plus ``DOWN``
(64), so one tuple per column says both what lies there and what is hidden. The exposed card of a
non-empty column is always face up (the rules turn it at once), and ``x == y + 1`` between two
cards holds exactly when ``x`` is face up, of ``y``'s suit and one rank higher: a face-down card
never continues a run. The reserve is one number: the draw piles already dealt as a bit mask
(``spider78``), or the deals made from the stock (stock games).

A position is ``(columns, dealt)``; it is the key of the solver's table of positions seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import KING, Card
from ..game import Game

DOWN = 64
SEQUENCE = 13

Columns = tuple[tuple[int, ...], ...]
# A card move is (src, count, dst); a deal is (DEAL, pile, 0), pile -1 for "the next one".
DEAL = -1
SolverMove = tuple[int, int, int]


def spider_run(s: tuple[int, ...]) -> int:
    """Cards at the end of s forming a same-suit descending run (s not empty)."""
    i = len(s) - 1
    while i and s[i - 1] == s[i] + 1:
        i -= 1
    return len(s) - i


def widow_run(s: tuple[int, ...]) -> int:
    """Black Widow: descending by one rank whatever the suits, face-up cards only."""
    i = len(s) - 1
    while i and s[i - 1] < DOWN and (s[i - 1] & 15) == (s[i] & 15) + 1:
        i -= 1
    return len(s) - i


def curds_run(s: tuple[int, ...]) -> int:
    """Curds and Whey: a same-suit run, or cards of one rank, never a mix."""
    if len(s) >= 2 and s[-2] == s[-1] + 1:
        return spider_run(s)
    i = len(s) - 1
    rank = s[i] & 15
    while i and s[i - 1] < DOWN and (s[i - 1] & 15) == rank:
        i -= 1
    return len(s) - i


def rank_below(top: Card, first: Card) -> bool:
    return (top & 15) == (first & 15) + 1


def suit_below_or_same_rank(top: Card, first: Card) -> bool:
    return top == first + 1 or (top & 15) == (first & 15)


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed through a search: the rules in play and the undealt cards."""

    dealt_columns: int  # columns that receive dealt cards (the free column does not)
    width: int  # all columns, the free column included
    free: int  # the free column's index, or -1
    piles: tuple[tuple[int, ...], ...] | None  # spider78's draw piles, dealt in full
    stock: tuple[int, ...] | None  # stock games: the stock, next card first
    pile_choice: bool
    deal_onto_empty: bool
    king_only: bool  # an empty dealt column takes only a King-headed group
    run: Callable[[tuple[int, ...]], int]
    accepts: Callable[[Card, Card], bool]
    spider_rules: bool  # spider_run + rank_below: targets worked out, not searched
    # Spider rules with more than one suit. Then a part of a run may move onto the rest of its
    # suit where that makes a longer run (with one suit, every such move is one more way to
    # shuffle a run about), and the beam search orders positions by disorder
    # (``heuristic.disorder_cost``; with one suit its plain cost wins more).
    several_suits: bool = False

    def reserve_left(self, dealt: int) -> int:
        """Cards still in the reserve."""
        if self.piles is not None:
            return sum(len(p) for i, p in enumerate(self.piles) if not dealt >> i & 1)
        if self.stock is not None:
            return len(self.stock) - dealt * self.dealt_columns
        return 0


def from_game(game: Game) -> tuple[Table, Columns, int]:
    """The solver's table and start position for an engine game that has not been played yet."""
    settings = game.settings
    rules = settings.rules
    if rules.group.__name__ == "rank_run":
        run, accepts, spider = widow_run, rank_below, False
    elif rules.group.__name__ == "suit_run_or_same_rank":
        run, accepts, spider = curds_run, suit_below_or_same_rank, False
    else:
        run, accepts, spider = spider_run, rank_below, True
    free = game.free_column
    table = Table(
        dealt_columns=rules.columns,
        width=len(game.columns),
        free=-1 if free is None else free,
        piles=None if game.piles is None else tuple(tuple(p) for p in game.piles),
        stock=None if game.stock is None else tuple(game.stock),
        pile_choice=settings.draw_pile_choice,
        deal_onto_empty=rules.deal_onto_empty,
        king_only=rules.empty_takes_king_only,
        run=run,
        accepts=accepts,
        spider_rules=spider,
        several_suits=spider and (settings.suits or 0) > 1,
    )
    columns = tuple(
        tuple(c + DOWN if i < down else c for i, c in enumerate(col))
        for col, down in zip(game.columns, game.down, strict=True)
    )
    dealt = 0
    if game.piles is not None:
        dealt = sum(1 << i for i, p in enumerate(game.piles) if not p)
    return table, columns, dealt


def settle(col: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Remove every completed King-to-Ace run at the end of col and turn what it uncovers.

    Returns the column and how many sequences went.
    """
    done = 0
    while len(col) >= SEQUENCE and not col[-1] & 15:
        top = len(col) - SEQUENCE
        if (col[top] & 15) != KING or col[top] != col[-1] + 12:
            break
        if any(col[i] != col[i + 1] + 1 for i in range(top, len(col) - 1)):
            break
        col = col[:top]
        done += 1
        if col and col[-1] >= DOWN:
            col = (*col[:-1], col[-1] - DOWN)
    return col, done


def moved(s: tuple[int, ...], d: tuple[int, ...], count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Columns s and d after moving the last count cards of s onto d: the card uncovered turns,
    a completed sequence goes."""
    ns = s[:-count]
    if ns and ns[-1] >= DOWN:
        ns = (*ns[:-1], ns[-1] - DOWN)
    nd = d + s[-count:]
    if len(nd) >= SEQUENCE and not nd[-1] & 15:
        nd = settle(nd)[0]
    return ns, nd


def play_cards(cols: Columns, src: int, count: int, dst: int) -> Columns:
    """The columns after moving the last count cards of src onto dst (assumed legal)."""
    ns, nd = moved(cols[src], cols[dst], count)
    new = list(cols)
    new[src] = ns
    new[dst] = nd
    return tuple(new)


def deal_cards(table: Table, cols: Columns, dealt: int, pile: int) -> tuple[Columns, int]:
    """The position after a deal (pile -1: the next pile or stock row)."""
    if table.piles is not None:
        if pile < 0:
            pile = next(i for i in range(len(table.piles)) if not dealt >> i & 1)
        cards = table.piles[pile]
        dealt |= 1 << pile
    else:
        assert table.stock is not None
        n = table.dealt_columns
        cards = table.stock[dealt * n : (dealt + 1) * n]
        dealt += 1
    new = list(cols)
    for i, c in enumerate(cards):
        col = new[i] + (c,)
        if len(col) >= SEQUENCE and not c & 15:
            col = settle(col)[0]
        new[i] = col
    return tuple(new), dealt


def deals(table: Table, cols: Columns, dealt: int) -> list[int]:
    """The deals allowed now: pile numbers, or [-1] for the next pile or stock row."""
    if table.piles is not None:
        left = [i for i in range(len(table.piles)) if not dealt >> i & 1 and table.piles[i]]
        if not left:
            return []
        return left if table.pile_choice else [-1]
    stock = table.stock
    if stock is not None and dealt * table.dealt_columns < len(stock):
        return [-1] if table.deal_onto_empty or all(cols[: table.dealt_columns]) else []
    return []


def card_moves(table: Table, cols: Columns, prune: bool = True, fill: bool = False) -> list[SolverMove]:
    """The card moves (src, count, dst) worth trying; every legal one when prune is False.

    Pruned away (they can matter, rarely, so a pruned search proves nothing when it runs dry):
    a group leaving a card of its suit one rank higher (it is already where it belongs), unless
    it lands on the rest of its suit and makes a longer run there (``Table.several_suits``); the
    whole of a column moving into an empty one (the same position, columns renamed); and a part
    of a run moving into an empty column, unless the card it uncovers can take a group at once.
    Of several empty dealt columns only the first is tried. With ``fill`` (a stock game whose
    deal waits for its empty columns to be filled) every part of a run may go into one.
    """
    out: list[SolverMove] = []
    run = table.run
    accepts = table.accepts
    spider = table.spider_rules
    dealt_columns = table.dealt_columns
    empties = [d for d, c in enumerate(cols) if not c]
    if prune and empties:
        first = [d for d in empties if d < dealt_columns][:1]
        empties = first + [d for d in empties if d >= dealt_columns]
    tops = [c[-1] & 15 if c else -1 for c in cols]
    if spider and prune:
        return _spider_moves(table, cols, empties, tops, fill)
    for src, s in enumerate(cols):
        if not s:
            continue
        length = run(s)
        low = s[-1] & 15
        for dst, d in enumerate(cols):
            if dst == src or not d:
                continue
            top = d[-1]
            if spider:
                k = (top & 15) - low
                if 1 <= k <= length:
                    if prune and k < len(s) and s[-k - 1] == s[-k] + 1:
                        continue
                    out.append((src, k, dst))
            else:
                for k in range(1, length + 1):
                    if accepts(top, s[-k]):
                        if prune and k < len(s) and s[-k - 1] == s[-k] + 1:
                            continue
                        out.append((src, k, dst))
        if not empties:
            continue
        whole = length == len(s)
        for dst in empties:
            king_only = table.king_only and dst < dealt_columns
            for k in range(1, length + 1):
                if king_only and (s[-k] & 15) != KING:
                    continue
                if prune and k == length:
                    if whole:
                        continue
                elif prune and not fill:
                    # a part of the run: only if the card it uncovers takes a group at once
                    under = s[-k - 1] & 15
                    if under - 1 not in tops:
                        continue
                out.append((src, k, dst))
    return out


def _spider_moves(table: Table, cols: Columns, empties: list[int], tops: list[int], fill: bool) -> list[SolverMove]:
    """card_moves for the Spider rules, pruned: the same moves in the same order, found faster.

    Pruned, a group only ever moves whole (its same-suit run: a part of it would leave a card
    of its suit one rank higher), so each column has one target rank, looked up instead of
    tried against every column.
    """
    out: list[SolverMove] = []
    by_top: dict[int, list[int]] = {}
    for dst, top in enumerate(tops):
        if top >= 0:
            by_top.setdefault(top, []).append(dst)
    king_only = table.king_only
    dealt_columns = table.dealt_columns
    consolidate = table.several_suits
    for src, s in enumerate(cols):
        if not s:
            continue
        i = len(s) - 1
        while i and s[i - 1] == s[i] + 1:
            i -= 1
        length = len(s) - i
        low = s[-1] & 15
        for dst in by_top.get(low + length, ()):
            out.append((src, length, dst))
        if consolidate:
            # A part of the run onto the rest of its suit, where it makes a longer run than here.
            for k in range(1, length):
                for dst in by_top.get(low + k, ()):
                    d = cols[dst]
                    if d[-1] == s[-k] + 1 and spider_run(d) + k > length:
                        out.append((src, k, dst))
        if not empties:
            continue
        whole = not i
        for dst in empties:
            ko = king_only and dst < dealt_columns
            for k in range(1, length + 1):
                if ko and (s[-k] & 15) != KING:
                    continue
                if k == length:
                    if whole:
                        continue
                elif not fill and (s[-k - 1] & 15) - 1 not in tops:
                    continue  # a part of the run: only if the card it uncovers takes a group at once
                out.append((src, k, dst))
    return out


def has_progress(table: Table, cols: Columns, moves: list[SolverMove]) -> bool:
    """Does any of these card moves turn a card, empty a column or build in suit?

    A pruned search deals only from positions where none does: deal when nothing useful is left.
    In a stock game a deal needs every column filled, so there emptying a column is no progress.
    """
    free = table.free
    empties_count = table.deal_onto_empty
    for src, k, dst in moves:
        s = cols[src]
        d = cols[dst]
        if k == len(s):
            if d and src != free and empties_count:
                return True
            continue
        under = s[-k - 1]
        if under >= DOWN:
            return True
        if d and d[-1] == s[-k] + 1 and under != s[-k] + 1:
            return True
    return False


def is_won(table: Table, cols: Columns, dealt: int) -> bool:
    return not any(cols) and table.reserve_left(dealt) == 0
