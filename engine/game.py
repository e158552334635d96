"""One game of any of the five: the position, its moves, undo, time and score (docs/rules.md)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from . import views
from .cards import KING, Card, card_text
from .deals import deal
from .errors import BadMoveError, GameOverError, IllegalMoveError, SettingsError, shown
from .moves import Deal, End, Move, MoveCards, Undo, move_from_json
from .notation import Position, parse_position, position_text
from .scores import (
    ENDED,
    FREE_COLUMN_BONUS,
    REVEAL_POINTS,
    SEQUENCE,
    SEQUENCE_POINTS,
    TIMED_OUT,
    WON,
    Result,
)
from .settings import Settings, check_entry, check_seed

# Result(...) and MoveCards(...) without the NamedTuple's Python-level __new__: the hot paths
# build one per move.
_result = _new_move = tuple.__new__

# Why an undo has nothing to take back, by what last closed the door to earlier moves.
_NOTHING_TO_UNDO = {
    "": "there is no move to take back",
    "deal": "a deal cannot be taken back, nor anything before it",
    "sequence": "a move that completed a sequence cannot be taken back, nor anything before it",
}


def _check_time(t: Any) -> float:
    if type(t) is not int and type(t) is not float:
        raise BadMoveError(f"the time must be a number of seconds, not {shown(t)}", "wrong_type")
    # An int is always finite (math.isfinite would overflow on a huge one); NaN fails t >= 0.
    if not (t >= 0 and (type(t) is int or math.isfinite(t))):
        raise BadMoveError(f"the time must be a finite number of seconds >= 0, not {shown(t)}", "out_of_range")
    return t


class Game:
    """A game in progress. Build one with ``Game(settings, seed)``; play with ``play(move, t)``.

    ``t`` is always seconds since the game started, passed in by the caller: the engine has no
    clock of its own. Leaving ``t`` out keeps the last time given (0 at the start).

    With ``settings.deal_variation`` the game is entry ``entry``'s renamed deal (docs/deal.md section 6)
    and ``entry`` (1, 2, ...) is required; without it ``entry`` is ignored. Moves and views are
    always in the game's own numbering (``spidertour.engine.deals.Renaming`` maps them to the base deal's).
    """

    __slots__ = (
        "_accepts",
        "_closed_by",
        "_dealt",
        "_final",
        "_free",
        "_group",
        "_king_only",
        "_limit",
        "_to_win",
        "_undo",
        "columns",
        "down",
        "entry",
        "free_used",
        "outcome",
        "piles",
        "reveals",
        "sequences",
        "settings",
        "stock",
        "t",
        "time_left",
        "undos_used",
    )

    def __init__(self, settings: Settings, seed: str | None = None, entry: int | None = None) -> None:
        if not isinstance(settings, Settings):
            raise TypeError("settings must be an engine.Settings")
        rules = settings.rules
        self.settings = settings
        self._dealt = rules.columns
        self._free = rules.columns if settings.free_column else -1
        self._group = rules.group
        self._accepts = rules.accepts
        self._king_only = rules.empty_takes_king_only
        self._to_win = rules.sequences_to_win
        self._limit = settings.time_limit
        self._final = settings.reveals_final
        width = rules.columns + (1 if settings.free_column else 0)
        self.columns: list[list[Card]] = [[] for _ in range(width)]
        self.down: list[int] = [0] * width
        self.piles: list[list[Card]] | None = [[] for _ in range(rules.draw_piles)] if rules.draw_piles else None
        self.stock: list[Card] | None = [] if rules.has_stock else None
        self.reveals = 0
        self.sequences = 0
        self.free_used = False
        self.undos_used = 0
        self.outcome: str | None = None
        self.time_left: int | None = None
        self.t: float = 0
        self._undo: list[tuple[int, int, int, int, bool]] = []
        self._closed_by = ""  # what last closed the undo door: "deal", "sequence", "reveal" (reveals_final)
        # The entry whose renamed deal this is (deal_variation), else None.
        self.entry: int | None = None
        if settings.deal_variation:
            if entry is None and seed is not None:
                raise SettingsError("deal_variation is on: the game needs its entry's ordinal (entry = 1, 2, ...)")
            self.entry = None if entry is None else check_entry(entry)
        if seed is not None:
            layout = deal(settings, check_seed(seed), self.entry)  # renamed for the entry with deal_variation
            self.columns, self.down, self.piles, self.stock = layout.columns, layout.down, layout.piles, layout.stock

    @classmethod
    def new(cls, seed: str, *, entry: int | None = None, **settings: Any) -> Game:
        """``Game.new("abc", variant="spider", suits=2)``: settings by keyword, defaults elsewhere."""
        return cls(Settings(**settings), seed, entry)

    # ----------------------------------------------------------------- reading the position

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def score(self) -> int:
        """25 a reveal, 100 a sequence: the score while playing."""
        return REVEAL_POINTS * self.reveals + SEQUENCE_POINTS * self.sequences

    @property
    def free_column_bonus(self) -> int:
        won_clean = self.outcome == WON and self.settings.free_column and not self.free_used
        return FREE_COLUMN_BONUS if won_clean else 0

    @property
    def time_bonus(self) -> int:
        if self.time_left is None:
            return 0
        return self.time_left * self.sequences // self._to_win

    @property
    def final_score(self) -> int | None:
        """Score + free-column bonus + time bonus once the game is over, else None."""
        if self.outcome is None:
            return None
        return self.score + self.free_column_bonus + self.time_bonus

    @property
    def can_undo(self) -> bool:
        s = self.settings
        limit_ok = s.undo_limit is None or self.undos_used < s.undo_limit
        return self.outcome is None and s.undo and limit_ok and bool(self._undo)

    @property
    def free_column(self) -> int | None:
        """Index of the free column, or None when the game has none."""
        return None if self._free < 0 else self._free

    # ----------------------------------------------------------------- playing

    def tick(self, t: float) -> bool:
        """Tell the game the time (seconds since its start). Ends it at the deadline. Returns over."""
        t = _check_time(t)
        if t < self.t:
            raise BadMoveError(f"time cannot go backwards ({t} after {self.t})", "time_backwards")
        self.t = t
        if self.outcome is None and t >= self._limit:
            self._finish(TIMED_OUT, 0)
        return self.outcome is not None

    def play(self, move: Move, t: float | None = None) -> Result:
        """Apply a move, or raise an EngineError and change nothing (but the clock)."""
        if t is not None:
            # The usual case in one comparison: a number, not backwards, before the deadline
            # (NaN and infinities fail it too). Anything else goes through tick's checks.
            if (type(t) is float or type(t) is int) and self.t <= t < self._limit:
                self.t = t
            else:
                self.tick(t)
        if self.outcome is not None:
            if self.outcome == TIMED_OUT:
                raise GameOverError("time is up: the game is over", "time_up")
            raise GameOverError(f"the game is over ({self.outcome})")
        if isinstance(move, MoveCards):
            return self._move(move.src, move.count, move.dst)
        if isinstance(move, Deal):
            return self._deal(move.pile)
        if isinstance(move, Undo):
            return self._take_back()
        if isinstance(move, End):
            self._finish(ENDED, math.floor(self._limit - self.t))
            return Result(())
        raise BadMoveError(f"not a move: {shown(move)}", "not_a_move")

    def play_json(self, obj: Any, t: float | None = None) -> Result:
        """``play`` for a move in its JSON form (a parsed object)."""
        return self.play(move_from_json(obj), t)

    def _move(self, src: int, count: int, dst: int) -> Result:
        cols = self.columns
        width = len(cols)
        if not (type(src) is int and type(count) is int and type(dst) is int):
            raise BadMoveError("a move's columns and count must be whole numbers", "wrong_type")
        if not (0 <= src < width and 0 <= dst < width):
            raise BadMoveError(f"there are only columns 0 to {width - 1}", "out_of_range")
        if count < 1:
            raise BadMoveError("'count' must be at least 1", "out_of_range")
        if src == dst:
            raise IllegalMoveError("a group cannot move onto its own column", "same_column")
        s = cols[src]
        down = self.down
        up = len(s) - down[src]
        if count > up:
            if not s:
                raise IllegalMoveError(f"column {src} is empty", "empty_column")
            raise IllegalMoveError(f"column {src} has only {up} face-up cards", "face_down")
        if count > 1 and count > self._group(s, up):
            raise IllegalMoveError(
                f"the last {count} cards of column {src} are not a group that may move together",
                "not_a_group",
            )
        first = s[-count]
        d = cols[dst]
        if d:
            if not self._accepts(d[-1], first):
                raise IllegalMoveError(f"{card_text(first)} cannot go onto {card_text(d[-1])}", "cannot_place")
        elif self._king_only and dst < self._dealt and (first & 15) != KING:
            raise IllegalMoveError("an empty column takes only a King", "king_only")
        if count == 1:
            d.append(s.pop())
        else:
            d.extend(s[-count:])
            del s[-count:]
        revealed = 0
        if s and down[src] == len(s):
            down[src] -= 1
            self.reveals += 1
            revealed = 1
        free_before = self.free_used
        if dst == self._free:
            self.free_used = True
        if (d[-1] & 15) == 0 and len(d) >= SEQUENCE:  # an Ace on top of 13 or more cards
            completed, more = self._remove_sequences(dst)
            if completed:
                self._undo.clear()
                self._closed_by = "reveal" if self._final and revealed + more > 0 else "sequence"
                self._check_win()
                return Result((src, dst), revealed + more, completed)
        if revealed and self._final:  # reveals_final: a reveal closes the door like a deal
            self._undo.clear()
            self._closed_by = "reveal"
            return _result(Result, ((src, dst), revealed, 0))
        self._undo.append((src, count, dst, revealed, free_before))
        return _result(Result, ((src, dst), revealed, 0))

    def _remove_sequences(self, c: int) -> tuple[int, int]:
        """Remove every King-to-Ace same-suit run at the end of column c; reveal what it uncovers."""
        d = self.columns[c]
        down = self.down
        completed = revealed = 0
        while len(d) - down[c] >= SEQUENCE and (d[-1] & 15) == 0:
            top = len(d) - SEQUENCE
            if (d[top] & 15) != KING or any(d[i] != d[i + 1] + 1 for i in range(top, len(d) - 1)):
                break
            del d[top:]
            completed += 1
            self.sequences += 1
            if d and down[c] == len(d):
                down[c] -= 1
                self.reveals += 1
                revealed += 1
        return completed, revealed

    def _check_win(self) -> None:
        if self.sequences >= self._to_win:
            self._finish(WON, math.floor(self._limit - self.t))

    def _deal(self, pile: int | None) -> Result:
        if pile is not None:
            if type(pile) is not int:
                raise BadMoveError(f"'pile' must be a whole number, not {shown(pile)}", "wrong_type")
            if pile < 0:
                raise BadMoveError(f"'pile' is out of range: {shown(pile)}", "out_of_range")
        if self.piles is not None:
            p = self._choose_pile(pile)
            cards = self.piles[p]
            self.piles[p] = []
        elif self.stock is not None:
            if pile is not None:
                raise BadMoveError('this game deals from its stock: send {"type": "deal"}', "no_piles")
            if not self.stock:
                raise IllegalMoveError("the stock is empty", "stock_empty")
            if not self.settings.rules.deal_onto_empty and not all(self.columns[: self._dealt]):
                raise IllegalMoveError("every column must hold a card before a deal", "empty_column")
            cards = self.stock[: self._dealt]
            del self.stock[: self._dealt]
        else:
            raise IllegalMoveError(f"{self.settings.variant} has nothing to deal", "nothing_to_deal")
        cols = self.columns
        for i, c in enumerate(cards):
            cols[i].append(c)
        revealed = completed = 0
        for i in range(len(cards)):
            if len(cols[i]) >= SEQUENCE and (cols[i][-1] & 15) == 0:
                done, more = self._remove_sequences(i)
                completed += done
                revealed += more
        self._undo.clear()
        self._closed_by = "deal"
        if completed:
            self._check_win()
        return Result(tuple(range(len(cards))), revealed, completed)

    def _choose_pile(self, pile: int | None) -> int:
        piles = self.piles
        assert piles is not None
        if self.settings.draw_pile_choice:
            if pile is None:
                raise BadMoveError(
                    f'name the draw pile to deal: {{"type": "deal", "pile": 0-{len(piles) - 1}}}',
                    "missing_field",
                )
            if pile >= len(piles):
                raise BadMoveError(f"there are only draw piles 0 to {len(piles) - 1}", "out_of_range")
            if not piles[pile]:
                raise IllegalMoveError(f"draw pile {pile} is empty", "pile_empty")
            return pile
        following = next((i for i, cards in enumerate(piles) if cards), None)
        if following is None:
            raise IllegalMoveError("every draw pile has been dealt", "pile_empty")
        if pile is not None and pile != following:
            raise IllegalMoveError(f"draw piles are dealt in order: the next is pile {following}", "wrong_pile")
        return following

    def _take_back(self) -> Result:
        s = self.settings
        if not s.undo:
            raise IllegalMoveError("undo is off in this game", "undo_off")
        if s.undo_limit is not None and self.undos_used >= s.undo_limit:
            raise IllegalMoveError(f"all {s.undo_limit} undos have been used", "undo_limit")
        if not self._undo:
            if self._closed_by == "reveal":
                raise IllegalMoveError(
                    "a revealed card stays revealed (reveals_final): the move that turned it cannot be undone, "
                    "nor anything before it",
                    "reveals_final",
                )
            raise IllegalMoveError(_NOTHING_TO_UNDO[self._closed_by], "nothing_to_undo")
        src, count, dst, revealed, free_before = self._undo.pop()
        if revealed:
            self.down[src] += 1
            self.reveals -= 1
        d = self.columns[dst]
        self.columns[src].extend(d[-count:])
        del d[-count:]
        self.free_used = free_before
        self.undos_used += 1
        return Result((src, dst), -revealed, 0)

    def rename_history(self, column: Callable[[int], int]) -> None:
        """Renumber the columns of the undo history by ``column(c)`` (see ``Renaming.apply``)."""
        self._undo = [(column(src), n, column(dst), rev, free) for src, n, dst, rev, free in self._undo]

    def _finish(self, outcome: str, time_left: int) -> None:
        self.outcome = outcome
        self.time_left = max(0, time_left)
        self._undo.clear()

    # ----------------------------------------------------------------- listing moves

    def legal_moves(self) -> Iterator[Move]:
        """Every card move and deal the rules allow now (undo: see ``can_undo``; end is always legal)."""
        if self.outcome is not None:
            return
        cols = self.columns
        down = self.down
        group = self._group
        accepts = self._accepts
        # The exposed card of every column (None: empty), and the empty columns a non-King may enter.
        tops = [d[-1] if d else None for d in cols]
        open_to_any = [not d and not (self._king_only and dst < self._dealt) for dst, d in enumerate(cols)]
        for src, s in enumerate(cols):
            up = len(s) - down[src]
            if not up:
                continue
            for count in range(1, group(s, up) + 1):
                first = s[-count]
                is_king = (first & 15) == KING
                for dst, top in enumerate(tops):
                    if dst == src:
                        continue
                    if top is None:
                        if is_king or open_to_any[dst]:
                            yield _new_move(MoveCards, (src, count, dst, "move"))
                    elif accepts(top, first):
                        yield _new_move(MoveCards, (src, count, dst, "move"))
        yield from self._legal_deals()

    def _legal_deals(self) -> Iterator[Deal]:
        if self.piles is not None:
            if self.settings.draw_pile_choice:
                yield from (Deal(p) for p, cards in enumerate(self.piles) if cards)
            elif any(self.piles):
                yield Deal()
        elif self.stock and (self.settings.rules.deal_onto_empty or all(self.columns[: self._dealt])):
            yield Deal()

    def is_legal(self, move: Move) -> bool:
        """Would ``play(move)`` be accepted now? (Checks on a copy; the game is untouched.)"""
        try:
            self.copy().play(move)
        except (BadMoveError, IllegalMoveError, GameOverError):
            return False
        return True

    # ----------------------------------------------------------------- views and copies

    def view(self) -> dict[str, Any]:
        """What the player may see: face-down cards as "??", pile tops only when shown."""
        return views.view(self)

    def column_view(self, index: int) -> list[str]:
        """One column as ``view()`` shows it."""
        return views.column_view(self, index)

    def view_fields(self, piles: bool = True) -> dict[str, Any]:
        """The fields of ``view()`` that a move may change, all but the columns (``piles``: with the draw piles)."""
        return views.view_fields(self, piles)

    def copy(self) -> Game:
        """An independent copy of the game, undo history included."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.columns = [list(c) for c in self.columns]
        other.down = list(self.down)
        other.piles = None if self.piles is None else [list(p) for p in self.piles]
        other.stock = None if self.stock is None else list(self.stock)
        other._undo = list(self._undo)
        return other

    def position(self) -> str:
        """The whole position in the engine's text notation (see ``engine.notation``)."""
        return position_text(self)

    @classmethod
    def from_position(cls, settings: Settings, text: str) -> Game:
        """A game at the position ``text`` describes (no undo history)."""
        position = parse_position(settings, text)
        game = cls(settings)
        for name in Position.__slots__:  # columns, down, piles, stock, counters, outcome, entry
            setattr(game, name, getattr(position, name))
        return game

    def __repr__(self) -> str:
        return f"<Game {self.settings.variant} {self.position()!r}>"


__all__ = ["ENDED", "TIMED_OUT", "WON", "Deal", "End", "Game", "MoveCards", "Result", "Undo"]
