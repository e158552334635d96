"""From a seed to a deal (docs/deal.md): the random stream and the shuffle, the deal laid out, and an
entry's renamed deal (setting ``deal_variation``).

    >>> layout = deal(Settings(variant="spider78", suits=2), "abc")
    >>> layout.columns[0], layout.piles[0]
"""

from __future__ import annotations

from ..cards import ordered_deck
from ..errors import SettingsError
from ..settings import Settings, check_entry, check_seed
from .layout import Layout, lay_out
from .shuffle import random_stream, shuffled, uniform
from .variation import Renaming


def deal(settings: Settings, seed: str, entry: int | None = None) -> Layout:
    """The deal of ``seed`` under ``settings``; with ``deal_variation``, entry ``entry``'s renamed
    deal (``entry`` required then, ignored otherwise)."""
    check_seed(seed)
    rules = settings.rules
    layout = lay_out(settings, shuffled(ordered_deck(rules.deck_size, settings.suits or 1), seed))
    if settings.deal_variation:
        if entry is None:
            raise SettingsError("deal_variation is on: the game needs its entry's ordinal (entry = 1, 2, ...)")
        Renaming.of(settings, seed, check_entry(entry)).apply(layout)
    return layout


__all__ = ["Layout", "Renaming", "deal", "random_stream", "shuffled", "uniform"]
