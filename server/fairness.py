"""Seeds, commitments and tokens: what makes a tournament fair and a player's token safe."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any


def new_seed() -> str:
    """A seed from the operating system's cryptographic random source."""
    return secrets.token_hex(16)


def commitment(seed: str, settings: dict[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of {"seed": ..., "settings": ...}.

    Canonical: keys sorted, no spaces, UTF-8 (``json.dumps(..., sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)``). Anyone can recompute it after the finish.
    """
    text = json.dumps({"seed": seed, "settings": settings}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> bytes:
    """Tokens are long random strings, so one SHA-256 is enough; only this is stored."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(token_hash(given), token_hash(expected))
