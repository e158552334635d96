"""Passwords and sign-in codes, kept as argon2id hashes (argon2-cffi's defaults, RFC 9106's second
recommended setting), never as they were given."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


@cache
def _nobody() -> str:
    """Checked against when no account matches, so that an unknown handle takes as long as a wrong
    password and the two cannot be told apart by their answer or its time. Made by ``prepare`` or at
    the first such sign-in, not at import: a hash costs a tenth of a second, which every command of
    the command line would pay."""
    return _hasher.hash("no account has this password")


def prepare() -> None:
    """Make the unknown handles' hash now (the server does at its start): then the first sign-in
    with an unknown handle takes no longer than the next."""
    _nobody()


def hash_secret(secret: str) -> str:
    return _hasher.hash(secret)


def secret_matches(stored: str | None, given: str) -> bool:
    """Does ``given`` match the stored hash? With ``stored`` None, the same work, and False."""
    try:
        return _hasher.verify(stored if stored is not None else _nobody(), given) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
