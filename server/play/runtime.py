"""The play side of a running server: the connections playing here, and the commits of their moves.

Many games' moves go to PostgreSQL in one statement (``lib.batch``): while one commit is on its
way, the next gathers moves, and commits start at least ``COMMIT_INTERVAL_MS`` apart.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import asyncpg
from litestar.connection import ASGIConnection

from ..config import Config
from ..lib.batch import Batcher
from ..operations.metrics import COMMIT_BATCH, DB_ERRORS, MOVES
from ..players.signouts import Signouts
from .pacing.lag import LoopLag
from .store import MoveRecord, record_moves

Event = tuple[str, Any]


class Play:
    def __init__(self, db: asyncpg.Pool, config: Config, process_id: str, signouts: Signouts) -> None:
        self.db = db
        self.process_id = process_id  # this process, as the hub names it to the others
        self.signouts = signouts  # each connection's session, watched for its end
        # entry id -> the events queue of the connection playing it here (one per entry)
        self.sessions: dict[int, asyncio.Queue[Event]] = {}
        self.db_timeout = config.db_timeout  # a commit's, waiting for a connection included
        self.moves: Batcher[MoveRecord, bool] = Batcher(
            self._commit,
            max_batch=1000,
            concurrency=config.commits,
            interval=config.commit_interval,
            max_pending=config.moves_waiting,  # past it a move is answered try_again (busy), not queued
        )
        self.lag = LoopLag(config.loop_lag_ms / 1000)  # started by the lifespan

    @property
    def busy(self) -> bool:
        """Too many moves wait to commit, or the event loop runs behind: a move is answered try_again."""
        return self.moves.full or self.lag.behind

    async def _commit(self, batch: list[MoveRecord]) -> list[bool]:
        """One commit of many games' moves, counted."""
        COMMIT_BATCH.observe(len(batch))
        try:
            written = await record_moves(self.db, batch, self.db_timeout)
        except Exception:
            DB_ERRORS.inc()
            raise
        MOVES.inc(sum(written))
        return written

    def tell(self, entry_id: int, kind: str, data: Any = None) -> None:
        """Hand an event to the connection playing this entry here, if there is one."""
        events = self.sessions.get(entry_id)
        if events is not None:
            events.put_nowait((kind, data))

    def stopped_elsewhere(self, entry_id: int, why: str) -> None:
        """Another process ended an entry's game (the organiser): the connection here, if any, is told."""
        self.tell(entry_id, "stopped", why)

    def taken_over_elsewhere(self, entry_id: int, origin: str) -> None:
        """Another process took over an entry: the connection here, if any, is told and closed."""
        if origin != self.process_id:
            self.tell(entry_id, "taken_over")


def play_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Play:
    return cast(Play, connection.app.state.play)
