"""Player tokens, the admin token's comparison and client-address hashes: secrets the server keeps
only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token(nbytes: int = 32) -> str:
    """A fresh random token (URL-safe base64 of ``nbytes`` random bytes). Never one that starts with
    ``-``, which a command line would read as an option (``--admin-token -x...``)."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


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
