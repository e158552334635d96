"""One bot player: an entry, a play connection, moves chosen from what it sees at its pace."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

from .config import BotError
from .crew import ANSWER_SECONDS, ENGINE_CODES, GAME_DONE_CODES, Crew, decode, encode, ws_url
from .view import apply_result


class Bot:
    """One player: one entry, one play connection, reconnecting when the connection drops."""

    def __init__(self, swarm: Crew, index: int, server: str, token: str, entry_id: int, rng: random.Random) -> None:
        self.swarm = swarm
        self.index = index
        self.server = server
        self.token = token
        self.entry_id = entry_id
        self.rng = rng
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.status = "joined"
        self.seq = 0
        self.pending: tuple[int, dict[str, Any]] | None = None  # sent, not yet answered
        self.end_at: float | None = None  # seconds into the play phase at which to end the game
        self.done = False
        self.final: dict[str, Any] | None = None

    # -- connection

    async def connect(self) -> None:
        """Open the play socket, authenticate, start the game if needed."""
        from websockets.asyncio.client import connect

        cfg = self.swarm.cfg
        self.ws = await connect(
            f"{self.swarm.play_bases.get(self.server) or ws_url(self.server)}/ws/play/{self.entry_id}",
            compression="deflate" if cfg.compression == "deflate" else None,
            max_size=1 << 22,
            ping_interval=None,
            open_timeout=30,
            close_timeout=2,
        )
        await self.ws.send(encode({"type": "auth", "token": self.token}))
        state = await self._next("state")
        self._take_state(state)
        if self.status == "joined":
            await self.ws.send(b'{"type":"start"}'.decode())
            msg = await self._next("state")
            self._take_state(msg)
        self.swarm.stats.connected += 1

    async def _next(self, kind: str) -> dict[str, Any]:
        """The next message of a kind, failing on an error that ends the session."""
        while True:
            msg = decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
            if msg["type"] == kind:
                return msg  # type: ignore[no-any-return]
            if msg["type"] == "error":
                code = msg["code"]
                if code in ("slow_down",):
                    self.swarm.stats.errors[code] += 1
                    continue
                if code == "already_started":
                    return {"type": "state", "status": "playing", "view": self.view, "last_seq": self.seq}
                raise BotError(f"bot {self.index}: {code}: {msg['reason']}")
            if msg["type"] == "over":
                self._over(msg)
                return {"type": "state", "status": msg["outcome"], "view": self.view, "last_seq": self.seq}

    def _take_state(self, state: dict[str, Any]) -> None:
        self.status = state["status"]
        if state.get("view") is not None:
            self.view = state["view"]
        self.seq = max(self.seq, int(state.get("last_seq") or 0))
        if self.status not in ("joined", "playing") and not self.done:
            self.done = True
            self.swarm.stats.outcomes[self.status] += 1

    def _over(self, msg: dict[str, Any]) -> None:
        if not self.done:
            self.done = True
            self.final = msg
            self.swarm.stats.outcomes[msg["outcome"]] += 1

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def _reconnect(self, stop: asyncio.Event) -> bool:
        await self.close()
        self.swarm.stats.connected -= 1
        delay = 0.2
        while not stop.is_set():
            self.swarm.stats.reconnects += 1
            try:
                await self.connect()
                return True
            except BotError as err:
                self.swarm.stats.errors["reconnect_refused"] += 1
                self.swarm.note(str(err))
                return False
            except Exception:
                self.swarm.stats.errors["reconnect_failed"] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay * (0.5 + self.rng.random()))
            delay = min(delay * 2, 2.0)
        return False

    # -- play

    def _choose(self) -> dict[str, Any]:
        assert self.view is not None
        if self.end_at is not None and time.monotonic() - self.swarm.play_started >= self.end_at:
            return {"type": "end"}
        return self.swarm.choose(self.view, self.swarm.rules, self.rng)

    async def play(self, stop: asyncio.Event) -> None:
        """Play until the game is over or ``stop`` is set, at the configured pace."""
        cfg = self.swarm.cfg
        stats = self.swarm.stats
        stats.playing += 1
        try:
            next_at = time.monotonic() + (self.rng.random() / cfg.pace if cfg.pace > 0 else 0)
            while not self.done and not stop.is_set():
                if cfg.pace > 0:
                    wait = next_at - time.monotonic()
                    if wait > 0:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(stop.wait(), wait)
                        if stop.is_set():
                            break
                    factor = 1 + cfg.jitter * (2 * self.rng.random() - 1)
                    next_at = max(next_at + factor / cfg.pace, time.monotonic() - 1 / cfg.pace)
                if self.pending is None:
                    self.seq += 1
                    self.pending = (self.seq, self._choose())
                try:
                    await self._exchange(first=True)
                except (OSError, TimeoutError, _Closed) as err:
                    stats.errors["disconnected" if not isinstance(err, TimeoutError) else "no_answer"] += 1
                    if stop.is_set() or not await self._reconnect(stop):
                        break
                    with contextlib.suppress(OSError, TimeoutError, _Closed):
                        if self.pending is not None and not self.done:
                            await self._exchange(first=False)  # resend the unanswered move, same seq
        finally:
            stats.playing -= 1

    async def _exchange(self, first: bool) -> None:
        """Send the pending move and read until its answer (or the end of the game)."""
        from websockets.exceptions import ConnectionClosed

        assert self.pending is not None
        seq, move = self.pending
        stats = self.swarm.stats
        sent = time.perf_counter()
        try:
            await self.ws.send(encode({**move, "seq": seq}).decode())
            while True:
                msg = decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
                kind = msg["type"]
                if kind == "result":
                    if msg["seq"] != seq:
                        stats.errors["wrong_seq_answer"] += 1
                        continue
                    # Only a move that changes the score reaches the watchers: only those are timed to them.
                    fields = msg["fields"]
                    scored = self.view is None or fields.get("score") != self.view.get("score") or fields.get("over")
                    if self.view is not None:
                        self.view = apply_result(self.view, msg)
                    assert self.view is not None  # a result answers a move, made from a view
                    self.pending = None
                    stats.ack(
                        self.entry_id,
                        time.perf_counter() - sent if first else None,
                        self.swarm.track_acks and bool(scored),
                        _board_score(self.view),
                    )
                    self.swarm.ack_log.write(self.entry_id, seq, msg["n"], msg["move"])
                    self.swarm.on_ack(self, seq, msg)
                    if self.view.get("over"):
                        # the "over" message follows at once
                        over = decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
                        if over.get("type") == "over":
                            self._over(over)
                    return
                if kind == "over":
                    self._over(msg)
                    continue  # the move's own answer (game_over / time_up) follows
                if kind == "state":
                    self._take_state(msg)
                    continue
                if kind != "error":
                    continue
                code = msg["code"]
                if msg.get("seq") is None:
                    stats.errors[code] += 1
                    if code in ("slow_down",):
                        continue
                    if code in ("taken_over", "flood", "unauthorised"):
                        self.done = True
                        self.pending = None
                        return
                    continue  # try_again before a 1011 close: the close follows
                if msg["seq"] != seq:
                    continue
                if code in GAME_DONE_CODES:
                    stats.late[code] += 1  # the clock ended the game first: expected, not an error
                    self.pending = None
                    if not self.done:
                        await self._sync()
                    return
                if code == "try_again":
                    stats.errors[code] += 1
                    first = False
                    await asyncio.sleep(0.2 + 0.3 * self.rng.random())
                    await self.ws.send(encode({**move, "seq": seq}).decode())
                    continue
                if code in ENGINE_CODES:
                    stats.refused[code] += 1
                else:
                    stats.errors[code] += 1
                self.pending = None  # a refused seq is not used up, but a fresh one is as good
                await self._sync()
                return
        except ConnectionClosed as err:
            raise _Closed(str(err)) from err

    async def _sync(self) -> None:
        await self.ws.send('{"type":"sync"}')
        while True:
            msg = decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
            if msg["type"] == "state":
                self._take_state(msg)
                return
            if msg["type"] == "over":
                self._over(msg)


class _Closed(Exception):
    pass


def _board_score(view: dict[str, Any]) -> int:
    """The score the leaderboard shows for this view (the final score once the game is over)."""
    final = view.get("final_score")
    return int(final if view.get("over") and final is not None else view.get("score") or 0)
