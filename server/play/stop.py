"""Ending a game from outside: the organiser's End (a cancelled tournament, a disqualified entry).

The player is told ``stopped`` wherever it is connected: at once on this process (``end_game``),
and on every other one through Redis (``Hub.stopped``, which the caller sends for many entries at
once). With Redis unavailable, a connection on another process learns it at its next move, which
the commit refuses (``why_stopped``).
"""

from __future__ import annotations

import time

import asyncpg
import msgspec

from spidertour.engine import End, GameOverError

from . import store
from .live import load
from .runtime import Play

CANCELLED = "the organiser cancelled the tournament"


def disqualified(reason: str) -> str:
    return f"disqualified: {reason}"


async def why_stopped(db: asyncpg.Pool, entry_id: int) -> str | None:
    """Why the organiser ended this entry's game, as its player was told; None if they did not."""
    found = await store.stop_reason(db, entry_id)
    if found is None:
        return None
    cancelled, reason = found
    return CANCELLED if cancelled else None if reason is None else disqualified(reason)


async def end_game(db: asyncpg.Pool, play: Play, entry_id: int, why: str) -> None:
    """End an entry's game now as its player's End would (an entry never started becomes absent).

    The entry is claimed first (a new epoch), so no connection, on any process, can commit a move
    after this; a connection on this process is told why at once (the caller tells the others).
    """
    await store.mark_absent(db, entry_id)
    epoch = await store.claim(db, entry_id)
    live = await load(db, entry_id)
    if live is not None and live.game is not None and not live.game.over and live.started is not None:
        game = live.game
        try:
            game.play(End(), time.time() - live.started)
        except GameOverError:  # past its deadline: ended by time, as the clock would
            await store.time_out(db, entry_id)
        else:
            # The player's sequence numbers stay theirs: the organiser's End keeps the last one.
            record = store.MoveRecord(
                entry_id,
                epoch,
                live.moves + 1,
                live.last_seq,
                msgspec.json.encode(End().to_json()).decode(),
                game.t,
                game.score + live.score_before,  # the running total over its deals (docs/competitions.md)
                game.reveals,
                game.sequences,
                game.outcome or "ended",
                None if game.final_score is None else game.final_score + live.score_before,
                None if game.time_left is None else game.time_left + live.time_before,
            )
            await store.record_moves(db, [record])
    play.tell(entry_id, "stopped", why)
