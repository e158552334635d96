"""What registering, signing in and asking about oneself send and answer."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

Name = Annotated[str, Meta(min_length=1, max_length=40)]
# Small letters, digits, _ and -; capitals are taken and folded to small letters (Ann is ann). The
# pattern is searched for (re.search), and "$" also matches before a last newline: (?!\n) refuses it.
Handle = Annotated[
    str, Meta(pattern=r"^[A-Za-z0-9_-]{3,24}(?!\n)$", description="3-24 of a-z 0-9 _ - (folded to small)")
]
Password = Annotated[str, Meta(min_length=8, max_length=1024)]
Code = Annotated[str, Meta(min_length=1, max_length=200)]
Assertion = Annotated[str, Meta(min_length=1, max_length=8192)]


class PlayerCreate(Struct, forbid_unknown_fields=True):
    """A guest: a name alone. An account: a name, a handle and a password."""

    name: Name
    handle: Handle | None = None
    password: Password | None = None


class PlayerCreated(Struct, omit_defaults=True):
    id: int
    name: str
    token: str  # shown once: keep it, the server stores only its hash
    handle: str | None = None  # an account's (a guest has none)


class Club(Struct):
    id: int
    name: str


class OrganiserRef(Struct):
    id: int
    name: str


class Me(Struct):
    """The caller: a guest has no handle."""

    id: int
    name: str
    handle: str | None
    clubs: list[Club]
    has_password: bool = False  # False for guests and for members who sign in with a code
    organiser: OrganiserRef | None = None  # the organiser this account is (its sessions carry its rights)
    # It may make itself an organiser (POST /api/me/organiser): the server allows it
    # (ORGANISERS_OPEN), it is an account (a handle), not one yet and never revoked by the owner.
    may_organise: bool = False


class MeUpgrade(Struct, forbid_unknown_fields=True):
    """A guest becomes an account, keeping its entries."""

    handle: Handle
    password: Password


class SessionCreate(Struct, forbid_unknown_fields=True):
    """One of: {handle, password}, {handle, code} (a club member), {assertion} (a host site's JWT)."""

    handle: Handle | None = None
    password: Password | None = None
    code: Code | None = None
    assertion: Assertion | None = None


class SessionCreated(Struct):
    token: str  # this device's bearer token, shown once
    player: Me
