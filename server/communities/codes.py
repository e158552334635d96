"""Codes people type: sign-in codes, invite codes and generated handles, from an alphabet without
look-alikes (no 0/o, 1/l/i)."""

from __future__ import annotations

import re
import secrets
import unicodedata

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10  # 31^10, about 2^49: guessed by nobody within the sign-in limits
INVITE_LENGTH = 12
HANDLE = re.compile(r"^[a-z0-9_-]{3,24}$")


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_invite() -> str:
    return new_code(INVITE_LENGTH)


def handle_base(name: str) -> str:
    """A name as handle letters: accents dropped, anything else a hyphen, at most 18 long."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    base = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:18].strip("-")
    return base or "player"


def new_handle(name: str) -> str:
    """A handle from a name with a short random tail, e.g. ``ann-k7``."""
    return f"{handle_base(name)}-{new_code(2)}"
