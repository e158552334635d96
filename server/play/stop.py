"""Ending a game from outside: the organiser's End (a cancelled tournament, a disqualified entry)."""

from __future__ import annotations

import time

import asyncpg
import msgspec

from spidertour.engine import End, GameOverError

from . import store
from .live import load
from .runtime import Play


async def end_game(db: asyncpg.Pool, play: Play, entry_id: int, why: str) -> None:
    """End an entry's game now as its player's End would (an entry never started becomes absent).

    The entry is claimed first (a new epoch), so no connection, on any process, can commit a move
    after this; a connection on this process is told why at once.
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
                game.score,
                game.reveals,
                game.sequences,
                game.outcome or "ended",
                game.final_score,
                game.time_left,
            )
            await store.record_moves(db, [record])
    play.tell(entry_id, "stopped", why)
