"""The messages of knockout brackets (docs/matches.md, docs/protocol.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta, Struct, field

from ..tournaments.messages import ClubRef, EntryCode, GameSettings, OrganiserRef, RatingLimit

BreakSeconds = Annotated[int, Meta(ge=0, le=86_400)]


class BracketCreate(Struct, forbid_unknown_fields=True):
    """Organiser: create a knockout bracket. Players join until ``opens_at``; then it is seeded by
    rating and round 1 starts. ``break_seconds``: from the last game of a round over to the next
    round's start. ``rated``: each pairing's game rates its two players (the bracket as a whole never
    is). Who may join: as a tournament's (club, entry code, rating limits); ``series``: one the caller
    runs, which counts the bracket's final places."""

    name: Annotated[str, Meta(min_length=1, max_length=100)]
    opens_at: datetime
    settings: GameSettings = field(default_factory=GameSettings)
    break_seconds: BreakSeconds = 60
    club: Annotated[int, Meta(ge=1)] | None = None
    entry_code: EntryCode | None = None
    listed: bool | None = None
    rated: bool = True
    rating_min: RatingLimit | None = None
    rating_max: RatingLimit | None = None
    series: Annotated[int, Meta(ge=1)] | None = None


class BracketEdit(Struct, forbid_unknown_fields=True):
    """Organiser: change a bracket before it opens (a new commitment when the settings change). Fields
    left out stay as they are."""

    name: Annotated[str, Meta(min_length=1, max_length=100)] | None = None
    settings: GameSettings | None = None
    opens_at: datetime | None = None
    break_seconds: BreakSeconds | None = None


class BracketDisqualify(Struct, forbid_unknown_fields=True):
    """Organiser: take a player out, saying why. Before the seeding it is left out; during the bracket
    it loses its current pairing (its game ends now) and its opponent advances."""

    player: Annotated[int, Meta(ge=1)]
    reason: Annotated[str, Meta(min_length=1, max_length=200)]


class BracketPlayer(Struct):
    """A side of a pairing: ``seed`` (1: the highest), ``entry_id`` the player's game (null for a bye),
    played over ``/ws/play/{entry_id}``; ``final_score`` and ``time_left`` once the round is over
    (0 and 0 for a player absent from its game)."""

    player_id: int
    player: str
    seed: int
    entry_id: int | None
    final_score: int | None
    time_left: int | None


class BracketPairing(Struct):
    """One pairing: two players, or one (a bye: the winner); ``winner``: the player id once decided
    (null: not yet, or nobody may advance)."""

    players: list[BracketPlayer]
    winner: int | None


class BracketRound(Struct):
    round: int
    starts_at: datetime
    pairings: list[BracketPairing]


class Champion(Struct):
    player_id: int
    player: str


class Bracket(Struct):
    """A knockout bracket. ``status``: scheduled (taking entries until ``opens_at``), running,
    finished, cancelled. ``seed`` and ``salt`` are null until it is finished (or cancelled); the
    ``commitment`` covers them and the settings as a tournament's, and every round r plays the deal
    of ``<seed>/<r>``. ``size``: the power of two it was seeded into (null before)."""

    id: int
    name: str
    status: Literal["scheduled", "running", "finished", "cancelled"]
    settings: dict[str, Any]
    commitment: str
    opens_at: datetime
    break_seconds: int
    rated: bool
    seed: str | None
    salt: str | None
    entrants: int
    size: int | None
    rounds: list[BracketRound]
    champion: Champion | None
    finished_at: datetime | None = None
    organiser: OrganiserRef | None = None
    club: ClubRef | None = None
    listed: bool = True
    entry_code_needed: bool = False
    entry_code: str | None = None  # shown to its organisers (and the owner) only
    rating_min: float | None = None
    rating_max: float | None = None
    series: int | None = None
    disqualified: int = 0
