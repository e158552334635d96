"""Organisers' and clubs' messages over HTTP."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta, Struct

Name = Annotated[str, Meta(min_length=1, max_length=80)]
MAX_ROSTER = 200  # lines of one roster: each code is hashed with argon2id, a fifth of a second apiece


class OrganiserCreate(Struct, forbid_unknown_fields=True):
    """Owner: one of ``name`` (a new organiser with a token of its own), ``player`` (an account, by
    id) or ``handle`` (an account, by handle): the account's sessions carry the organiser's rights."""

    name: Name | None = None
    player: Annotated[int, Meta(ge=1)] | None = None
    handle: Annotated[str, Meta(min_length=1, max_length=40)] | None = None


class OrganiserCreated(Struct, omit_defaults=True):
    id: int
    name: str
    token: str | None = None  # a token organiser's, shown once: the server keeps only its hash
    player_id: int | None = None  # an account organiser's account (it has no token)


class Organiser(Struct):
    id: int
    name: str
    created_at: datetime
    revoked_at: datetime | None  # its token, or its account's rights, refused from then on
    player_id: int | None = None  # the account whose sessions carry its rights (None: a token organiser)


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
    public_names: bool = False  # the public sees its roster members' full names and handles, not initials


class ClubEdit(Struct, forbid_unknown_fields=True):
    """A club's organiser: whether the public sees the full names and handles of the members its
    roster made (else their names as initials, "Ann S.", and no handle)."""

    public_names: bool


class ClubOrganiserAdd(Struct, forbid_unknown_fields=True):
    """A club's organiser: add another organiser to the club."""

    organiser: Annotated[int, Meta(ge=1)]


class Member(Struct):
    player_id: int
    name: str  # in full, as its roster gave it
    shown_as: str  # the name the public sees ("Ann S." while its roster's club keeps names from the public)
    handle: str | None
    handle_shown: bool  # whether the public sees its handle
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
    signin_url: str | None = None  # where the members sign in: the web client's sign-in page


class RosterChecked(Struct):
    """A roster checked and found fine (``?check=true``): how many members it would make; nothing created."""

    lines: int
    created: int = 0


class CodesAgain(Struct, forbid_unknown_fields=True):
    """A club's organiser: new sign-in codes for these members of its roster (player ids)."""

    members: Annotated[list[Annotated[int, Meta(ge=1)]], Meta(min_length=1, max_length=MAX_ROSTER)]


class CodeSheet(Struct):
    """Fresh codes to print as slips, each shown once: the club, where to sign in, and per member its
    name, handle and code."""

    club: ClubRef
    signin_url: str  # the web client's sign-in page on this server
    members: list[MemberCode]


class Invite(Struct):
    """A club's invite code: a player with an account joins the club with it."""

    invite: str


class ClubJoin(Struct, forbid_unknown_fields=True):
    invite: Annotated[str, Meta(min_length=1, max_length=64)]


class OrganisedItem(Struct, omit_defaults=True):
    """One thing an organiser manages. ``status``: a tournament's or bracket's (scheduled, open,
    closing, finished, cancelled), a schedule's (active, stopped), a series' or club's phase;
    ``phase``: running, coming or finished. Counts: ``entries`` (a tournament's or bracket's
    entrants), ``tournaments`` (a schedule's, series' or club's), ``members`` (a club's)."""

    kind: str  # tournament, bracket, schedule, series or club
    id: int
    name: str
    status: str
    phase: str
    club_id: int | None
    created_at: datetime
    opens_at: datetime | None = None  # a schedule's: its first opening
    closes_at: datetime | None = None
    entries: int | None = None
    members: int | None = None
    tournaments: int | None = None


class Organised(Struct):
    """A page of what the caller organises, newest first, and ``counts``: kind -> phase -> how many."""

    items: list[OrganisedItem]
    counts: dict[str, dict[str, int]]
    offset: int
    limit: int
