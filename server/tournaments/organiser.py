"""The organiser's actions that reach past one SQL statement: cancelling a tournament and
disqualifying an entry (games ended, boards and watchers told)."""

from __future__ import annotations

import logging

import asyncpg

from ..play.runtime import Play
from ..play.stop import CANCELLED, disqualified, end_game
from ..watch import store as watch_store
from ..watch.boards import Boards
from ..watch.messages import row_of
from . import store

log = logging.getLogger("spidertour.organiser")

STOP_EVERY = 50  # games a cancel ends between two words to the other processes


async def cancel(db: asyncpg.Pool, play: Play, boards: Boards, tournament_id: int) -> bool:
    """Cancel: every game ends now, nothing is ranked, the seed is revealed. False if already over."""
    absent = await store.cancel(db, tournament_id)
    if absent is None:
        return False
    waiting = [record["id"] for record in absent]  # never started, now absent: told too
    for entry_id in waiting:
        play.tell(entry_id, "stopped", CANCELLED)
    told = await boards.hub.stopped(waiting, CANCELLED)  # on the other processes
    ended: list[int] = []
    for entry_id in await store.playing(db, tournament_id):
        await end_game(db, play, entry_id, CANCELLED)
        ended.append(entry_id)
        if told and len(ended) == STOP_EVERY:
            told = await boards.hub.stopped(ended, CANCELLED)
            ended = []
    if told:  # once Redis failed, the others learn it at their next move
        await boards.hub.stopped(ended, CANCELLED)
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
        await end_game(db, play, entry_id, disqualified(reason))
        await boards.hub.stopped([entry_id], disqualified(reason))
    entry = await store.entry(db, entry_id)
    if await watch_store.status(db, tournament_id) == "finished":
        await boards.keep_finished(db, tournament_id)  # its watchers' update reads the board
    await boards.disqualified(tournament_id, None if entry is None else row_of(entry), entry_id)
    log.info("entry %s of tournament %s disqualified: %s", entry_id, tournament_id, reason)
    return "ok"
