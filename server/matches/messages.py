"""The messages of matches (docs/matches.md, docs/protocol.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from msgspec import Struct

from ..tournaments.messages import Entry


class MatchAsk(Struct, forbid_unknown_fields=True):
    """Ask for a match: seated in the oldest waiting one of the format within one's band, else host of a new one."""

    format: str


class MatchFormatOut(Struct):
    """A format matches are played in: game settings as a tournament's, ``seats`` players (2 to 8);
    ``waiting``/``playing``: its matches now with a free seat, and with every seat taken and not over."""

    name: str
    settings: dict[str, Any]
    seats: int
    rated: bool
    waiting: int
    playing: int


class MatchPlayer(Struct):
    """A seat: ``status`` is waiting, playing or done until the match is over (nothing more of the
    game); then ``final_score``, ``time_left``, ``rank`` (shared by a draw) and ``rating_after`` (the
    ordinal in the format's game after the match; null when unrated). ``rating``: the ordinal before.
    ``shown`` and ``shown_after``: those ratings as shown (1000 + 40 x ordinal, rounded);
    ``provisional``: the rating shown last is still provisional (under 5 rated games)."""

    seat: int
    player_id: int
    player: str
    rating: float
    status: str
    entry_id: int | None = None  # the caller's own seat only (its play socket); every seat once over
    final_score: int | None = None
    time_left: int | None = None
    rank: int | None = None
    rating_after: float | None = None
    shown: int = 1000
    shown_after: int | None = None
    provisional: bool = True


class Match(Struct):
    """A match: ``status`` waiting, playing, over or unmatched. ``seed`` and ``salt`` are null until it
    is over or unmatched; the ``commitment`` covers salt, seed and settings exactly as a tournament's
    (``tournament_id``: the tournament that backs it, verifiable as any once over)."""

    id: int
    format: str
    seats: int
    status: str
    settings: dict[str, Any]
    commitment: str
    created_at: datetime
    over_at: datetime | None
    seed: str | None
    salt: str | None
    tournament_id: int
    players: list[MatchPlayer]


class MatchSeat(Struct):
    """The answer to an ask: the match and the caller's seat, played over ``/ws/play/{entry.id}``."""

    match: Match
    entry: Entry
