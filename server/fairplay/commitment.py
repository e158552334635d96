"""Seeds, salts and commitments: what lets anyone check, after the finish, that the deal was fixed
before the first entry."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

SALT_BYTES = 16  # 128 bits: no short organiser seed can be found by trying seeds against the commitment


def new_seed() -> str:
    """A seed from the operating system's cryptographic random source."""
    return secrets.token_hex(16)


def new_salt() -> str:
    """The tournament's salt: 128 bits from the cryptographic source, as 32 hex digits."""
    return secrets.token_hex(SALT_BYTES)


def canonical(obj: Any) -> bytes:
    """Canonical JSON: keys sorted, no spaces, non-ASCII as itself, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment(seed: str, settings: dict[str, Any], salt: str | None) -> str:
    """SHA-256 (hex) of the canonical JSON of {"salt": ..., "seed": ..., "settings": ...}.

    ``salt=None`` is the form of tournaments created before salts: {"seed": ..., "settings": ...}.
    Anyone can recompute either after the finish (docs/fair-play.md).
    """
    committed: dict[str, Any] = {"seed": seed, "settings": settings}
    if salt is not None:
        committed["salt"] = salt
    return hashlib.sha256(canonical(committed)).hexdigest()
