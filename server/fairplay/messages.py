"""The organiser's integrity report as the API sends it (``GET /api/tournaments/{id}/integrity``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from msgspec import Struct


class FlaggedEntry(Struct):
    entry_id: int
    ordinal: int
    player_id: int
    player: str
    status: str
    score: int  # the final score once over, else the score so far


class SharedAddress(Struct, tag="shared_address"):
    """Entries of different players seen at one client address (kept only as a keyed hash)."""

    address: str  # a short name for the address's keyed hash: the same address, the same name
    seen_at: Literal["registration", "join", "play"]  # which request came from that address
    entries: list[FlaggedEntry]
    summary: str


class Peek(Struct):
    """A move that turned a card face up, taken back by an undo soon after."""

    move: int  # the revealing move's number (1, 2, ... within the entry)
    t: float  # its time, seconds since the game started
    column: int  # the column whose card it turned
    undo_move: int
    undo_t: float
    seconds: float  # between the two


class UndoPeeks(Struct, tag="undo_peek"):
    entry: FlaggedEntry
    peeks: list[Peek]
    summary: str


class DealEvidence(Struct):
    move: int
    t: float
    pile: int | None  # the draw pile dealt (spider78), null for a stock deal


class Scout(Struct, tag="scout"):
    """An entry that dealt most of its piles within seconds of starting, then ended or idled."""

    entry: FlaggedEntry
    deals: list[DealEvidence]
    then: Literal["ended", "idled"]
    then_move: int | None  # the `end` move's number (ended), or the last move before the pause (idled)
    then_t: float  # when it ended, or when the pause began
    idle_seconds: float | None  # how long nothing happened after then_t (idled)
    summary: str


Flag = SharedAddress | UndoPeeks | Scout


class Thresholds(Struct):
    peek_seconds: float  # a revealing move undone within this many seconds is a peek
    scout_seconds: float  # deals within this many seconds of the start count towards scouting
    scout_deals: int  # this many deals (more than half the game's) within scout_seconds ...
    idle_seconds: float  # ... then an end, or nothing for this long


class IntegrityReport(Struct):
    """The organiser's evidence about one tournament: flags to look into, never verdicts."""

    tournament_id: int
    name: str
    status: str
    generated_at: datetime
    entries: int
    thresholds: Thresholds
    flags: list[Flag]
