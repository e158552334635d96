"""What registering sends and answers."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

Name = Annotated[str, Meta(min_length=1, max_length=40)]


class PlayerCreate(Struct, forbid_unknown_fields=True):
    name: Name


class PlayerCreated(Struct):
    id: int
    name: str
    token: str  # shown once: keep it, the server stores only its hash
