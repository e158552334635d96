"""The series' messages over HTTP."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from ...communities.messages import ClubRef as ClubRef
from ...communities.messages import OrganiserRef as OrganiserRef

MAX_PLACES = 100  # places a points list may name
MAX_PLACE_POINTS = 1_000_000
Points = (
    Literal["field"]
    | Annotated[list[Annotated[int, Meta(ge=0, le=MAX_PLACE_POINTS)]], Meta(min_length=1, max_length=MAX_PLACES)]
)


class SeriesCreate(Struct, forbid_unknown_fields=True):
    """Organiser: a new series. ``points``: "field" (a ranked entrant scores ranked entrants - rank + 1)
    or a list (the k-th place scores the k-th number, 0 past its end); ``best_of``: only a player's
    best N results count (null: all); ``club``: a club the caller organises, whose tournaments alone
    it then takes."""

    name: Annotated[str, Meta(min_length=1, max_length=100)]
    points: Points = "field"
    best_of: Annotated[int, Meta(ge=1, le=10_000)] | None = None
    club: Annotated[int, Meta(ge=1)] | None = None


class SeriesTournamentAdd(Struct, forbid_unknown_fields=True):
    """Organiser: a tournament it runs joins one of its series."""

    tournament: Annotated[int, Meta(ge=1)]


class Series(Struct):
    id: int
    name: str
    points: Literal["field"] | list[int]
    best_of: int | None
    club: ClubRef | None  # only this club's tournaments join
    organiser: OrganiserRef | None  # who runs it; null: the owner
    tournaments: list[int]  # its tournaments, oldest first (an unlisted one for those who see it listed)


class SeriesStanding(Struct):
    """One player's line in a series' table. ``counted``: results counted under best_of;
    ``played``: every result (a disqualified entry's too, which scores 0); ``best_rank``: null when
    every result was disqualified."""

    player_id: int
    player: str
    handle: str | None
    points: int
    counted: int
    played: int
    best_rank: int | None
    profile: bool = True  # anyone may read the player's profile (false: a private one, kept to its clubs)
