"""Ended sessions, told to every server process: their open play sockets close at once.

A socket is authenticated once (``watch``: its session id and what to do when that session ends);
no move costs a look-up. Ending sessions (``ended``) tells the sockets of this process at once and
publishes the ids on Redis (``PREFIX:signout``), which every process listens to. Redis may be out
of reach when the sessions end, or the subscription down as they are published: so every
``CHECK_SECONDS`` each process also asks PostgreSQL which of its sockets' sessions have ended.
Failures of either are logged and tried again; neither loop ends but by ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, cast

import asyncpg
import msgspec
from litestar.connection import ASGIConnection
from redis.asyncio import Redis

from ..operations.metrics import REDIS_ERRORS
from ..storage.outages import Outage
from ..storage.pool import DB_FAILURES
from ..storage.redis_client import REDIS_FAILURES, stop_tasks
from . import store

log = logging.getLogger("spidertour.signouts")

CHECK_SECONDS = 3.0  # the longest an ended session's socket lives on when Redis failed
BACKOFF_SECONDS = 1.0
CHUNK = 1000  # session ids in one event or one look-up at most

OnEnd = Callable[[], None]


class SignoutEvent(msgspec.Struct):
    sessions: list[int]
    origin: str  # the process that ended them (it told its own sockets already)


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(SignoutEvent)


class Signouts:
    def __init__(self, redis: Redis, db: asyncpg.Pool, prefix: str) -> None:
        self.redis = redis
        self.db = db
        self.channel = f"{prefix}:signout"
        self.process_id = f"{time.time_ns()}-{id(self)}"
        self.open: dict[int, set[OnEnd]] = {}  # session id -> its sockets here
        self.tasks: list[asyncio.Task[Any]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._listen_loop()), asyncio.create_task(self._check_loop())]

    async def stop(self) -> None:
        await stop_tasks(self.tasks)

    def watch(self, session_id: int, on_end: OnEnd) -> Callable[[], None]:
        """``on_end`` is called once this session ends; call the answer to stop watching."""
        self.open.setdefault(session_id, set()).add(on_end)

        def unwatch() -> None:
            found = self.open.get(session_id)
            if found is not None:
                found.discard(on_end)
                if not found:
                    del self.open[session_id]

        return unwatch

    def _end_here(self, session_ids: list[int]) -> None:
        for session_id in session_ids:
            for on_end in self.open.pop(session_id, ()):
                on_end()

    async def ended(self, session_ids: list[int]) -> bool:
        """These sessions ended: their sockets here are told now, every other process's through
        Redis. False when Redis is unavailable (the others then learn it within ``CHECK_SECONDS``)."""
        self._end_here(session_ids)
        for start in range(0, len(session_ids), CHUNK):
            event = SignoutEvent(sessions=session_ids[start : start + CHUNK], origin=self.process_id)
            try:
                await self.redis.publish(self.channel, _encoder.encode(event))
            except REDIS_FAILURES:
                REDIS_ERRORS.inc()
                log.warning("could not publish ended sessions (Redis unavailable): other processes check soon")
                return False
        return True

    def _dispatch(self, data: bytes) -> None:
        try:
            event = _decoder.decode(data)
        except msgspec.DecodeError:
            log.warning("ignored a malformed sign-out event")
            return
        if event.origin != self.process_id:
            self._end_here(event.sessions)

    async def _listen_loop(self) -> None:
        outage = Outage(log, "sign-out subscription")
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                outage.ok()
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                REDIS_ERRORS.inc()
                if not isinstance(err, REDIS_FAILURES):  # not Redis out of reach or reset: with its traceback
                    log.warning("sign-out subscription lost; reconnecting", exc_info=True)
                outage.failed(repr(err))
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(BACKOFF_SECONDS)

    async def check(self) -> None:
        """Ask PostgreSQL which of the open sockets' sessions have ended; end those here."""
        ids = list(self.open)
        for start in range(0, len(ids), CHUNK):
            self._end_here(await store.ended_among(self.db, ids[start : start + CHUNK]))

    async def _check_loop(self) -> None:
        outage = Outage(log, "open sessions' check")
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except DB_FAILURES as err:
                outage.failed(f"database unavailable: {err!r}")
            except Exception:
                log.exception("could not check open sessions")
            else:
                outage.ok()


def signouts_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Signouts:
    return cast(Signouts, connection.app.state.signouts)
