"""The organiser's actions that reach past one SQL statement: cancelling a tournament and
disqualifying an entry (games ended, boards and watchers told)."""

from __future__ import annotations

import logging

import asyncpg

from ..play.runtime import Play
from ..play.stop import CANCELLED, disqualified, end_game, tell_stopped
from ..watch import store as watch_store
from ..watch.boards import Boards
from ..watch.messages import row_of
from . import store

log = logging.getLogger("spidertour.organiser")


async def cancel(db: asyncpg.Pool, play: Play, boards: Boards, tournament_id: int) -> bool:
    """Cancel: every game ends now, nothing is ranked, the seed is revealed. False if already over."""
    absent = await store.cancel(db, tournament_id)
    if absent is None:
        return False
    for record in absent:  # never started, now absent: a connection waiting to start is told too
        await tell_stopped(play, boards.hub, record["id"], CANCELLED)
    for entry_id in await store.playing(db, tournament_id):
        await end_game(db, play, boards.hub, entry_id, CANCELLED)
    await boards.drop(tournament_id)
    boards.status_changed(tournament_id, "cancelled")
    log.info("tournament %s cancelled", tournament_id)
    return True


async def disqualify(
    db: asyncpg.Pool, play: Play, boards: Boards, tournament_id: int, entry_id: int, reason: str
) -> str:
    """Out of the ranking, live and final: 'ok', 'missing' or 'already'."""
    outcome = await store.disqualify(db, tournament_id, entry_id, reason)
    if outcome != "ok":
        return outcome
    entry = await store.entry(db, entry_id)
    if entry is not None and entry["status"] in ("joined", "playing"):
        await end_game(db, play, boards.hub, entry_id, disqualified(reason))
    entry = await store.entry(db, entry_id)
    if await watch_store.status(db, tournament_id) == "finished":
        await boards.keep_finished(db, tournament_id)  # its watchers' update reads the board
    await boards.disqualified(tournament_id, None if entry is None else row_of(entry), entry_id)
    log.info("entry %s of tournament %s disqualified: %s", entry_id, tournament_id, reason)
    return "ok"
