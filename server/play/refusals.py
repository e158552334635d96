"""Why a start or a next deal is refused once the entry's time to play has passed (``not_open``)."""

from __future__ import annotations

import asyncpg

from ..watch import store as watch_store
from .live import LiveGame


async def not_open(db: asyncpg.Pool, live: LiveGame, what: str) -> str:
    """The reason, for ``what`` ("games start", "a deal starts"): a match's seat has a start window
    of its own (its tournament is hidden), any other entry's tournament is no longer open."""
    if live.match_id is not None:
        why = "this seat's time to start (MATCH_START_SECONDS) passed"
    else:
        why = f"the tournament is {await watch_store.status(db, live.tournament_id) or 'gone'}"
    return f"{why}: {what} only while it is open"
