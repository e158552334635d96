"""A compact text notation for a whole position, that round-trips.

One line, seven fields separated by single spaces, and an eighth for an entry's renamed deal:

    COLUMNS RESERVE REVEALS SEQUENCES FREE_USED UNDOS STATE [ENTRY]

- COLUMNS: every column (free column included), deepest card first, joined by "/". A card is two
  characters as in RULES.md; a face-down card is written in lower case ("ts" is a face-down TS).
  An empty column is "-".
- RESERVE: "p:" and the draw piles joined by "," (each top card first, "-" when empty), or "s:"
  and the stock (next card first, "-" when empty), or "-" for a game with neither.
- REVEALS, SEQUENCES, UNDOS: whole numbers; FREE_USED: 0 or 1.
- STATE: "play" while the game goes on, else OUTCOME@TIME_LEFT ("won@241", "timed_out@0").
- ENTRY: "e" and the entry's ordinal ("e12"), only in a game dealt as an entry's renamed deal
  (setting ``deal_variation``, DEAL.md section 6); the cards and numbers are the entry's own.

Example (a spider78 position after one move):
    4sjs2h9s8H/.../- p:AS..,-,... 1 0 0 0 play
"""

from __future__ import annotations

from collections import Counter

from .cards import CARD_TEXTS, Card, card_text, ordered_deck, parse_card
from .errors import NotationError, SettingsError
from .game import OUTCOMES, SEQUENCE, Game
from .settings import Settings, check_entry

_UP = CARD_TEXTS
_DOWN = [text.lower() for text in CARD_TEXTS]


def _cards(cards: list[Card], down: int = 0) -> str:
    if not cards:
        return "-"
    if not down:
        return "".join([_UP[c] for c in cards])
    return "".join([_DOWN[c] for c in cards[:down]] + [_UP[c] for c in cards[down:]])


def position_text(game: Game) -> str:
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


def parse_position(settings: Settings, text: str) -> Game:
    if not isinstance(text, str):
        raise NotationError("a position is a string")
    fields = text.split(" ")
    if len(fields) not in (7, 8):
        raise NotationError(f"a position has 7 fields separated by spaces (8 with an entry), not {len(fields)}")
    cols_text, reserve, reveals, sequences, free_used, undos, state = fields[:7]
    game = Game(settings)
    if len(fields) == 8:
        if not settings.deal_variation:
            raise NotationError("an entry ('e...') belongs only to a game with deal_variation")
        game.entry = _entry(fields[7])
    parts = cols_text.split("/")
    if len(parts) != len(game.columns):
        raise NotationError(f"this game has {len(game.columns)} columns, not {len(parts)}")
    for c, part in enumerate(parts):
        cards, down = _read_cards(part, f"column {c}")
        if cards and down == len(cards):
            raise NotationError(f"column {c}: its exposed card must be face up")
        game.columns[c] = cards
        game.down[c] = down
    _read_reserve(game, reserve)
    game.reveals = _number(reveals, "reveals")
    game.sequences = _number(sequences, "sequences")
    if free_used not in ("0", "1"):
        raise NotationError("free-column mark must be 0 or 1")
    game.free_used = free_used == "1"
    game.undos_used = _number(undos, "undos")
    if state != "play":
        outcome, _, left = state.partition("@")
        if outcome not in OUTCOMES:
            raise NotationError(f"unknown state {state[:20]!r}")
        game.outcome = outcome
        game.time_left = _number(left, "time left")
    _check_cards(settings, game)
    return game


def _entry(text: str) -> int:
    digits = text[1:]
    if not (text.startswith("e") and digits.isdigit() and len(digits) <= 16):
        raise NotationError(f"the eighth field is the entry, 'e' and its ordinal, not {text[:20]!r}")
    try:
        return check_entry(int(digits))
    except SettingsError as err:
        raise NotationError(err.reason) from None


def _read_reserve(game: Game, reserve: str) -> None:
    if game.piles is not None:
        if not reserve.startswith("p:"):
            raise NotationError("this game's reserve is draw piles: 'p:...'")
        piles = reserve[2:].split(",")
        if len(piles) != len(game.piles):
            raise NotationError(f"this game has {len(game.piles)} draw piles, not {len(piles)}")
        for p, pile in enumerate(piles):
            cards, down = _read_cards(pile, f"pile {p}")
            if down:
                raise NotationError(f"pile {p}: write pile cards in upper case")
            game.piles[p] = cards
    elif game.stock is not None:
        if not reserve.startswith("s:"):
            raise NotationError("this game's reserve is a stock: 's:...'")
        cards, down = _read_cards(reserve[2:], "stock")
        if down:
            raise NotationError("stock: write stock cards in upper case")
        game.stock = cards
    elif reserve != "-":
        raise NotationError("this game has no reserve: '-'")


def _check_cards(settings: Settings, game: Game) -> None:
    """Every card of the deck is somewhere, once, or in a removed sequence."""
    rules = settings.rules
    have = Counter(c for col in game.columns for c in col)
    have.update(c for p in game.piles or [] for c in p)
    have.update(game.stock or [])
    deck = Counter(ordered_deck(rules.deck_size, settings.suits or 1))
    if sum(have.values()) + SEQUENCE * game.sequences != rules.deck_size:
        raise NotationError(
            f"{sum(have.values())} cards and {game.sequences} removed sequences do not make a deck of {rules.deck_size}"
        )
    extra = have - deck
    if extra:
        raise NotationError(f"more copies than the deck holds of {card_text(next(iter(extra)))}")
