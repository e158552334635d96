"""Argon2 work, bounded: at most ``AT_ONCE`` passwords or codes hashed or checked at a time in a
process (each takes tens of milliseconds of every core and 64 MiB), the others waiting their turn
up to ``WAIT`` seconds, then answered 503. Each one done is counted in
``spidertour_password_hashes_total`` by kind (``hash``, ``verify``), so that what asks for this work
is seen. Callers check everything cheaper first (a taken handle, an account already) and limit
per account and per address what may still come here."""

from __future__ import annotations

import asyncio
import os

from litestar.exceptions import HTTPException

from ..lib.passwords import hash_secret, secret_matches
from ..operations.metrics import PASSWORD_HASHES

AT_ONCE = max(1, min(4, (os.cpu_count() or 1) // 2))  # argon2-cffi's default hash runs 4 lanes
WAIT = 10.0  # seconds a request waits for its turn before it is answered 503

_turns: asyncio.Semaphore | None = None


def _semaphore() -> asyncio.Semaphore:
    global _turns
    if _turns is None:
        _turns = asyncio.Semaphore(AT_ONCE)
    return _turns


async def _turn() -> asyncio.Semaphore:
    turns = _semaphore()
    try:
        async with asyncio.timeout(WAIT):
            await turns.acquire()
    except TimeoutError:
        raise HTTPException(
            status_code=503, detail="the server is busy checking passwords: try again", headers={"Retry-After": "2"}
        ) from None
    return turns


async def hashed(secret: str) -> str:
    """The argon2id hash of a password or code, made in a thread when its turn comes."""
    turns = await _turn()
    try:
        return await asyncio.to_thread(hash_secret, secret)
    finally:
        turns.release()
        PASSWORD_HASHES.labels("hash").inc()


async def hashed_all(secrets: list[str]) -> list[str]:
    """Hashes of several codes (a club's roster), one turn each, in order."""
    return [await hashed(secret) for secret in secrets]


async def matches(stored: str | None, given: str) -> bool:
    """Does ``given`` match the stored hash (``secret_matches``), checked in a thread when its turn comes."""
    turns = await _turn()
    try:
        return await asyncio.to_thread(secret_matches, stored, given)
    finally:
        turns.release()
        PASSWORD_HASHES.labels("verify").inc()
