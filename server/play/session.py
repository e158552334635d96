"""The play websocket: one player's entry, one connection, one writer at a time.

Every event of a connection (a frame from the client, the game's deadline, a takeover by a newer
connection) is handled one at a time, holding the session's lock, in order: through one queue, or
a frame directly by the reader when nothing else waits (which spares a task switch per move).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from spidertour.engine import TIMED_OUT, EngineError, GameOverError

from ..core import Core
from ..fairplay.limits import Limiter
from ..lib.http import valid_id
from ..lib.messages import encoder
from ..lib.tokens import token_hash
from ..operations.metrics import ACK_SECONDS, DB_ERRORS, REFUSALS
from ..players.store import player_by_token
from ..storage.pool import DB_FAILURES, UNAVAILABLE
from ..watch.boards import Boards
from ..watch.messages import row_of
from . import deals, store
from . import messages as p
from .live import FINISHED, OVER, LiveGame, load
from .pacing.rate import TokenBucket
from .refusals import not_open
from .runtime import Event, Play
from .shapes import dt, engine_move, move_record, over_of, practice_result, result_of, state_of
from .stop import why_stopped
from .transport import Transport

log = logging.getLogger("spidertour.play")

CLOSE_TAKEN_OVER = 4001
CLOSE_UNAUTHORISED = 4003  # also when the session of the connection's token ends (signed out)
CLOSE_FLOOD = 4008
AUTH_SECONDS = 15.0
ROUND_GRACE = 30.0  # seconds past a round's time that a waiting session still looks for its next deal
BUSY = "the server is busy: the move was not saved, send it again in a moment"  # MOVES_WAITING, LOOP_LAG_MS


class PlaySession:
    def __init__(
        self, core: Core, play: Play, boards: Boards, limiter: Limiter, socket: Transport, entry_id: int
    ) -> None:
        self.core = core
        self.db = core.db
        self.config = core.config
        self.play = play
        self.boards = boards
        self.limiter = limiter
        self.socket = socket
        self.entry_id = entry_id
        self.who = f"entry {entry_id}"  # the connection in the log (made once, not on every answer)
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        self.live: LiveGame | None = None
        self.epoch = 0
        self.dirty = False  # a commit failed: reload from PostgreSQL before the next move
        self.timer: asyncio.Task[None] | None = None
        self.closed = False
        self.turn = asyncio.Lock()  # held while an event is handled: one at a time, in order
        self.bucket = TokenBucket(core.config.rate_per_second, core.config.rate_burst)
        self.inline = False  # authenticated: the reader may handle a frame itself when nothing waits
        self.stopped = False  # told that the organiser ended the game
        self.unwatch: Callable[[], None] | None = None  # the session's end no longer told

    # ------------------------------------------------------------------ plumbing

    async def send(self, msg: p.ServerMessage) -> None:
        if not self.closed:  # a client gone before its answer closes the session quietly
            self.closed = not await self.socket.send_message(encoder.encode(msg), self.who)

    async def error(self, code: str, reason: str, seq: int | None = None) -> None:
        REFUSALS.labels(code).inc()
        await self.send(p.Error(code=code, reason=reason, seq=seq))

    async def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                await self.socket.close(code, reason[:120])

    async def _read(self) -> None:
        """Read frames. A frame that finds nothing waiting or being handled, within the rate, is handled
        here at once (the common case: one move, its answer, the next move); the others go through the
        queue in order. A client that sends far faster than it is answered is cut off."""
        limit = self.config.flood_limit
        warned = False
        try:
            while True:
                data = await self.socket.receive()
                if data is None:
                    break
                if self.inline and self.events.empty() and not self.turn.locked() and self.bucket.take():
                    try:
                        async with self.turn:
                            await self._frame(data)
                    except Exception as err:  # raised in the session's own loop, as if it had handled it
                        self.events.put_nowait(("raise", err))
                        break
                    continue
                self.events.put_nowait(("frame", data))
                waiting = self.events.qsize()
                if waiting > limit:
                    self.events.put_nowait(("flood", None))
                    break
                if waiting > limit // 4 and not warned:
                    self.events.put_nowait(("slow", waiting))
                warned = waiting > limit // 4
        except Exception:  # a broken socket ends the session like a disconnect
            log.debug("reader stopped", exc_info=True)
        self.events.put_nowait(("gone", None))

    def _decode(self, data: str | bytes) -> p.ClientMessage | str:
        return p.decode(data, self.config.max_message_bytes)

    # ------------------------------------------------------------------ the session

    async def run(self) -> None:
        await self.socket.accept()
        reader = asyncio.create_task(self._read())
        try:
            if await self._authenticate():
                await self._loop()
        except DB_FAILURES as err:  # out of reach or too slow: one line; anything else: its traceback
            DB_ERRORS.inc()
            quiet = isinstance(err, UNAVAILABLE)
            log.warning("database unavailable; closing entry %s: %r", self.entry_id, err, exc_info=not quiet)
            with contextlib.suppress(Exception):
                await self.error("try_again", "the database is unavailable: reconnect in a moment")
            await self.close(1011, "database unavailable")
        finally:
            reader.cancel()
            if self.unwatch:
                self.unwatch()
            if self.timer:
                self.timer.cancel()
            if self.play.sessions.get(self.entry_id) is self.events:
                del self.play.sessions[self.entry_id]
            await self.close(1000, "bye")

    async def _authenticate(self) -> bool:
        try:
            kind, data = await asyncio.wait_for(self.events.get(), AUTH_SECONDS)
        except TimeoutError:
            await self.error("unauthorised", 'send {"type": "auth", "token": ...} first')
            await self.close(CLOSE_UNAUTHORISED, "no auth")
            return False
        if kind != "frame":
            return False
        msg = self._decode(data)
        if not isinstance(msg, p.Auth):
            await self.error("unauthorised", 'the first message must be {"type": "auth", "token": ...}')
            await self.close(CLOSE_UNAUTHORISED, "no auth")
            return False
        player = await player_by_token(self.db, token_hash(msg.token))
        entry = await store.entry(self.db, self.entry_id) if valid_id(self.entry_id) else None
        if player is None or entry is None or entry["player_id"] != player["id"]:
            await self.error("unauthorised", "this token does not own that entry")
            await self.close(CLOSE_UNAUTHORISED, "not your entry")
            return False
        self.unwatch = self.play.signouts.watch(
            player["session_id"], lambda: self.events.put_nowait(("signed_out", None))
        )
        self.epoch = await store.claim(self.db, self.entry_id, self.limiter.hash_of(self.socket.address))
        older = self.play.sessions.get(self.entry_id)
        self.play.sessions[self.entry_id] = self.events
        if older is not None:
            older.put_nowait(("taken_over", None))
        await self.boards.hub.takeover(self.entry_id)  # and on every other process
        await self._reload()
        await self._send_state()
        return True

    async def _reload(self) -> None:
        self.live = await load(self.db, self.entry_id)
        self.dirty = False
        self._arm_timer()

    def _arm_timer(self) -> None:
        if self.timer:
            self.timer.cancel()
            self.timer = None
        live = self.live
        if live and live.game is not None and not live.game.over and live.deadline is not None:
            self.timer = asyncio.create_task(self._wake_at(live.deadline, "deadline"))
        elif live and live.game is None and live.start == "together" and live.status == "joined":
            # Past the opening time and still waiting (the database's clock a little behind): look again soon.
            at = live.opens_at if live.opens_at > time.time() else time.time() + 0.25
            self.timer = asyncio.create_task(self._wake_at(at, "together"))
        elif live and live.deals > 1 and not self.stopped and (round_at := live.next_round_at()) is not None:
            # The next deal of a sitting in rounds: started by the server at its time (looked for again
            # soon while the database's clock is a little behind, for a while).
            now = time.time()
            if round_at > now - ROUND_GRACE:
                self.timer = asyncio.create_task(self._wake_at(max(round_at, now + 0.25), "together"))

    async def _wake_at(self, at: float, event: str) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        self.events.put_nowait((event, None))

    async def _send_state(self) -> None:
        live = self.live
        assert live is not None
        state = state_of(live, self._time_left())
        if live.practice and live.game is not None and live.game.over:  # reopened: what its end said
            state.would_rank, state.par = await practice_result(self.db, live)
        await self.send(state)

    def _time_left(self) -> float | None:
        live = self.live
        if live is None or live.deadline is None:
            return None
        if live.game is not None and live.game.over:
            return float(live.game.time_left or 0)
        return max(0.0, int((live.deadline - time.time()) * 1000) / 1000)  # to the millisecond (round() is slower)

    async def _loop(self) -> None:
        self.inline = True
        while not self.closed:
            kind, data = await self.events.get()
            async with self.turn:
                if kind == "frame":
                    await self.bucket.wait()
                    await self._frame(data)
                elif kind == "deadline":
                    await self._deadline()
                elif kind == "together":
                    await self._start_together()
                elif kind == "taken_over":
                    await self._taken_over()
                elif kind == "signed_out":  # the token's session ended, on whichever process
                    await self.error("session_ended", "this token's session has ended (signed out): sign in again")
                    await self.close(CLOSE_UNAUTHORISED, "session ended")
                elif kind == "stopped":  # the organiser ended the game (play.stop)
                    await self._stopped(data)
                elif kind == "slow":
                    await self.error("slow_down", f"{data} messages are waiting for answers: slow down")
                elif kind == "flood":
                    await self.error("flood", "far too many messages waiting: the connection is closed")
                    await self.close(CLOSE_FLOOD, "flooding")
                elif kind == "raise":
                    raise data
                elif kind == "gone":
                    return

    async def _stopped(self, why: str, seq: int | None = None) -> None:
        """The organiser ended the game: said once, then the game as it is now."""
        if self.stopped:
            if seq is not None:
                await self.error("not_saved", "the move was not saved: the organiser ended the game", seq)
            return
        self.stopped = True
        await self.error("stopped", why, seq)
        await self._reload()
        await self._send_state()

    async def _taken_over(self) -> None:
        await self.error("taken_over", "a newer connection took over this entry")
        await self.close(CLOSE_TAKEN_OVER, "taken over by a newer connection")

    async def _frame(self, data: str | bytes) -> None:
        msg = self._decode(data)
        if isinstance(msg, str):
            await self.error("bad_message", msg)
        elif isinstance(msg, p.PlayMove | p.PlayDeal | p.PlayUndo | p.PlayEnd):
            began = time.perf_counter()
            await self._play(msg)
            ACK_SECONDS.observe(time.perf_counter() - began)
        elif isinstance(msg, p.Start):
            await self._start()
        elif isinstance(msg, p.Sync):
            if self.dirty:
                await self._reload()
            await self._send_state()
        elif isinstance(msg, p.Ping):
            await self.send(p.Pong(server_time=dt(time.time())))
        else:
            await self.error("bad_message", "already authenticated")

    async def _start_together(self, asked: bool = False) -> None:
        """The opening time of a tournament that starts together: the server starts every game
        (the clock's sweep does it too, for players who are not connected; whichever runs first)."""
        live = self.live
        assert live is not None
        before = (live.status, live.deal)
        started = await store.start_together(self.db, live.tournament_id)
        if live.deals > 1:  # and the next deal of every entry whose round has come
            started += await deals.next_together(self.db, live.tournament_id)
        for record in (r for r in started if not r.get("hidden")):  # matches, brackets' games: no board
            await self.boards.publish(record["tournament_id"], record["ordinal"], row_of(record))
        await self._reload()  # still waiting (the database's clock a moment behind): the timer looks again
        if self.live is not None and (self.live.status, self.live.deal) != before:
            await self._send_state()
        elif asked:
            await self.error("starts_together", "the server is starting every game: a moment")

    async def _start(self) -> None:
        live = self.live
        assert live is not None
        if live.status != "joined":
            if live.deal < live.deals and live.status in OVER and not live.practice:  # a practice: one deal
                await self._next_deal()
            else:
                await self.error("already_started", f"this entry is {live.status}")
            return
        if live.start == "together":
            if time.time() < live.opens_at:
                wait = live.opens_at - time.time()
                await self.error(
                    "starts_together",
                    f"this tournament starts together at {dt(live.opens_at).isoformat()} (in {wait:.0f} s): "
                    "the server starts your game then",
                )
            else:
                await self._start_together(asked=True)
            return
        row = await store.start(self.db, self.entry_id, live.time_limit)
        if row is None:
            await self.error("not_open", await not_open(self.db, live, "games start"))
            return
        await self._reload()
        await self._send_state()
        await self._publish()

    async def _next_deal(self) -> None:
        """Several deals: the next one, after the last is over (start "own": now, while the tournament
        is open; "together": at its round's time, for everyone)."""
        live = self.live
        assert live is not None
        if live.start == "together":
            at = live.next_round_at() or 0.0
            if time.time() < at:
                await self.error(
                    "starts_together",
                    f"deal {live.deal + 1} of {live.deals} starts for everyone at {dt(at).isoformat()} "
                    f"(in {at - time.time():.0f} s): the server starts it then",
                )
            else:
                await self._start_together(asked=True)
            return
        if await deals.next_own(self.db, self.entry_id) is None:
            await self.error("not_open", await not_open(self.db, live, "a deal starts"))
            return
        await self._reload()
        await self._send_state()
        await self._publish()

    async def _publish(self) -> None:
        live = self.live
        assert live is not None
        if live.practice or live.hidden:  # on no leaderboard
            return
        await self.boards.publish(live.tournament_id, live.ordinal, live.row())

    async def _play(self, msg: p.PlayMessage) -> None:
        if self.dirty:
            await self._reload()
        live = self.live
        assert live is not None
        seq = msg.seq
        if live.game is None:
            await self.error("not_started", 'start the game first: {"type": "start"}', seq)
            return
        if seq <= live.last_seq:
            if seq == live.last_seq and live.last_result is not None and live.last_move is not None:
                if engine_move(msg).to_json() != live.last_move:
                    await self.error("seq_reused", f"sequence number {seq} was used for another move", seq)
                    return
                await self._send_result(seq, live.last_move, live.last_result, repeated=True)
            else:
                await self.error("stale_seq", f"sequence numbers must grow: the last accepted was {live.last_seq}", seq)
            return
        if self.play.busy:  # overloaded: refused before it changes anything, answered at once
            await self.error("try_again", BUSY, seq)
            return
        game = live.game
        assert live.started is not None
        move = engine_move(msg)
        t = time.time() - live.started
        standing = (game.score, game.outcome)  # what the leaderboard shows of this entry
        try:
            result = game.play(move, t)
        except GameOverError as err:
            if game.outcome == TIMED_OUT and live.status == "playing":
                await self._deadline()
            await self.error(err.code, err.reason, seq)
            return
        except EngineError as err:
            await self.error(err.code, err.reason, seq)
            return
        move_json = move.to_json()
        record = move_record(live, self.epoch, seq, move_json)
        try:
            ok = await self.play.moves.submit(record)
        except DB_FAILURES as err:
            quiet = isinstance(err, UNAVAILABLE)
            log.warning("commit failed for entry %s: %r", live.entry_id, err, exc_info=not quiet)
            self.dirty = True
            await self.error("try_again", "the move was not saved (database unavailable): send it again", seq)
            return
        if not ok:
            await self._lost_write(seq)
            return
        live.moves += 1
        live.last_seq = seq
        live.last_move = move_json
        live.last_result = result
        live.status = record.status
        if (game.score, game.outcome) != standing:  # most moves change no score: nothing to rank or tell
            await self._publish()
        await self._send_result(seq, move_json, result)
        if game.over:
            await self._send_over()
            if live.deals > 1:
                self._arm_timer()  # start "together": the next round's start

    async def _lost_write(self, seq: int) -> None:
        """The commit matched nothing: a newer connection holds the entry, or the clock ran out."""
        entry = await store.entry(self.db, self.entry_id)
        if entry is None or entry["epoch"] != self.epoch:
            why = await why_stopped(self.db, self.entry_id)  # the organiser's end, if Redis did not bring it
            await (self._taken_over() if why is None else self._stopped(why, seq))
            return
        await self._reload()
        await self.error("not_saved", f"the move was not saved: the game is {entry['status']}", seq)
        if self.live and self.live.game and self.live.game.over:
            await self._publish()
            await self._send_over()

    async def _send_result(self, seq: int, move: dict[str, Any], result: Any, repeated: bool = False) -> None:
        """What the move changed (``shapes.result_of``)."""
        live = self.live
        assert live is not None
        await self.send(result_of(live, seq, move, result, self._time_left() or 0.0, repeated))

    async def _send_over(self) -> None:
        live = self.live
        assert live is not None and live.game is not None
        over = over_of(live)
        if live.practice:  # once a game, at its end: where it would have ranked, and the par
            over.would_rank, over.par = await practice_result(self.db, live)
        await self.send(over)

    async def _deadline(self) -> None:
        live = self.live
        if live is None or live.game is None or live.status in FINISHED:
            return
        if live.deadline is not None and time.time() < live.deadline:
            self._arm_timer()
            return
        await store.time_out(self.db, live.entry_id)
        await self._reload()
        if self.live and self.live.game and self.live.game.over:
            await self._publish()
            await self._send_over()
