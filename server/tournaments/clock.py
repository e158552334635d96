"""The server's clock at work: games end at their deadlines, tournaments open, close and finish,
and leaderboards missing from Redis are rebuilt from PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import time

from redis.exceptions import RedisError

from . import store
from .leaderboard import row_of
from .metrics import DB_ERRORS, REDIS_ERRORS
from .services import Services

log = logging.getLogger("spidertour.clock")


async def sweep_once(services: Services, seen: dict[int, str] | None = None) -> tuple[int, list[int]]:
    """Start the games of tournaments that start together, end overdue games and finish closed
    tournaments. Safe to run in any number of processes."""
    for record in await store.start_together(services.db):
        await services.publish(record["tournament_id"], record["ordinal"], row_of(record))
    timed_out = await store.time_out(services.db)
    for record in timed_out:
        await services.publish(record["tournament_id"], record["ordinal"], row_of(record))
    finished = []
    for tid, absent in await store.finish_due(services.db):
        # The finishing update carries the entries that never started as the standings show them
        # (absent, no time left), with the final status, in one message to the watchers.
        await services.publish_many(tid, [(record["ordinal"], row_of(record)) for record in absent])
        services.hub.status_changed(tid, "finished")
        finished.append(tid)
    services.start_pars()  # the par of what just finished (and of any finished without one)
    if seen is not None:
        await _status_changes(services, seen)
    await _rebuild_missing(services)
    return len(timed_out), finished


async def _status_changes(services: Services, seen: dict[int, str]) -> None:
    """Tell watchers when a tournament opens or starts closing (both follow from the clock)."""
    rows = await services.db.fetch(
        f"SELECT t.id, {store.STATUS_SQL} AS status FROM tournaments t "
        "WHERE t.finished_at IS NULL OR t.finished_at > now() - interval '1 minute'"
    )
    for row in rows:
        if seen.get(row["id"], row["status"]) != row["status"]:
            services.hub.status_changed(row["id"], row["status"])
        seen[row["id"]] = row["status"]


async def _rebuild_missing(services: Services) -> None:
    try:
        active = await store.active_tournaments(services.db)
        pipe = services.redis.pipeline(transaction=False)
        for tid in active:
            pipe.exists(services.board.key(tid, "built"))
        built = await pipe.execute() if active else []
        missing = {tid for tid, ok in zip(active, built, strict=True) if not ok} | (services.stale_boards & set(active))
        for tid in sorted(missing):  # a flag goes only with its own rebuild: a failed one is tried again
            services.stale_boards.discard(tid)
            try:
                await services.board.rebuild(services.db, tid)
            except RedisError:
                services.stale_boards.add(tid)
                raise
    except RedisError:
        REDIS_ERRORS.inc()
        log.warning("Redis unavailable: leaderboards will be rebuilt when it returns")


async def run_clock(services: Services) -> None:
    from .organiser import SCHEDULE_SECONDS, create_scheduled

    seen: dict[int, str] = {}
    scheduled_at = 0.0
    while True:
        try:
            if time.monotonic() - scheduled_at >= SCHEDULE_SECONDS:
                scheduled_at = time.monotonic()
                await create_scheduled(services)
            await sweep_once(services, seen)
        except asyncio.CancelledError:
            raise
        except RedisError:
            REDIS_ERRORS.inc()
            log.warning("clock sweep failed (Redis); retrying", exc_info=True)
        except Exception:
            DB_ERRORS.inc()
            log.warning("clock sweep failed; retrying", exc_info=True)
        await asyncio.sleep(services.config.sweep_seconds)
