"""Organisers' and clubs' messages over HTTP."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta, Struct

Name = Annotated[str, Meta(min_length=1, max_length=80)]
MAX_ROSTER = 200  # lines of one roster: each code is hashed with argon2id, a fifth of a second apiece


class OrganiserCreate(Struct, forbid_unknown_fields=True):
    """Owner: a new organiser."""

    name: Name


class OrganiserCreated(Struct):
    id: int
    name: str
    token: str  # shown once: the server keeps only its hash


class Organiser(Struct):
    id: int
    name: str
    created_at: datetime
    revoked_at: datetime | None  # its token is refused from then on


class OrganiserRef(Struct):
    """Who runs a tournament or a club."""

    id: int
    name: str


class ClubRef(Struct):
    """The club a tournament or schedule belongs to."""

    id: int
    name: str


class ClubCreate(Struct, forbid_unknown_fields=True):
    """Organiser: a new club, organised by its creator."""

    name: Name


class Club(Struct):
    id: int
    name: str
    organisers: list[OrganiserRef]
    members: int  # how many


class ClubOrganiserAdd(Struct, forbid_unknown_fields=True):
    """A club's organiser: add another organiser to the club."""

    organiser: Annotated[int, Meta(ge=1)]


class Member(Struct):
    player_id: int
    name: str
    handle: str | None
    joined_at: datetime
    roster: bool  # made by this club's roster: the club replaces its code and may make its profile public
    profile_public: bool  # false: its profile is shown to itself and its clubs only


class ProfileVisibility(Struct, forbid_unknown_fields=True):
    """A player's profile made public (anyone reads it) or private (itself and its clubs only)."""

    public: bool


class ProfileShown(Struct):
    player_id: int
    public: bool


class RosterNames(Struct, forbid_unknown_fields=True):
    """A roster as JSON: one member account per name (handles generated)."""

    names: Annotated[list[str], Meta(min_length=1, max_length=MAX_ROSTER)]


class MemberCode(Struct):
    """A member account and its sign-in code, shown once (for printing)."""

    player_id: int
    name: str
    handle: str
    code: str


class Roster(Struct):
    members: list[MemberCode]


class Invite(Struct):
    """A club's invite code: a player with an account joins the club with it."""

    invite: str


class ClubJoin(Struct, forbid_unknown_fields=True):
    invite: Annotated[str, Meta(min_length=1, max_length=64)]
