"""The organiser's actions that reach past one SQL statement: ending games, cancelling, schedules."""

from __future__ import annotations

import logging
import math
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from redis.exceptions import RedisError

from spidertour.engine import End, GameOverError

from . import protocol as p
from . import store
from .leaderboard import Row, row_of
from .live import load
from .metrics import REDIS_ERRORS
from .services import Services

log = logging.getLogger("spidertour.organiser")

SCHEDULE_SECONDS = 5.0  # how often the clock looks for scheduled tournaments to create
MAX_AHEAD = 10  # occurrences created at once per schedule


async def end_game(services: Services, entry_id: int, why: str) -> None:
    """End an entry's game now as its player's End would (an entry never started becomes absent).

    The entry is claimed first (a new epoch), so no connection, on any process, can commit a move
    after this; a connection on this process is told why at once.
    """
    db = services.db
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
    session = services.sessions.get(entry_id)
    if session is not None:
        session.events.put_nowait(("stopped", why))


async def cancel(services: Services, tournament_id: int) -> bool:
    """Cancel: every game ends now, nothing is ranked, the seed is revealed. False if already over."""
    absent = await store.cancel(services.db, tournament_id)
    if absent is None:
        return False
    for entry_id in await store.playing(services.db, tournament_id):
        await end_game(services, entry_id, "the organiser cancelled the tournament")
    try:
        board = services.board
        await services.redis.delete(*(board.key(tournament_id, part) for part in ("built", "rank", "rows")))
    except RedisError:
        REDIS_ERRORS.inc()
    services.hub.status_changed(tournament_id, "cancelled")
    log.info("tournament %s cancelled", tournament_id)
    return True


async def disqualify(services: Services, tournament_id: int, entry_id: int, reason: str) -> str:
    """Out of the ranking, live and final: 'ok', 'missing' or 'already'."""
    outcome = await store.disqualify(services.db, tournament_id, entry_id, reason)
    if outcome != "ok":
        return outcome
    entry = await store.entry(services.db, entry_id)
    if entry is not None and entry["status"] in ("joined", "playing"):
        await end_game(services, entry_id, f"disqualified: {reason}")
    board = services.board
    try:
        pipe = services.redis.pipeline(transaction=False)
        pipe.zrem(board.key(tournament_id, "rank"), str(entry_id))
        pipe.hdel(board.key(tournament_id, "rows"), str(entry_id))
        await pipe.execute()
    except RedisError:
        REDIS_ERRORS.inc()
        services.stale_boards.add(tournament_id)
    entry = await store.entry(services.db, entry_id)
    if entry is not None:
        row = row_of(entry)
        services.hub.changed(
            tournament_id,
            Row(
                entry_id=row.entry_id,
                player=row.player,
                score=row.score,
                status="disqualified",
                time_left=row.time_left,
            ),
        )
    log.info("entry %s of tournament %s disqualified: %s", entry_id, tournament_id, reason)
    return "ok"


# ----------------------------------------------------------------------------- schedules


def occurrences(
    first: datetime, every: int, open_for: int, ahead: int, now: datetime, limit: int = MAX_AHEAD
) -> list[datetime]:
    """The occurrences due now: not yet closed (opens + open_for > now), opening by now + ahead."""
    period = timedelta(minutes=every)
    k = max(0, math.floor((now - timedelta(minutes=open_for) - first) / period) + 1)
    found = []
    while len(found) < limit:
        at = first + k * period
        if at > now + timedelta(minutes=ahead):
            break
        found.append(at)
        k += 1
    return found


def next_occurrence(first: datetime, every: int, now: datetime) -> datetime:
    period = timedelta(minutes=every)
    k = max(0, math.ceil((now - first) / period))
    return first + k * period


def tournament_body(schedule: Any, at: datetime) -> p.TournamentCreate:
    template = dict(schedule["template"])
    return msgspec.convert(
        {
            **template,
            "name": f"{schedule['name']} {at:%Y-%m-%d %H:%M}",
            "opens_at": at.isoformat(),
            "closes_at": (at + timedelta(minutes=schedule["open_minutes"])).isoformat(),
        },
        p.TournamentCreate,
    )


async def create_scheduled(services: Services, schedule_id: int | None = None) -> list[int]:
    """Create every scheduled tournament now due; each occurrence once, whichever process gets there first."""
    from .routes import create_tournament

    now = datetime.now(UTC)
    made = []
    rows = [await store.schedule(services.db, schedule_id)] if schedule_id else await store.schedules(services.db, True)
    for schedule in rows:
        if schedule is None or not schedule["active"]:
            continue
        for at in occurrences(
            schedule["first_opens_at"],
            schedule["every_minutes"],
            schedule["open_minutes"],
            schedule["ahead_minutes"],
            now,
        ):
            try:
                created = await create_tournament(services, tournament_body(schedule, at), (schedule["id"], at))
            except Exception:
                log.warning("schedule %s could not create its tournament of %s", schedule["id"], at, exc_info=True)
                break
            if created is not None:
                made.append(created.id)
                log.info("schedule %s created tournament %s opening %s", schedule["id"], created.id, at)
    return made


async def schedule_out(services: Services, row: Any) -> p.Schedule:
    recent = await store.scheduled_tournaments(services.db, row["id"])
    return p.Schedule(
        id=row["id"],
        name=row["name"],
        settings=row["template"].get("settings", {}),
        first_opens_at=row["first_opens_at"],
        every_minutes=row["every_minutes"],
        open_minutes=row["open_minutes"],
        ahead_minutes=row["ahead_minutes"],
        active=row["active"],
        next_opens_at=next_occurrence(row["first_opens_at"], row["every_minutes"], datetime.now(UTC))
        if row["active"]
        else None,
        tournaments=[r["id"] for r in recent],
    )
