"""Cards as small integers, and their text form (docs/rules.md "Cards and notation").

A card is ``suit * 16 + rank`` with rank 0 (Ace) to 12 (King) and suit 0 to 3 (S, H, D, C).
With that packing, ``lower == upper - 1`` holds exactly when ``lower`` is the same suit and one
rank below ``upper``: an Ace minus one lands on rank 15 of the previous suit, which no card has.
"""

from __future__ import annotations

from functools import lru_cache

RANKS = "A23456789TJQK"
SUITS = "SHDC"
HIDDEN = "??"
KING = 12
ACE = 0

Card = int


def card(rank: int, suit: int) -> Card:
    return suit * 16 + rank


def rank_of(c: Card) -> int:
    return c & 15


def suit_of(c: Card) -> int:
    return c >> 4


_TEXT = {card(r, s): RANKS[r] + SUITS[s] for s in range(4) for r in range(13)}
_PARSE = {t: c for c, t in _TEXT.items()}
# The text of every card, indexed by the card itself ("" where no card has that number).
CARD_TEXTS = [_TEXT.get(c, "") for c in range(64)]


def card_text(c: Card) -> str:
    return _TEXT[c]


def parse_card(text: str) -> Card:
    """``"TH"`` -> the Ten of hearts. Raises ValueError for anything else."""
    try:
        return _PARSE[text.upper()]
    except (KeyError, AttributeError):
        raise ValueError(f"not a card: {text!r}") from None


def suits_in_use(n: int) -> str:
    """docs/deal.md section 1: the suits a deck of ``n`` suits uses, in deck order."""
    return {1: "S", 2: "SH", 4: "SHDC"}[n]


def ordered_deck(size: int, suit_count: int) -> list[Card]:
    """The unshuffled deck of docs/deal.md section 1."""
    return list(_ordered_deck(size, suit_count))


@lru_cache(maxsize=64)
def _ordered_deck(size: int, suit_count: int) -> tuple[Card, ...]:
    suits = [SUITS.index(s) for s in suits_in_use(suit_count)]
    copies, rest = divmod(size, 13 * suit_count)
    if rest:
        raise ValueError(f"a deck of {size} cards cannot hold {suit_count} suits evenly")
    return tuple(card(r, s) for _ in range(copies) for s in suits for r in range(13))
