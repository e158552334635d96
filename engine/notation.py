"""A compact text notation for a whole position, that round-trips.

One line, seven fields separated by single spaces, and an eighth for an entry's renamed deal:

    COLUMNS RESERVE REVEALS SEQUENCES FREE_USED UNDOS STATE [ENTRY]

- COLUMNS: every column (free column included), deepest card first, joined by "/". A card is two
  characters as in docs/rules.md; a face-down card is written in lower case ("ts" is a face-down TS).
  An empty column is "-".
- RESERVE: "p:" and the draw piles joined by "," (each top card first, "-" when empty), or "s:"
  and the stock (next card first, "-" when empty), or "-" for a game with neither.
- REVEALS, SEQUENCES, UNDOS: whole numbers; FREE_USED: 0 or 1.
- STATE: "play" while the game goes on, else OUTCOME@TIME_LEFT ("won@241", "timed_out@0").
- ENTRY: "e" and the entry's ordinal ("e12"), only in a game dealt as an entry's renamed deal
  (setting ``deal_variation``, docs/deal.md section 6); the cards and numbers are the entry's own.

Example (a spider78 position after one move):
    4sjs2h9s8H/.../- p:AS..,-,... 1 0 0 0 play

This module reads and writes the text only; ``Game.position()`` and ``Game.from_position()`` are
the game's side of it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from .cards import CARD_TEXTS, Card, card_text, ordered_deck, parse_card
from .errors import NotationError, SettingsError
from .scores import OUTCOMES, SEQUENCE
from .settings import Settings, check_entry

_UP = CARD_TEXTS
_DOWN = [text.lower() for text in CARD_TEXTS]


class Positioned(Protocol):
    """What the notation reads of a position (a ``Game`` is one)."""

    @property
    def columns(self) -> list[list[Card]]: ...
    @property
    def down(self) -> list[int]: ...
    @property
    def piles(self) -> list[list[Card]] | None: ...
    @property
    def stock(self) -> list[Card] | None: ...
    @property
    def reveals(self) -> int: ...
    @property
    def sequences(self) -> int: ...
    @property
    def free_used(self) -> bool: ...
    @property
    def undos_used(self) -> int: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def time_left(self) -> int | None: ...
    @property
    def entry(self) -> int | None: ...


@dataclass(slots=True)
class Position:
    """A position read from its text: every field a ``Game`` needs to stand at it."""

    columns: list[list[Card]]
    down: list[int]
    piles: list[list[Card]] | None
    stock: list[Card] | None
    reveals: int
    sequences: int
    free_used: bool
    undos_used: int
    outcome: str | None
    time_left: int | None
    entry: int | None


def _cards(cards: list[Card], down: int = 0) -> str:
    if not cards:
        return "-"
    if not down:
        return "".join([_UP[c] for c in cards])
    return "".join([_DOWN[c] for c in cards[:down]] + [_UP[c] for c in cards[down:]])


def position_text(game: Positioned) -> str:
    cols = "/".join(_cards(c, d) for c, d in zip(game.columns, game.down, strict=True))
    if game.piles is not None:
        reserve = "p:" + ",".join(_cards(p) for p in game.piles)
    elif game.stock is not None:
        reserve = "s:" + _cards(game.stock)
    else:
        reserve = "-"
    state = "play" if game.outcome is None else f"{game.outcome}@{game.time_left}"
    counters = f"{game.reveals} {game.sequences} {int(game.free_used)} {game.undos_used}"
    entry = "" if game.entry is None else f" e{game.entry}"
    return f"{cols} {reserve} {counters} {state}{entry}"


def _read_cards(text: str, what: str) -> tuple[list[Card], int]:
    """Cards of one column or pile, and how many at its start are face down (lower case)."""
    if text == "-":
        return [], 0
    if len(text) % 2:
        raise NotationError(f"{what}: odd number of characters in {text[:40]!r}")
    cards: list[Card] = []
    down = 0
    for i in range(0, len(text), 2):
        pair = text[i : i + 2]
        try:
            cards.append(parse_card(pair))
        except ValueError:
            raise NotationError(f"{what}: {pair!r} is not a card") from None
        if pair.islower():
            if down != len(cards) - 1:
                raise NotationError(f"{what}: a face-down card lies on a face-up one")
            down += 1
        elif not pair.isupper():
            raise NotationError(f"{what}: {pair!r} mixes upper and lower case")
    return cards, down


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise NotationError(f"{what} must be a whole number, not {text[:20]!r}")
    return int(text)


def parse_position(settings: Settings, text: str) -> Position:
    """Read a position of a game with these settings; NotationError for anything else."""
    if not isinstance(text, str):
        raise NotationError("a position is a string")
    fields = text.split(" ")
    if len(fields) not in (7, 8):
        raise NotationError(f"a position has 7 fields separated by spaces (8 with an entry), not {len(fields)}")
    cols_text, reserve, reveals, sequences, free_used, undos, state = fields[:7]
    entry = None
    if len(fields) == 8:
        if not settings.deal_variation:
            raise NotationError("an entry ('e...') belongs only to a game with deal_variation")
        entry = _entry(fields[7])
    rules = settings.rules
    width = rules.columns + (1 if settings.free_column else 0)
    parts = cols_text.split("/")
    if len(parts) != width:
        raise NotationError(f"this game has {width} columns, not {len(parts)}")
    columns: list[list[Card]] = []
    down: list[int] = []
    for c, part in enumerate(parts):
        cards, hidden = _read_cards(part, f"column {c}")
        if cards and hidden == len(cards):
            raise NotationError(f"column {c}: its exposed card must be face up")
        columns.append(cards)
        down.append(hidden)
    piles, stock = _read_reserve(settings, reserve)
    reveal_count = _number(reveals, "reveals")
    sequence_count = _number(sequences, "sequences")
    if free_used not in ("0", "1"):
        raise NotationError("free-column mark must be 0 or 1")
    undo_count = _number(undos, "undos")
    outcome: str | None = None
    time_left: int | None = None
    if state != "play":
        outcome, _, left = state.partition("@")
        if outcome not in OUTCOMES:
            raise NotationError(f"unknown state {state[:20]!r}")
        time_left = _number(left, "time left")
    position = Position(
        columns=columns,
        down=down,
        piles=piles,
        stock=stock,
        reveals=reveal_count,
        sequences=sequence_count,
        free_used=free_used == "1",
        undos_used=undo_count,
        outcome=outcome,
        time_left=time_left,
        entry=entry,
    )
    _check_cards(settings, position)
    return position


def _entry(text: str) -> int:
    digits = text[1:]
    if not (text.startswith("e") and digits.isdigit() and len(digits) <= 16):
        raise NotationError(f"the eighth field is the entry, 'e' and its ordinal, not {text[:20]!r}")
    try:
        return check_entry(int(digits))
    except SettingsError as err:
        raise NotationError(err.reason) from None


def _read_reserve(settings: Settings, reserve: str) -> tuple[list[list[Card]] | None, list[Card] | None]:
    rules = settings.rules
    if rules.draw_piles:
        if not reserve.startswith("p:"):
            raise NotationError("this game's reserve is draw piles: 'p:...'")
        texts = reserve[2:].split(",")
        if len(texts) != rules.draw_piles:
            raise NotationError(f"this game has {rules.draw_piles} draw piles, not {len(texts)}")
        piles = []
        for p, pile in enumerate(texts):
            cards, down = _read_cards(pile, f"pile {p}")
            if down:
                raise NotationError(f"pile {p}: write pile cards in upper case")
            piles.append(cards)
        return piles, None
    if rules.has_stock:
        if not reserve.startswith("s:"):
            raise NotationError("this game's reserve is a stock: 's:...'")
        cards, down = _read_cards(reserve[2:], "stock")
        if down:
            raise NotationError("stock: write stock cards in upper case")
        return None, cards
    if reserve != "-":
        raise NotationError("this game has no reserve: '-'")
    return None, None


def _check_cards(settings: Settings, position: Position) -> None:
    """Every card of the deck is somewhere, once, or in a removed sequence."""
    rules = settings.rules
    have = Counter(c for col in position.columns for c in col)
    have.update(c for p in position.piles or [] for c in p)
    have.update(position.stock or [])
    deck = Counter(ordered_deck(rules.deck_size, settings.suits or 1))
    if sum(have.values()) + SEQUENCE * position.sequences != rules.deck_size:
        raise NotationError(
            f"{sum(have.values())} cards and {position.sequences} removed sequences do not make a deck "
            f"of {rules.deck_size}"
        )
    extra = have - deck
    if extra:
        raise NotationError(f"more copies than the deck holds of {card_text(next(iter(extra)))}")
