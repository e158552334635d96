"""From a seed to a shuffled deck, exactly as docs/deal.md sections 2 and 3 say."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator

_TWO64 = 1 << 64
_FOUR_U64 = struct.Struct(">4Q")  # one 32-byte block: four unsigned 64-bit integers, big-endian
# limit = 2^64 - (2^64 mod n) for every n a deck of up to 208 cards asks for, worked out once.
_LIMITS = [0] + [_TWO64 - _TWO64 % n for n in range(1, 209)]


def random_stream(seed: str) -> Iterator[int]:
    """Unsigned 64-bit integers: block k is SHA-256(seed + ":" + k), read big-endian."""
    base = seed.encode("utf-8") + b":"
    sha256 = hashlib.sha256
    unpack = _FOUR_U64.unpack
    k = 0
    while True:
        yield from unpack(sha256(base + str(k).encode("ascii")).digest())
        k += 1


def _limit(n: int) -> int:
    return _LIMITS[n] if n < len(_LIMITS) else _TWO64 - _TWO64 % n


def uniform(stream: Iterator[int], n: int) -> int:
    """A fair whole number in 0 .. n-1, by rejection above the last full multiple of n."""
    limit = _limit(n)
    while True:
        x = next(stream)
        if x < limit:
            return x % n


def shuffled(deck: list[int], seed: str) -> list[int]:
    """Fisher-Yates from the end, drawing from the seed's stream. Returns a new list."""
    cards = list(deck)
    stream = random_stream(seed)
    limits = _LIMITS if len(cards) <= len(_LIMITS) else [_limit(n) for n in range(len(cards) + 1)]
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = limits[n]  # uniform(stream, n), written out: this loop is every new game's cost
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards
