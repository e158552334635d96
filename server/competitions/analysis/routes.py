"""A finished game's analysis: where the win was lost.

``GET /api/tournaments/{id}/entries/{entry_id}/analysis`` (a player's token needed) answers 202
while the solver works it out (in the server's solver worker process, ``job.analyse``, after every
certification and par waiting there), then the stored analysis. The work is claimed in PostgreSQL
first, so that of all the processes serving one database only one does it, once; the claim is
renewed while it runs and taken over when it runs out. Starting one costs the player and the
client address a token of their analysis allowance (``ANALYSIS_*``); asking for one stored or
under way costs nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol, cast

import asyncpg
import msgspec
from litestar import Request, Response, get
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, NotFoundException
from litestar.openapi import ResponseSpec

from ...config import Config, Limit
from ...core import core_of
from ...fairplay.limits import limiter_of, too_many
from ...lib.http import valid_id
from ...lib.tokens import address_hash
from ...operations.openapi import PLAYER, errors
from ...play.messages import ParSummary
from ...players.auth import require_player
from .. import practice_messages as m
from ..deal_checks import deal_count
from ..practice import finished_tournament, practised_deal, query_deal
from . import store
from .job import MAX_MOVES, analyse

log = logging.getLogger("spidertour.analysis")

LEASE = 60.0  # seconds a claim lasts unless renewed (renewed every third of it)
OVER = ("won", "ended", "timed_out", "absent")


class Worker(Protocol):
    """The solver's worker process (``tournaments.pars.SolverPool``)."""

    async def run(self, job: Callable[..., Any], *args: Any, later: bool = False) -> Any: ...


class Analyses:
    """The analyses this process works out: one task per game, each claimed first."""

    def __init__(self, db: asyncpg.Pool, worker: Worker, config: Config) -> None:
        self.db = db
        self.worker = worker
        self.seconds = config.analysis_seconds
        self.total = config.analysis_total_seconds
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.tasks: dict[tuple[int, int], asyncio.Task[None]] = {}  # by (entry, deal)

    async def ask(self, game: store.DealGame, charge: Callable[[], Awaitable[None]]) -> None:
        """Work out this game's analysis unless it is under way (here or in another process).
        ``charge`` is called once the work is claimed, before it starts (it may refuse: 429)."""
        key = game.key
        running = self.tasks.get(key)
        if running is not None and not running.done():
            return
        starts = await store.claim(self.db, key, self.me, LEASE)
        if starts is None:
            return
        try:
            await charge()
            moves = await store.moves(self.db, game)
        except BaseException:
            await self._release(key)
            raise
        log.info("analysing entry %s deal %s (start %d)", game.entry_id, game.deal, starts)
        task = asyncio.create_task(self._work(game, moves))
        self.tasks[key] = task
        task.add_done_callback(lambda t: self.tasks.pop(key, None) if self.tasks.get(key) is t else None)

    async def _work(self, game: store.DealGame, moves: list[dict[str, Any]]) -> None:
        key = game.key
        par = game.par_outcome
        opening = True if par == "won" else False if par == "proven lost" else None
        job = asyncio.ensure_future(
            self.worker.run(
                analyse,
                game.settings,
                game.seed,
                game.ordinal,
                moves,
                opening,
                self.seconds,
                self.total,
                later=True,  # certifications and pars first
            )
        )
        try:
            while True:
                done, _ = await asyncio.wait({job}, timeout=LEASE / 3)
                if done:
                    break
                try:
                    await store.renew(self.db, key, self.me, LEASE)
                except (OSError, asyncpg.PostgresError):
                    log.warning("renewing the claim on the analysis of entry %s deal %s failed", *key)
            result = job.result()
            await store.save(self.db, key, result)
            log.info(
                "analysed entry %s deal %s: %d searches, turning point %s",
                *key,
                result["solved"],
                result["turning_point"],
            )
        except asyncio.CancelledError:
            await self._release(key)
            raise
        except Exception:
            log.warning("analysing entry %s deal %s failed; it is tried again when asked", *key, exc_info=True)
            await self._release(key)
        finally:
            job.cancel()

    async def _release(self, key: tuple[int, int]) -> None:
        try:
            await asyncio.wait_for(store.release(self.db, key, self.me), 2)
        except (OSError, TimeoutError, asyncpg.PostgresError):
            log.warning("could not give up the claim on the analysis of entry %s deal %s; it runs out", *key)

    async def close(self) -> None:
        """Cancel the work under way (its claims given up)."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def analyses_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Analyses:
    return cast(Analyses, connection.app.state.analyses)


def stopped_winnable(status: str | None, positions: list[dict[str, Any]]) -> Literal["ended", "timed_out"] | None:
    """How a game stopped with a win still there from its last position: ended by the player, or
    out of time; None for a game won, never played, or whose last position has no win known."""
    if status not in ("ended", "timed_out") or not positions or positions[-1].get("winnable") is not True:
        return None
    return "ended" if status == "ended" else "timed_out"


def allowance(request: Request[Any, Any, Any], player_id: int) -> Callable[[], Awaitable[None]]:
    """Take a token of the player's analysis allowance, then of the client address's: 429 with
    Retry-After when either is used up."""

    async def charge() -> None:
        limits, limiter = core_of(request).config.limits, limiter_of(request)
        buckets: list[tuple[Limit, bytes, str]] = [
            (limits["analysis"], address_hash(limiter.key, f"player:{player_id}"), "asked for by you"),
            (limits["analysis_address"], limiter.bucket_hash(request), "from your address"),
        ]
        for limit, hashed, whose in buckets:
            wait = await limiter.take(limit, hashed)
            if wait:
                raise too_many(wait, f"too many analyses {whose}", limit)

    return charge


@get(
    "/api/tournaments/{tournament_id:int}/entries/{entry_id:int}/analysis",
    security=PLAYER,
    responses={
        **errors(401, 403, 404, 409, 429),
        202: ResponseSpec(m.Computing, description="The solver is working it out: ask again in a moment"),
    },
)
async def analysis(
    request: Request[Any, Any, Any], tournament_id: int, entry_id: int
) -> Response[m.Analysis | m.Computing]:
    """Player, after the finish: where the entry's win was lost. 202 ``{"status": "computing"}`` while
    the solver works it out, then 200 with every position's verdict. With several deals, one deal's
    game: ``?deal=k`` (400 without it, 404 past the last deal or for a deal the entry never played);
    a practice game plays one deal, its own. 401 without a player's token; 403 before the finish;
    409 for a practice game still being played and a game of more than 20,000 moves; 429 when the
    player or the address has started too many analyses (asking for one stored or under way costs
    nothing)."""
    db = core_of(request).db
    player = await require_player(request)
    asked = query_deal(request)
    await finished_tournament(db, tournament_id, "analysis")
    row = await store.entry(db, tournament_id, entry_id) if valid_id(entry_id) else None
    if row is None:
        raise NotFoundException(f"no entry {entry_id} in tournament {tournament_id}")
    game = await store.game(db, row, analysed_deal(row, asked))
    if game is None:
        raise NotFoundException(f"entry {entry_id} never played deal {asked}: no game to analyse")
    done = await store.stored(db, entry_id, game.deal)
    if done is not None:
        return Response(
            m.Analysis(
                positions=msgspec.convert(done["positions"], list[m.Position]),
                par=None if done["par"] is None else msgspec.convert(done["par"], ParSummary),
                turning_point=done["turning_point"],
                stopped_winnable=stopped_winnable(done["status"], done["positions"]),
            ),
            status_code=200,
        )
    if game.status not in OVER:
        raise HTTPException(status_code=409, detail="the practice game is still being played: analysis once it is over")
    if game.moves > MAX_MOVES:
        raise HTTPException(
            status_code=409,
            detail=f"the analysis covers games of at most {MAX_MOVES:,} moves: this one has {game.moves:,}",
        )
    await analyses_of(request).ask(game, allowance(request, player["id"]))
    return Response(m.Computing(), status_code=202)


def analysed_deal(row: asyncpg.Record, asked: int | None) -> int:
    """The deal whose game is analysed: a practice game's own; with several deals the one asked for
    (400 when none is, 404 past the last); the one deal otherwise."""
    deals = deal_count(row["settings"])
    if row["practice"] and deals > 1:
        if asked not in (None, row["deal"]):
            raise NotFoundException(f"this practice game played deal {row['deal']} only, not deal {asked}")
        return int(row["deal"])
    return practised_deal(asked, deals, "analyse")


ROUTES = [analysis]
