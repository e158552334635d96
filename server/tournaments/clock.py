"""The server's clock at work: tournaments that start together start, games end at their deadlines,
closed tournaments finish, scheduled ones are created, watchers hear of every change of status, and
leaderboards missing from Redis are rebuilt from PostgreSQL. Safe to run in any number of processes."""

from __future__ import annotations

import asyncio
import logging
import time

import asyncpg
from redis.exceptions import RedisError

from ..core import Core
from ..operations.metrics import DB_ERRORS, REDIS_ERRORS
from ..play import deals
from ..play import store as play_store
from ..players import attempts
from ..storage.outages import Outage
from ..storage.pool import UNAVAILABLE
from ..storage.redis_client import REDIS_FAILURES
from ..storage.sql import STATUS_SQL
from ..watch import store as watch_store
from ..watch.boards import Boards
from ..watch.messages import Row, row_of
from . import store
from .pars import Pars
from .schedules import SCHEDULE_SECONDS, create_scheduled

log = logging.getLogger("spidertour.clock")

EXPIRE_SECONDS = 300  # how often the boards of finished tournaments that missed their expiry are looked for


async def sweep_once(
    core: Core, boards: Boards, pars: Pars, seen: dict[int, str] | None = None
) -> tuple[int, list[int]]:
    """Start the games of tournaments that start together (and their next deals), end overdue games
    and finish closed tournaments. Returns how many games timed out and the tournaments finished."""
    db = core.db
    # brackets' games: on no board
    await _publish(boards, [r for r in await play_store.start_together(db) if not r["hidden"]])
    timed_out = await play_store.time_out(db)
    await _publish(boards, [r for r in timed_out if not (r["practice"] or r["hidden"])])  # practice, matches: none
    await _publish(boards, await deals.next_together(db))  # several deals: the next round of a sitting
    finished = []
    for tid, absent in await store.finish_due(db):
        # The finishing update carries the entries that never started as the standings show them
        # (absent, no time left), with the final status, in one message to the watchers.
        await boards.publish_many(
            tid, [(record["ordinal"], row_of(record)) for record in absent if not record["hidden"]]
        )
        boards.status_changed(tid, "finished")
        await boards.finished(tid)  # PostgreSQL holds the final standings: the Redis board expires
        finished.append(tid)
    pars.start()  # the par of what just finished (and of any finished without one)
    if seen is not None:
        await _status_changes(core, boards, seen)
    active = await watch_store.active_tournaments(db)
    try:
        await boards.rebuild_missing(db, active)
        await boards.rewrite(db, active)
    except REDIS_FAILURES:
        REDIS_ERRORS.inc()
        log.warning("Redis unavailable: leaderboards will be rebuilt when it returns")
    return len(timed_out), finished


async def _publish(boards: Boards, records: list[asyncpg.Record]) -> None:
    """These entries' new rows, each tournament's in a few round trips to Redis (``publish_many``):
    the games of a big tournament that starts together, or that reach their deadline together, are
    thousands of rows in one sweep."""
    by_tournament: dict[int, list[tuple[int, Row]]] = {}
    for record in records:
        by_tournament.setdefault(record["tournament_id"], []).append((record["ordinal"], row_of(record)))
    for tid, rows in by_tournament.items():
        await boards.publish_many(tid, rows)


async def _status_changes(core: Core, boards: Boards, seen: dict[int, str]) -> None:
    """Tell watchers when a tournament opens or starts closing (both follow from the clock)."""
    rows = await core.db.fetch(
        f"SELECT t.id, {STATUS_SQL} AS status FROM tournaments t "
        "WHERE (t.finished_at IS NULL OR t.finished_at > now() - interval '1 minute') AND t.kind = 'tournament'"
    )
    for row in rows:
        if seen.get(row["id"], row["status"]) != row["status"]:
            boards.status_changed(row["id"], row["status"])
        seen[row["id"]] = row["status"]
    if len(seen) > len(rows):  # those finished a minute ago and more change no more
        current = {row["id"] for row in rows}
        for tid in [tid for tid in seen if tid not in current]:
            del seen[tid]


async def run_clock(core: Core, boards: Boards, pars: Pars) -> None:
    seen: dict[int, str] = {}
    scheduled_at = expired_at = 0.0
    outage = Outage(log, "clock sweep")
    while True:
        try:
            if time.monotonic() - scheduled_at >= SCHEDULE_SECONDS:
                scheduled_at = time.monotonic()
                await create_scheduled(core.db, pars.solver, core.config)
            if time.monotonic() - expired_at >= EXPIRE_SECONDS:
                expired_at = time.monotonic()
                await boards.expire_over(core.db)
                await attempts.forget_expired(core.db)  # sign-in failure counts long past their window
            await sweep_once(core, boards, pars, seen)
        except asyncio.CancelledError:
            raise
        except RedisError as err:
            REDIS_ERRORS.inc()
            outage.failed(f"Redis: {err!r}")
        except UNAVAILABLE as err:  # PostgreSQL out of reach or too slow (DB_TIMEOUT)
            DB_ERRORS.inc()
            outage.failed(f"database unavailable: {err!r}")
        except Exception:
            DB_ERRORS.inc()
            log.warning("clock sweep failed; retrying", exc_info=True)
        else:
            outage.ok()
        await asyncio.sleep(core.config.sweep_seconds)
