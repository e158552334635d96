"""Passwords and sign-in codes, kept as argon2id hashes (argon2-cffi's defaults, RFC 9106's second
recommended setting), never as they were given."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()

# Checked against when no account matches, so that an unknown handle takes as long as a wrong
# password and the two cannot be told apart by their answer or its time.
_NOBODY = _hasher.hash("no account has this password")


def hash_secret(secret: str) -> str:
    return _hasher.hash(secret)


def secret_matches(stored: str | None, given: str) -> bool:
    """Does ``given`` match the stored hash? With ``stored`` None, the same work, and False."""
    try:
        return _hasher.verify(stored if stored is not None else _NOBODY, given) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
