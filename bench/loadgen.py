"""A light load generator: picows websocket clients, one process, cheap per move.

Every player keeps the columns of its own view (face-down cards as -1, from ``state`` and the
columns a ``result`` lists as changed: it never sees more than the player would) and picks a legal
move from them with a few integer comparisons, so a move costs the generator a few microseconds
besides the socket. Watchers follow one entry each and time the updates.

Used by ``bench/server_bench.py``; not a test.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
from wire import ENGINE_CODES, LATE_CODES, ErrorIn, OverIn, ResultIn, StateIn, ViewIn, Window, play_decode, watch_decode

from spidertour.server.cli.bots.view import _GROUPS, CARDS, HIDDEN, KING, ViewRules

# ---------------------------------------------------------------------------------------- a player


class Player(WSListener):
    def __init__(self, gen: Generator, index: int, token: str, entry_id: int) -> None:
        super().__init__()
        self.gen = gen
        self.index = index
        self.token = token
        self.entry_id = entry_id
        self.rng = random.Random(index)
        self.transport: WSTransport | None = None
        self.cols: list[list[int]] = []
        self.free: int | None = None
        self.dealt = 0
        self.piles: list[int] | None = None
        self.stock: int | None = None
        self.can_undo = False
        self.score = 0
        self.over = False
        self.seq = 0
        self.out_seq = 0  # the move waiting for its answer (0: none)
        self.out_move = b""
        self.planned = 0.0  # when that move was due (the latency is counted from here)
        self.owed: deque[float] = deque()  # moves due while one was waiting
        self.ready: asyncio.Future[None] | None = None
        self.started = False
        self.watched = False
        self.acked_scores: deque[tuple[float, int]] = deque()  # (wall time, board score) not yet seen

    # -- socket events

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        transport.send(WSMsgType.TEXT, b'{"type":"auth","token":"%s"}' % self.token.encode())

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if not self.over:
            self.gen.window.errors["disconnected"] += 1
        self.over = True
        self.out_seq = 0
        if self.ready is not None and not self.ready.done():
            self.ready.set_exception(ConnectionError(f"player {self.index} disconnected"))

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is not WSMsgType.TEXT:
            if frame.msg_type is WSMsgType.CLOSE:
                self.gen.window.errors[f"closed_{frame.get_close_code()}"] += 1
            return
        msg = play_decode(frame.get_payload_as_bytes())
        kind = type(msg)
        if kind is ResultIn:
            self._result(msg)
        elif kind is StateIn:
            self._state(msg)
        elif kind is ErrorIn:
            self._error(msg)
        elif kind is OverIn:
            self.over = True

    # -- answers

    def _result(self, msg: ResultIn) -> None:
        if msg.seq != self.out_seq:
            self.gen.window.errors["wrong_seq_answer"] += 1
            return
        now = self.gen.clock()
        gen = self.gen
        w = gen.window
        w.acks += 1
        w.latency.append(now - self.planned)
        self.out_seq = 0
        before = self.score
        if msg.view is not None:
            self._take_view(msg.view)
        else:
            cols = self.cols
            for i, col in zip(msg.changed, msg.columns, strict=True):
                cols[i] = [CARDS[c] for c in col]
            f = msg.fields
            if f is not None:
                self.can_undo = f.can_undo
                self.over = f.over
                self.score = f.final_score if f.over and f.final_score is not None else f.score
                if f.draw_piles is not None:
                    self.piles = [p.count for p in f.draw_piles]
                if f.stock is not None:
                    self.stock = f.stock
        if self.score != before or self.over:
            w.scored += 1
            if self.watched:
                self.acked_scores.append((time.time(), self.score))
        if self.over:
            return
        gen.after_answer(self)

    def _state(self, msg: StateIn) -> None:
        if msg.view is not None:
            self._take_view(msg.view)
            self.seq = max(self.seq, msg.last_seq)
        if msg.status == "joined" and not self.started:
            self.started = True
            assert self.transport is not None
            self.transport.send(WSMsgType.TEXT, b'{"type":"start"}')
            return
        if msg.status != "playing":
            self.over = True
        if self.ready is not None and not self.ready.done():
            self.ready.set_result(None)
            return
        # an answer to a sync after a refusal: carry on
        if not self.over:
            self.gen.after_answer(self)

    def _take_view(self, view: ViewIn) -> None:
        self.cols = [[CARDS[c] for c in col] for col in view.columns]
        self.free = view.free_column
        self.dealt = len(self.cols) - (0 if self.free is None else 1)
        self.piles = None if view.draw_piles is None else [p.count for p in view.draw_piles]
        self.stock = view.stock
        self.can_undo = view.can_undo
        self.over = view.over
        self.score = view.final_score if view.over and view.final_score is not None else view.score

    def _error(self, msg: ErrorIn) -> None:
        w = self.gen.window
        code = msg.code
        if msg.seq is None or msg.seq != self.out_seq:
            w.errors[code] += 1
            return
        if code == "try_again":
            w.errors[code] += 1
            self.gen.loop.call_later(0.2, self._resend)
            return
        self.out_seq = 0
        if code in LATE_CODES:
            w.late[code] += 1
            self.over = True
            return
        if code in ENGINE_CODES:
            w.refused[code] += 1
        else:
            w.errors[code] += 1
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, b'{"type":"sync"}')

    def _resend(self) -> None:
        if self.transport is not None and self.out_seq:
            self.out_seq = self.seq
            self.transport.send(WSMsgType.TEXT, self.out_move)

    # -- moves

    def send(self, planned: float) -> None:
        self.seq += 1
        self.out_seq = self.seq
        self.planned = planned
        self.out_move = self.choose() % self.seq
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, self.out_move)

    def choose(self) -> bytes:
        """A legal move of what this player sees, as JSON with a %d for its sequence number."""
        rng = self.rng
        r = rng.random()
        rules = self.gen.rules
        if self.can_undo and rules.undo and r < 0.03:
            return b'{"type":"undo","seq":%d}'
        deal = self._deal()
        if deal is not None and r < 0.05:
            return deal
        cols = self.cols
        n = len(cols)
        group = self.gen.group
        one_higher = rules.accepts == "one_rank_higher"
        king_only = rules.king_only
        tops = [c[-1] if c else None for c in cols]
        start = rng.randrange(n)
        for k in range(n):
            src = (start + k) % n
            col = cols[src]
            if not col or col[-1] == HIDDEN:
                continue
            up = 0
            for c in reversed(col):
                if c == HIDDEN:
                    break
                up += 1
            count = rng.randint(1, group(col, up))
            first = col[-count]
            for j in range(n):
                dst = (src + 1 + j) % n
                if dst == src:
                    continue
                top = tops[dst]
                if top is None:
                    if king_only and dst < self.dealt and (first & 15) != KING:
                        continue
                    if count == len(col):
                        continue  # a whole column into an empty one changes nothing worth sending
                elif top == HIDDEN:
                    continue
                elif one_higher:
                    if (top & 15) != (first & 15) + 1:
                        continue
                elif top != first + 1 and (top & 15) != (first & 15):
                    continue
                return b'{"type":"move","seq":%%d,"from":%d,"count":%d,"to":%d}' % (src, count, dst)
        if deal is not None:
            return deal
        if self.can_undo and rules.undo:
            return b'{"type":"undo","seq":%d}'
        return b'{"type":"end","seq":%d}'

    def _deal(self) -> bytes | None:
        if self.piles is not None:
            full = [i for i, c in enumerate(self.piles) if c]
            if not full:
                return None
            if self.gen.rules.draw_pile_choice:
                return b'{"type":"deal","seq":%%d,"pile":%d}' % self.rng.choice(full)
            return b'{"type":"deal","seq":%d}'
        if self.stock and (self.gen.rules.deal_onto_empty or all(self.cols[: self.dealt])):
            return b'{"type":"deal","seq":%d}'
        return None


# ---------------------------------------------------------------------------------------- a watcher


class Watcher(WSListener):
    def __init__(self, gen: Generator, follow: Player | None) -> None:
        super().__init__()
        self.gen = gen
        self.follow = follow
        self.ready: asyncio.Future[None] = gen.loop.create_future()

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is not WSMsgType.TEXT:
            return
        data = frame.get_payload_as_bytes()
        now = time.time()
        msg = watch_decode(data)
        if not self.ready.done():
            self.ready.set_result(None)
            return
        w = self.gen.window
        w.updates += 1
        w.update_bytes += len(data)
        if msg.at:
            w.feed_lag.append(now - msg.at)
        p = self.follow
        if p is None or not p.acked_scores:
            return
        for row in msg.changed:
            if row.entry_id != p.entry_id:
                continue
            pending = p.acked_scores
            # the row shows the latest score: every acknowledged change up to the one it shows is seen
            seen = [i for i, (_, s) in enumerate(pending) if s == row.score]
            if seen:
                for _ in range(seen[-1] + 1):
                    at, _s = pending.popleft()
                    w.ack_lag.append(now - at)

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.gen.window.errors["watcher_disconnected"] += 1


# ---------------------------------------------------------------------------------------- the generator


class Generator:
    def __init__(
        self,
        ws_base: str | list[str],
        settings: dict[str, Any],
        play_bases: list[str] | None = None,
        watch_bases: list[str] | None = None,
    ) -> None:
        self.bases = [ws_base] if isinstance(ws_base, str) else ws_base
        self.play_bases = play_bases or self.bases  # the servers' play ports (PLAY_PORT), else their own
        self.watch_bases = watch_bases or self.bases  # where the watchers connect: the same choice
        self.loop = asyncio.get_running_loop()
        self.clock: Callable[[], float] = self.loop.time
        self.rules = ViewRules.of(settings)
        self.group = _GROUPS[self.rules.group]
        self.players: list[Player] = []
        self.watchers: list[Watcher] = []
        self.transports: list[WSTransport] = []
        self.window = Window()
        self.closed_loop = False

    async def connect_players(self, creds: list[tuple[str, int]], concurrency: int = 64) -> None:
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int, token: str, entry_id: int) -> None:
            p = Player(self, i, token, entry_id)
            p.ready = self.loop.create_future()
            base = self.play_bases[i % len(self.play_bases)]
            async with sem:
                transport, _ = await ws_connect(lambda: p, f"{base}/ws/play/{entry_id}", read_buffer_init_size=4096)
                self.transports.append(transport)
                await asyncio.wait_for(p.ready, 60)
            self.players.append(p)

        await asyncio.gather(*(one(i, t, e) for i, (t, e) in enumerate(creds)))
        self.players.sort(key=lambda p: p.index)

    async def connect_watchers(self, tournament_id: int, count: int, concurrency: int = 64) -> None:
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int) -> None:
            follow = self.players[i % len(self.players)] if self.players else None
            if follow is not None:
                follow.watched = True
            w = Watcher(self, follow)
            base = self.watch_bases[i % len(self.watch_bases)]
            query = f"?follow={follow.entry_id}" if follow is not None else ""
            async with sem:
                transport, _ = await ws_connect(
                    lambda: w, f"{base}/ws/watch/{tournament_id}{query}", read_buffer_init_size=4096
                )
                self.transports.append(transport)
                await asyncio.wait_for(w.ready, 60)
            self.watchers.append(w)

        await asyncio.gather(*(one(i) for i in range(count)))

    def after_answer(self, p: Player) -> None:
        if self.closed_loop:
            p.send(self.clock())
        elif p.owed:
            p.send(p.owed.popleft())

    def active(self) -> list[Player]:
        return [p for p in self.players if not p.over]

    async def paced(self, rate: float, seconds: float, drain: float = 10.0) -> tuple[Window, float]:
        """Offer ``rate`` moves a second in all, round robin over the players, for ``seconds``.

        Open loop: a move is due at its time whether or not the last one was answered; a player
        still waiting sends it on the answer, and its latency counts from when it was due. A move
        due for a game that has ended goes to another player still playing (one not waiting for an
        answer), so the offered rate holds as games end.
        """
        self.window = w = Window()
        self.closed_loop = False
        players = self.active()
        if not players:
            raise RuntimeError("no player has a game left to play")
        n = len(players)
        t0 = self.clock()
        end = t0 + seconds
        k = 0
        while True:
            now = self.clock()
            if now >= end:
                break
            due = int((now - t0) * rate)
            while k < due:
                p = players[k % n]
                planned = t0 + k / rate
                k += 1
                if p.over:  # its game has ended: the move goes to another player still playing
                    # Looking back from this one: the nearest that is not waiting for an answer has
                    # its own next move furthest away, so the two do not meet.
                    q = None
                    for j in range(2, n + 1):
                        c = players[(k - j) % n]
                        if not c.over and not c.out_seq:
                            q = c
                            break
                    if q is None:
                        continue
                    p = q
                if p.out_seq:
                    p.owed.append(planned)
                else:
                    p.send(planned)
            await asyncio.sleep(0.002)
        acks_in_time = w.acks
        for p in players:
            w.errors["not_sent_in_time"] += len(p.owed)
            p.owed.clear()
        if not w.errors["not_sent_in_time"]:
            del w.errors["not_sent_in_time"]
        await self._drain(drain)
        return w, acks_in_time / seconds

    async def saturated(self, seconds: float, drain: float = 10.0) -> tuple[Window, float]:
        """Every player sends its next move as soon as the last is answered."""
        self.window = w = Window()
        self.closed_loop = True
        t0 = self.clock()
        for p in self.active():
            if not p.out_seq:
                p.send(t0)
        await asyncio.sleep(seconds)
        self.closed_loop = False
        acks = w.acks
        await self._drain(drain)
        return w, acks / seconds

    async def _drain(self, seconds: float) -> None:
        end = self.clock() + seconds
        while any(p.out_seq for p in self.players) and self.clock() < end:
            await asyncio.sleep(0.01)
        left = sum(1 for p in self.players if p.out_seq)
        if left:
            self.window.errors["unanswered"] += left
            for p in self.players:
                p.out_seq = 0

    def close(self) -> None:
        for t in self.transports:
            t.disconnect()
