"""Seeds, salts, commitments, tokens and address hashes: what makes a tournament fair and a
player's token and address safe."""

from __future__ import annotations

import hashlib
import hmac
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
    Anyone can recompute either after the finish (docs/protocol.md, "Fairness").
    """
    committed: dict[str, Any] = {"seed": seed, "settings": settings}
    if salt is not None:
        committed["salt"] = salt
    return hashlib.sha256(canonical(committed)).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> bytes:
    """Tokens are long random strings, so one SHA-256 is enough; only this is stored."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def same_secret(given: str, expected: str) -> bool:
    return hmac.compare_digest(token_hash(given), token_hash(expected))


def address_hash(key: bytes, address: str) -> bytes:
    """A client address as the server keeps it: HMAC-SHA-256 under the server's address key.

    Two entries from one address get the same hash; the address itself is never stored, and
    without the key the hashes of all 2^32 IPv4 addresses cannot be tabulated.
    """
    return hmac.new(key, address.encode("utf-8"), hashlib.sha256).digest()
