"""An entry's renamed deal (docs/deal.md section 6, setting ``deal_variation``).

With ``deal_variation`` every entry plays the tournament's deal renamed: suits relabelled,
columns of equal height swapped among themselves, draw piles reordered. A ``Renaming`` holds the
three maps for one entry and carries cards, moves and whole games from the base deal's numbering
(the deal of docs/deal.md section 4) to the entry's, and back:

    >>> r = Renaming.of(Settings(variant="spider78", suits=2, deal_variation=True), "abc", 2)
    >>> r.move(MoveCards(0, 1, 6))     # base numbering -> the entry's
    >>> r.move_back(Deal(3))           # the entry's numbering -> base

Every play of the base deal, mapped move by move, is a play of the entry's deal with the same
score and outcome at every step, and the same board up to the renaming (``game``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

from ..cards import CARD_TEXTS, HIDDEN, Card, parse_card
from ..moves import Deal, Move, MoveCards
from ..settings import Settings, check_entry, check_seed
from .shuffle import random_stream, uniform


class Renamable(Protocol):
    """What a renaming changes of a game in place (a ``Game`` is one)."""

    settings: Settings
    columns: list[list[Card]]
    down: list[int]
    piles: list[list[Card]] | None
    stock: list[Card] | None

    def rename_history(self, column: Callable[[int], int]) -> None: ...


class Copyable(Renamable, Protocol):
    """A game that can be copied and viewed (a ``Game`` is one)."""

    def copy(self) -> Self: ...

    def view(self) -> dict[str, Any]: ...


G = TypeVar("G", bound=Copyable)


def permutation(stream: Iterator[int], n: int) -> list[int]:
    """docs/deal.md section 6: [0 .. n-1], shuffled from the end by the stream (n < 2 draws nothing)."""
    p = list(range(n))
    for i in range(n - 1, 0, -1):
        j = uniform(stream, i + 1)
        p[i], p[j] = p[j], p[i]
    return p


def column_groups(layout: tuple[int, ...]) -> list[range]:
    """Maximal runs of neighbouring columns dealt the same number of cards, left to right."""
    groups: list[range] = []
    start = 0
    for c in range(1, len(layout) + 1):
        if c == len(layout) or layout[c] != layout[start]:
            groups.append(range(start, c))
            start = c
    return groups


def _inverse(p: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(p)
    for i, target in enumerate(p):
        out[target] = i
    return tuple(out)


def _card_table(suits: tuple[int, ...]) -> tuple[Card, ...]:
    """The renamed card of every card number (suit * 16 + rank); numbers no card has map to themselves."""
    return tuple(suits[c >> 4] * 16 + (c & 15) if (c & 15) < 13 else c for c in range(64))


@dataclass(frozen=True, slots=True)
class Renaming:
    """One entry's renaming.

    ``suits[s]``: the suit (0-3, as in ``engine.cards``) that base suit ``s`` becomes;
    ``sigma[c]``: the column base column ``c`` becomes (the free column, if any, stays put);
    ``piles[p]``: the position base draw pile ``p`` moves to (empty for games without piles).
    """

    suits: tuple[int, ...]
    sigma: tuple[int, ...]
    piles: tuple[int, ...]
    table: tuple[Card, ...] = field(init=False, repr=False, compare=False)  # every card number renamed

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", _card_table(self.suits))

    @classmethod
    def of(cls, settings: Settings, seed: str, entry: int) -> Renaming:
        """The renaming of entry ``entry`` (1, 2, ...) of a tournament with this seed (docs/deal.md section 6)."""
        check_seed(seed)
        check_entry(entry)
        rules = settings.rules
        stream = random_stream(f"{seed}:entry:{entry}")
        n = settings.suits or 1
        suits = tuple(permutation(stream, n)) + tuple(range(n, 4))
        sigma = list(range(rules.columns + (1 if settings.free_column else 0)))
        for group in column_groups(rules.layout):
            within = permutation(stream, len(group))
            for i, c in enumerate(group):
                sigma[c] = group.start + within[i]
        if rules.draw_piles and settings.draw_pile_choice:
            piles = tuple(permutation(stream, rules.draw_piles))
        else:
            piles = tuple(range(rules.draw_piles))
        return cls(suits, tuple(sigma), piles)

    @classmethod
    def identity(cls, settings: Settings) -> Renaming:
        """The renaming that changes nothing (every entry's, with ``deal_variation`` off)."""
        width = settings.rules.columns + (1 if settings.free_column else 0)
        return cls(tuple(range(4)), tuple(range(width)), tuple(range(settings.rules.draw_piles)))

    def inverse(self) -> Renaming:
        """The renaming that takes the entry's numbering back to the base deal's."""
        return Renaming(_inverse(self.suits), _inverse(self.sigma), _inverse(self.piles))

    # ------------------------------------------------------------------ cards and moves

    def card(self, c: Card) -> Card:
        """A base card as the entry sees it (its suit renamed)."""
        return self.table[c]

    def card_back(self, c: Card) -> Card:
        return self.inverse().card(c)

    def card_text(self, text: str) -> str:
        """``card`` on a card's text; "??" stays "??"."""
        if text == HIDDEN:
            return text
        return CARD_TEXTS[self.card(parse_card(text))]

    def column(self, c: int) -> int:
        """Where base column ``c`` goes; a number past the last column is left as it is."""
        return self.sigma[c] if type(c) is int and 0 <= c < len(self.sigma) else c

    def pile(self, p: int | None) -> int | None:
        """Where base draw pile ``p`` goes; None and numbers past the last pile are left as they are."""
        return self.piles[p] if type(p) is int and 0 <= p < len(self.piles) else p

    def move(self, move: Move) -> Move:
        """A move in base numbering as the same move in the entry's (undo and end are unchanged).

        Out-of-range numbers are kept, so a move the base game refuses the entry's game refuses too.
        """
        if isinstance(move, MoveCards):
            return MoveCards(self.column(move.src), move.count, self.column(move.dst))
        if isinstance(move, Deal):
            return Deal(self.pile(move.pile))
        return move

    def move_back(self, move: Move) -> Move:
        """A move in the entry's numbering as the same move in base numbering."""
        return self.inverse().move(move)

    def move_json(self, obj: dict[str, Any]) -> dict[str, Any]:
        """``move`` on a move's JSON form, every other field (``t``, ...) kept as it is."""
        out = dict(obj)
        if obj.get("type") == "move":
            for name in ("from", "to"):
                if name in obj:
                    out[name] = self.column(obj[name])
        elif obj.get("type") == "deal" and "pile" in obj:
            out["pile"] = self.pile(obj["pile"])
        return out

    # ------------------------------------------------------------------ whole games

    def apply(self, game: Renamable) -> None:
        """Rename a game in place: cards, columns, draw piles, stock rows and undo history.

        Every draw pile and the stock must hold whole rows (one card per dealt column), as they
        always do in play; ValueError otherwise.
        """
        table = self.table
        sigma = self.sigma
        width = len(sigma)
        if len(game.columns) != width:
            raise ValueError(f"a renaming of {width} columns does not fit a game of {len(game.columns)}")
        columns: list[list[Card]] = [[] for _ in range(width)]
        down = [0] * width
        for c in range(width):
            columns[sigma[c]] = [table[x] for x in game.columns[c]]
            down[sigma[c]] = game.down[c]
        game.columns = columns
        game.down = down
        dealt = game.settings.rules.columns
        if game.piles is not None:
            piles: list[list[Card]] = [[] for _ in game.piles]
            for p, pile in enumerate(game.piles):
                piles[self.piles[p]] = self._row(pile, dealt, table) if pile else []
            game.piles = piles
        if game.stock is not None:
            if len(game.stock) % dealt:
                raise ValueError("only a stock of whole rows can be renamed")
            stock = game.stock
            game.stock = [x for i in range(0, len(stock), dealt) for x in self._row(stock[i : i + dealt], dealt, table)]
        game.rename_history(self.column)

    def _row(self, row: list[Card], dealt: int, table: tuple[Card, ...]) -> list[Card]:
        """One card per dealt column: the card for column i moves to position sigma(i)."""
        if len(row) != dealt:
            raise ValueError("only draw piles of one card per column can be renamed")
        out = [0] * dealt
        for i, x in enumerate(row):
            out[self.sigma[i]] = table[x]
        return out

    def game(self, base: G) -> G:
        """A copy of a game in base numbering, renamed: the same position as the entry sees it."""
        renamed = base.copy()
        self.apply(renamed)
        return renamed

    def view(self, base: Copyable) -> dict[str, Any]:
        """The view the entry has of a base game's position.

        It takes the game, not the base game's view: a waiting draw pile shows the card that lands
        on column 0, and after the renaming that is a card the base view does not show.
        """
        return self.game(base).view()


__all__ = ["Renaming", "column_groups", "permutation"]
