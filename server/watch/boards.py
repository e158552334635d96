"""The watch side of a running server: leaderboards in Redis and the hub that carries their changes
to every process's watchers. Every other part tells it of a changed entry with ``publish``.

Redis failing never stops play: PostgreSQL has the truth, and a board that missed a write is
marked stale and rebuilt from PostgreSQL by the clock's next sweep (``rebuild_missing``). Every
method here takes any of ``REDIS_FAILURES`` as Redis being unavailable, counts it and goes on.

Once a tournament is over its keys expire (``finished``); ``expire_over`` gives a lifetime to any
that missed it (Redis unavailable at the finish, or keys written by an older server).
"""

from __future__ import annotations

import logging
import re
from typing import Any, cast

import asyncpg
from litestar.connection import ASGIConnection
from redis.asyncio import Redis

from ..lib.batch import Batcher
from ..operations.metrics import REDIS_ERRORS
from ..storage.redis_client import REDIS_FAILURES
from . import store
from .counts import LiveCounts
from .feeds import FEED_SECONDS
from .hub import Hub
from .leaderboard import FINISHED_SECONDS, Leaderboard, is_part
from .messages import Row, row_of
from .teams import TeamBoard

log = logging.getLogger("spidertour")


class Boards:
    def __init__(self, redis: Redis, prefix: str, feed_seconds: float = FEED_SECONDS) -> None:
        self.redis = redis
        self.board = Leaderboard(redis, prefix)
        self.teams = TeamBoard(redis, prefix)
        self.hub = Hub(redis, self.board, prefix, self.teams, feed_seconds)
        self.stale: set[int] = set()  # tournaments whose Redis board needs a rebuild
        self.counts = LiveCounts()  # "playing now" and "waiting" of a running tournament's first page
        self.unwritten: dict[int, set[int]] = {}  # tournament -> entries whose last board write failed
        # Many rows, one round trip.
        self.writes: Batcher[tuple[int, int, Row], bool] = Batcher(
            self.board.record_many, max_batch=1000, concurrency=2
        )

    def start(self) -> None:
        self.hub.start()

    async def stop(self) -> None:
        await self.hub.stop()

    async def publish(self, tournament_id: int, ordinal: int, row: Row) -> None:
        """Put an entry's new standing on the leaderboard and on its way to every watcher."""
        try:
            if not await self.writes.submit((tournament_id, ordinal, row)):
                self.stale.add(tournament_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            log.warning("leaderboard write failed for tournament %s", tournament_id)
            self._missed(tournament_id, [row.entry_id])
        else:
            self._written(tournament_id, row.entry_id)
        self.hub.changed(tournament_id, row)

    def _missed(self, tournament_id: int, entry_ids: list[int]) -> None:
        """These entries' rows on the board may be old: ``rewrite`` writes them again from PostgreSQL."""
        self.stale.add(tournament_id)  # and the board itself may be gone (Redis restarted meanwhile)
        self.unwritten.setdefault(tournament_id, set()).update(entry_ids)

    def _written(self, tournament_id: int, entry_id: int) -> None:
        if self.unwritten:
            missed = self.unwritten.get(tournament_id)
            if missed is not None:
                missed.discard(entry_id)
                if not missed:
                    del self.unwritten[tournament_id]

    async def publish_many(self, tournament_id: int, items: list[tuple[int, Row]], chunk: int = 1000) -> None:
        """``publish`` for many rows of one tournament: the board in a few round trips, then the watchers
        (the rows reach the hub together, so they go out in one update)."""
        for start in range(0, len(items), chunk):
            part = [(tournament_id, ordinal, row) for ordinal, row in items[start : start + chunk]]
            try:
                if not all(await self.board.record_many(part)):
                    self.stale.add(tournament_id)
            except REDIS_FAILURES:
                REDIS_ERRORS.inc()
                self._missed(tournament_id, [row.entry_id for _, _, row in part])
        for _, row in items:
            self.hub.changed(tournament_id, row)

    async def finished(self, tournament_id: int) -> None:
        """PostgreSQL holds the tournament's final standings now: its board expires."""
        try:
            await self.board.expire(tournament_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            log.warning("Redis unavailable: the board of finished tournament %s expires later", tournament_id)

    async def keep_finished(self, db: asyncpg.Pool, tournament_id: int) -> None:
        """A finished tournament's standings changed (an entry disqualified after the finish): its
        board, gone once it expired, is rebuilt for the updates its watchers are sent, and expires again."""
        try:
            await self.board.ensure(db, tournament_id)
            await self.board.expire(tournament_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()

    async def expire_over(self, db: asyncpg.Pool) -> int:
        """Give a lifetime to the boards of tournaments that are over (or unknown to PostgreSQL) but
        whose keys have none. Returns how many keys were given one (0 when Redis is unavailable)."""
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.board.prefix) + ":{t:*}:*"
        found: dict[int, list[bytes]] = {}
        try:
            async for key in self.redis.scan_iter(match=pattern, count=1000):
                tid, part = _parse_key(key, self.board.prefix)
                if tid is not None and is_part(part):
                    found.setdefault(tid, []).append(key)
            over = await store.over(db, sorted(found)) if found else []
            keys = [key for tid in over for key in found[tid]]
            if not keys:
                return 0
            pipe = self.redis.pipeline(transaction=False)
            for key in keys:
                pipe.ttl(key)
            ttls = await pipe.execute()
            lasting = [key for key, ttl in zip(keys, ttls, strict=True) if ttl == -1]
            pipe = self.redis.pipeline(transaction=False)
            for key in lasting:
                pipe.expire(key, FINISHED_SECONDS)
            await pipe.execute()
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            log.warning("Redis unavailable: boards of finished tournaments expire later")
            return 0
        if lasting:
            log.info("%d keys of finished tournaments given a lifetime", len(lasting))
        return len(lasting)

    def status_changed(self, tournament_id: int, status: str) -> None:
        """Tell every watcher of the tournament its new status."""
        self.hub.status_changed(tournament_id, status)

    async def drop(self, tournament_id: int) -> None:
        """The tournament ranks nobody now (cancelled): its board goes."""
        try:
            await self.board.drop(tournament_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()

    async def disqualified(self, tournament_id: int, row: Row | None, entry_id: int) -> None:
        """An entry leaves the board; its watchers see it marked disqualified."""
        try:
            await self.board.remove(tournament_id, entry_id)
        except REDIS_FAILURES:
            REDIS_ERRORS.inc()
            self._missed(tournament_id, [entry_id])
        if row is not None:
            shown = Row(
                entry_id=row.entry_id,
                player=row.player,
                score=row.score,
                status="disqualified",
                time_left=row.time_left,
                team=row.team,
            )
            self.hub.changed(tournament_id, shown)

    async def rebuild_missing(self, db: asyncpg.Pool, active: list[int]) -> None:
        """Rebuild the boards of these tournaments that Redis lost or that missed a write.

        A stale flag goes only with its own rebuild: one that fails is tried again next time.
        Raises one of ``REDIS_FAILURES`` when Redis is out of reach.
        """
        pipe = self.redis.pipeline(transaction=False)
        for tid in active:
            pipe.exists(self.board.key(tid, "built"))
        built = await pipe.execute() if active else []
        missing = {tid for tid, ok in zip(active, built, strict=True) if not ok} | (self.stale & set(active))
        for tid in sorted(missing):
            self.stale.discard(tid)
            try:
                await self.board.rebuild(db, tid)
            except REDIS_FAILURES:
                self.stale.add(tid)
                raise

    async def rewrite(self, db: asyncpg.Pool, active: list[int]) -> None:
        """Write again, as PostgreSQL has them now, the rows of entries whose last board write failed
        (a rebuild only adds what is missing), and take disqualified ones off. Only for these running
        tournaments; the others' standings are PostgreSQL's. Raises one of ``REDIS_FAILURES`` when
        Redis is out of reach (what was not written is tried again next time)."""
        running = set(active)
        for tid in list(self.unwritten):
            ids = self.unwritten.pop(tid)
            if tid not in running:
                continue
            try:
                records = await store.entry_rows(db, tid, sorted(ids))
                rows = [(tid, r["ordinal"], row_of(r)) for r in records if r["disqualified"] is None]
                if rows:
                    await self.board.record_many(rows)
                for record in records:
                    if record["disqualified"] is not None:
                        await self.board.remove(tid, record["id"])
            except BaseException:
                self.unwritten.setdefault(tid, set()).update(ids)
                raise


def _parse_key(key: bytes, prefix: str) -> tuple[int | None, str]:
    """``PREFIX:{t:ID}:part`` -> (ID, part); (None, "") for any other key."""
    head = f"{prefix}:{{t:".encode()
    if not key.startswith(head):
        return None, ""
    tid, _, part = key[len(head) :].partition(b"}:")
    return (int(tid), part.decode(errors="replace")) if tid.isdigit() else (None, "")


def boards_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Boards:
    return cast(Boards, connection.app.state.boards)
