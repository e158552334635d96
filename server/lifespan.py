"""Opening and closing the running server: PostgreSQL (migrated) and Redis, each domain's running
part, and the clock. Embedded servers stand in for PostgreSQL and Redis when none is configured."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable

from litestar import Litestar

from .brackets.clock import run_clock as run_brackets_clock
from .competitions.analysis.routes import Analyses
from .config import Config
from .core import Core
from .fairplay.limits import Limiter
from .fairplay.sockets import Sockets
from .fairplay.store import address_key
from .lib import passwords
from .lib.tokens import new_token
from .matches.clock import run_clock as run_matches_clock
from .operations.collector import tune_gc
from .operations.stalls import StallLog
from .play.runtime import Play
from .play.sockets.fast import FastPlay
from .players.signouts import Signouts
from .storage.available import wait_for_database
from .storage.embedded import Embedded
from .storage.migrations import migrate, warn_without_autovacuum
from .storage.pool import connection, create_pool
from .storage.redis_client import connect
from .tournaments.clock import run_clock
from .tournaments.pars import Pars
from .watch.boards import Boards


def lifespan(
    config: Config, play_listener: socket.socket | None = None
) -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    """The lifespan of an app serving with ``config`` (and the play socket on ``play_listener``, or on
    PLAY_PORT, when that is set)."""

    @contextlib.asynccontextmanager
    async def run(app: Litestar) -> AsyncIterator[None]:
        embedded = Embedded(config.data_dir)
        try:
            database_url = config.database_url
            if database_url is None:
                database_url = await asyncio.to_thread(embedded.postgres_url)
            await wait_for_database(database_url)  # started beside it, the server may be first
            redis_url = config.redis_url
            if redis_url is None:
                redis_url = await asyncio.to_thread(embedded.redis_url)
            async with connection(database_url, config.db_timeout) as conn:  # migrations may take long
                await migrate(conn)
                await warn_without_autovacuum(conn)
            pool = await create_pool(database_url, config.pool_size, config.db_timeout)
            await asyncio.to_thread(passwords.prepare)  # the unknown handles' hash, before any sign-in
            redis = connect(redis_url, config.redis_pool_size)
            admin = config.admin_token
            if admin is None:
                admin = new_token(24)
                print(f"ADMIN_TOKEN={admin}  (generated; set ADMIN_TOKEN to choose one)", flush=True)
            core = Core(config=config, db=pool, redis=redis, admin_token=admin)
            boards = Boards(redis, config.redis_prefix, config.feed_seconds)
            key = config.address_key.encode() if config.address_key else await address_key(pool)
            limiter = Limiter(redis, config.redis_prefix, config.proxies, key)
            signouts = Signouts(redis, pool, config.redis_prefix)
            play = Play(pool, config, boards.hub.process_id, signouts)
            boards.hub.on_takeover = play.taken_over_elsewhere
            boards.hub.on_stop = play.stopped_elsewhere
            pars = Pars(pool, config.solver_seconds)
            analyses = Analyses(pool, pars.solver, config)
            app.state.update(
                core=core, boards=boards, limiter=limiter, play=play, pars=pars, signouts=signouts, analyses=analyses
            )
            app.state.sockets = sockets = Sockets(config.websockets_per_address, config.proxies)
            fast = FastPlay(core, play, boards, limiter, sockets)
            if config.play_port is not None:
                await fast.open(play_listener)
            boards.start()
            signouts.start()
            play.lag.start()
            stalls = StallLog(config.stall_log_ms / 1000)
            if config.stall_log_ms > 0:
                stalls.start()
            tune_gc()
            clock = asyncio.create_task(run_clock(core, boards, pars))
            matches_clock = asyncio.create_task(run_matches_clock(core))  # start and wait timeouts, ends
            brackets_clock = asyncio.create_task(run_brackets_clock(core))  # seeding, rounds, champions
            try:
                yield
            finally:
                await fast.close()
                await play.lag.stop()
                stalls.stop()
                clock.cancel()
                matches_clock.cancel()
                brackets_clock.cancel()
                await asyncio.gather(clock, matches_clock, brackets_clock, return_exceptions=True)
                await analyses.close()
                await pars.close()
                await boards.stop()
                await signouts.stop()
                await redis.aclose()
                await pool.close()
        finally:
            await asyncio.to_thread(embedded.stop)

    return run
