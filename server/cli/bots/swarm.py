"""``spidertour bots``: many bot players and leaderboard watchers against a running server.

Each bot is a real client: it registers over HTTP, joins a tournament, opens the play websocket,
starts its game and plays with a policy (``random`` or ``greedy``, see ``server/bots_view.py``)
at a pace, choosing every move from the last view the server sent (it never sees a face-down
card). Some bots end their game early, the others play until their time runs out or the run
ends. Watchers follow ``/ws/watch/{id}`` and measure how late updates arrive.

What is measured:

- acknowledged moves a second, and the acknowledgement latency (send to ``result``);
- errors by code, reconnections, games over by outcome;
- watcher lag: receive time minus the update's ``at`` (every watcher), and, for a sample of
  watchers, the time from a move's acknowledgement to the first update made after it that
  lists the entry (what a person watching the board waits for).

Every acknowledged move can be logged (``--ack-log FILE``, JSON lines: ``entry_id``, ``seq``, ``n``,
``move``) and checked against PostgreSQL later with ``spidertour bots --check-acks FILE``.
The classes are used by ``bench/server_bench.py`` and the fault tests as well.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import sys
import time
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import msgspec

from .bots_view import POLICIES, ViewRules, apply_result
from .config import server_url

DEFAULT_URL = "http://127.0.0.1:8000"
ENGINE_CODES = {
    "out_of_range",
    "same_column",
    "empty_column",
    "face_down",
    "not_a_group",
    "cannot_place",
    "king_only",
    "missing_field",
    "no_piles",
    "wrong_pile",
    "pile_empty",
    "stock_empty",
    "nothing_to_deal",
    "undo_off",
    "undo_limit",
    "nothing_to_undo",
    "reveals_final",
}
GAME_DONE_CODES = {"time_up", "game_over", "not_saved"}
ANSWER_SECONDS = 15.0  # no answer to a move for this long: reconnect and resend it

_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


class BotError(Exception):
    """A bad argument or an unusable server answer: one clear line, no traceback."""


# ---------------------------------------------------------------------------------------- figures


def percentile(values: Any, q: float) -> float | None:
    """The q-th percentile (0-100) by nearest rank, or None without values."""
    if not len(values):
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return float(ordered[k])


@dataclass
class Stats:
    started: float = field(default_factory=time.monotonic)
    acks: int = 0
    resent_acks: int = 0  # acknowledged after a reconnection or try_again (not in the latency figures)
    latency: array = field(default_factory=lambda: array("d"))  # seconds, every first-try acknowledgement
    window: array = field(default_factory=lambda: array("d"))  # the same, since the display last looked
    errors: Counter = field(default_factory=Counter)  # error codes from the server, and client-side failures
    refused: Counter = field(default_factory=Counter)  # engine refusals (a bot's view was wrong: a bug)
    outcomes: Counter = field(default_factory=Counter)
    late: Counter = field(default_factory=Counter)  # moves refused because the game had just ended
    reconnects: int = 0
    connected: int = 0
    playing: int = 0
    feed_lag: array = field(default_factory=lambda: array("d"))  # receive time - update "at"
    ack_lag: array = field(default_factory=lambda: array("d"))  # ack -> first update naming the entry
    updates: int = 0
    update_bytes: int = 0
    watchers: int = 0
    watch_errors: Counter = field(default_factory=Counter)
    ack_times: dict[int, array] = field(default_factory=dict)  # entry id -> wall-clock ack times
    ack_scores: dict[int, array] = field(default_factory=dict)  # entry id -> the score each ack made

    def ack(self, entry_id: int, latency: float | None, track: bool, score: int = 0) -> None:
        self.acks += 1
        if latency is None:
            self.resent_acks += 1
        else:
            self.latency.append(latency)
            self.window.append(latency)
        if track:
            self.ack_times.setdefault(entry_id, array("d")).append(time.time())
            self.ack_scores.setdefault(entry_id, array("q")).append(score)

    def figures(self, seconds: float) -> dict[str, Any]:
        def ms(v: float | None) -> float | None:
            return None if v is None else round(v * 1000, 2)

        return {
            "seconds": round(seconds, 2),
            "acknowledged_moves": self.acks,
            "moves_per_second": round(self.acks / seconds, 1) if seconds > 0 else None,
            "resent_acknowledged": self.resent_acks,
            "ack_ms": {
                "p50": ms(percentile(self.latency, 50)),
                "p95": ms(percentile(self.latency, 95)),
                "p99": ms(percentile(self.latency, 99)),
                "max": ms(max(self.latency) if self.latency else None),
            },
            "errors": dict(self.errors),
            "error_count": sum(self.errors.values()),
            "refused_by_engine": dict(self.refused),
            "reconnects": self.reconnects,
            "outcomes": dict(self.outcomes),
            "refused_after_end": dict(self.late),
            "watchers": self.watchers,
            "watch_updates": self.updates,
            "watch_bytes": self.update_bytes,
            "watch_errors": dict(self.watch_errors),
            "feed_lag_ms": {
                "p50": ms(percentile(self.feed_lag, 50)),
                "p99": ms(percentile(self.feed_lag, 99)),
                "max": ms(max(self.feed_lag) if self.feed_lag else None),
            },
            "ack_to_watcher_ms": {
                "p50": ms(percentile(self.ack_lag, 50)),
                "p99": ms(percentile(self.ack_lag, 99)),
                "max": ms(max(self.ack_lag) if self.ack_lag else None),
                "samples": len(self.ack_lag),
            },
        }


class AckLog:
    """JSON lines, one per acknowledged move: entry_id, seq, n, move."""

    def __init__(self, path: str | None) -> None:
        self.file: TextIO | None = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115

    def write(self, entry_id: int, seq: int, n: int, move: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.write(json.dumps({"entry_id": entry_id, "seq": seq, "n": n, "move": move}) + "\n")

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


# ---------------------------------------------------------------------------------------- settings


@dataclass
class BotConfig:
    servers: list[str] = field(default_factory=lambda: [DEFAULT_URL])
    tournament_id: int | None = None
    admin_token: str | None = None
    players: int = 10
    watchers: int = 0
    policy: str = "random"
    pace: float = 2.0  # moves a second per bot (0: as fast as answers come)
    jitter: float = 0.5  # each wait is 1/pace times a factor in [1 - jitter, 1 + jitter]
    end_early: float = 0.0  # fraction of bots that end their game before the time is up
    duration: float = 30.0
    variant: str = "spider78"
    suits: int | None = None
    time_limit: int = 600
    seed: int | None = None
    compression: str | None = None  # "deflate" or None
    connect_concurrency: int = 64
    watch_sample: int = 20  # watchers that also measure acknowledgement-to-watcher lag
    watch_all: bool = False  # every watcher follows every entry (else: a sampled one 100, the rest one each)
    name_prefix: str = "bot"


def _ws_url(http_url: str) -> str:
    if http_url.startswith("https://"):
        return "wss://" + http_url[len("https://") :]
    if http_url.startswith("http://"):
        return "ws://" + http_url[len("http://") :]
    raise BotError(f"the server must be an http:// or https:// URL, not {http_url!r}")


# ---------------------------------------------------------------------------------------- one bot


class Bot:
    """One player: one entry, one play connection, reconnecting when the connection drops."""

    def __init__(self, swarm: Swarm, index: int, server: str, token: str, entry_id: int, rng: random.Random) -> None:
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
            f"{_ws_url(self.server)}/ws/play/{self.entry_id}",
            compression="deflate" if cfg.compression == "deflate" else None,
            max_size=1 << 22,
            ping_interval=None,
            open_timeout=30,
            close_timeout=2,
        )
        await self.ws.send(_encode({"type": "auth", "token": self.token}))
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
            msg = _decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
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
            await self.ws.send(_encode({**move, "seq": seq}).decode())
            while True:
                msg = _decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
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
                        over = _decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
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
                    await self.ws.send(_encode({**move, "seq": seq}).decode())
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
            msg = _decode(await asyncio.wait_for(self.ws.recv(decode=False), ANSWER_SECONDS))
            if msg["type"] == "state":
                self._take_state(msg)
                return
            if msg["type"] == "over":
                self._over(msg)


class _Closed(Exception):
    pass


# ---------------------------------------------------------------------------------------- watchers


class Watch:
    """One leaderboard watcher. Sampled watchers decode every update to time acknowledgements."""

    def __init__(self, swarm: Swarm, server: str, sample: bool, follow: list[int] | None = None) -> None:
        self.swarm = swarm
        self.server = server
        self.sample = sample
        self.follow = follow  # None: every entry's changes (else these entries' and the top page)
        self.covered: dict[int, int] = {}  # entry id -> acknowledgements already seen in an update
        self.snapshot: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None

    async def run(self, stop: asyncio.Event, ready: asyncio.Event | None = None) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        url = f"{_ws_url(self.server)}/ws/watch/{self.swarm.tournament_id}"
        if self.follow is not None:
            url += "?follow=" + ",".join(map(str, self.follow))
        cfg = self.swarm.cfg
        while not stop.is_set():
            try:
                async with connect(
                    url,
                    compression="deflate" if cfg.compression == "deflate" else None,
                    max_size=1 << 26,
                    ping_interval=None,
                    open_timeout=30,
                    close_timeout=1,
                ) as ws:
                    first = _decode(await asyncio.wait_for(ws.recv(decode=False), 30))
                    if first.get("type") != "snapshot":
                        raise BotError(f"watch: expected a snapshot, got {first.get('type')}")
                    self.snapshot = first
                    self.swarm.stats.watchers += 1
                    if ready is not None:
                        ready.set()
                        ready = None
                    try:
                        stop_task = asyncio.ensure_future(stop.wait())
                        while not stop.is_set():
                            recv = asyncio.ensure_future(ws.recv(decode=False))
                            done, _ = await asyncio.wait({recv, stop_task}, return_when=asyncio.FIRST_COMPLETED)
                            if recv not in done:
                                recv.cancel()
                                break
                            self._update(recv.result())
                        stop_task.cancel()
                    finally:
                        self.swarm.stats.watchers -= 1
            except (OSError, TimeoutError, ConnectionClosed) as err:
                self.swarm.stats.watch_errors[type(err).__name__] += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.5)

    def _covers(self, row: dict[str, Any], at: float, now: float) -> None:
        """Count the entry's acknowledged moves this row shows as delivered, with their lag.

        A row shows every move up to the last one whose score it carries. The update's ``at``
        is only the fallback: the bot may record an acknowledgement late when its own loop is
        busy, and a late record must not wait for the entry's next change to count.
        """
        stats = self.swarm.stats
        eid = row["entry_id"]
        times, scores = stats.ack_times.get(eid), stats.ack_scores.get(eid)
        if times is None or scores is None:
            return
        j = self.covered.get(eid, 0)
        upto = j
        for k in range(len(times) - 1, j - 1, -1):
            if scores[k] == row["score"]:
                upto = k + 1
                break
        while upto < len(times) and times[upto] <= at:
            upto += 1
        for k in range(j, upto):
            stats.ack_lag.append(max(0.0, now - times[k]))
        self.covered[eid] = upto

    def _update(self, data: bytes) -> None:
        now = time.time()
        stats = self.swarm.stats
        stats.updates += 1
        stats.update_bytes += len(data)
        if self.sample:
            msg = _decode(data)
            self.last = msg
            at = float(msg.get("at") or 0)
            for row in msg.get("changed") or ():
                self._covers(row, at, now)
        else:
            at = _at_of(data)
        if at:
            stats.feed_lag.append(now - at)


def _board_score(view: dict[str, Any]) -> int:
    """The score the leaderboard shows for this view (the final score once the game is over)."""
    final = view.get("final_score")
    return int(final if view.get("over") and final is not None else view.get("score") or 0)


def _at_of(data: bytes) -> float:
    """The "at" of an update without decoding it all (it is the last field)."""
    i = data.rfind(b'"at":')
    if i < 0:
        return 0.0
    j = i + 5
    k = j
    while k < len(data) and data[k : k + 1] not in (b",", b"}"):
        k += 1
    try:
        return float(data[j:k])
    except ValueError:
        return 0.0


# ---------------------------------------------------------------------------------------- the swarm


class Swarm:
    """Every bot and watcher of one run: set up, connect, play, report."""

    def __init__(self, cfg: BotConfig, ack_log: str | None = None) -> None:
        validate(cfg)
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.stats = Stats()
        self.ack_log = AckLog(ack_log)
        self.choose: Callable[..., dict[str, Any]] = POLICIES[cfg.policy]
        self.rules = ViewRules.of({"variant": cfg.variant})
        self.tournament_id: int | None = cfg.tournament_id
        self.settings: dict[str, Any] = {}
        self.bots: list[Bot] = []
        self.watches: list[Watch] = []
        self.play_started = time.monotonic()
        self.track_acks = cfg.watchers > 0 and cfg.watch_sample > 0
        self.notes: list[str] = []
        self.on_ack: Callable[[Bot, int, dict[str, Any]], None] = lambda bot, seq, msg: None
        self._watch_tasks: list[asyncio.Task[None]] = []
        self._watch_stop = asyncio.Event()
        self._stop = asyncio.Event()

    def note(self, text: str) -> None:
        if len(self.notes) < 20:
            self.notes.append(text)

    # -- HTTP setup

    async def setup(self) -> None:
        """Create the tournament if asked to, register every bot and join it."""
        import httpx

        cfg = self.cfg
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=cfg.connect_concurrency)) as http:
            base = cfg.servers[0]
            try:
                if self.tournament_id is None:
                    self.tournament_id = await self._create(http, base)
                r = await http.get(f"{base}/api/tournaments/{self.tournament_id}")
            except httpx.HTTPError as err:
                raise BotError(f"cannot reach {base}: {err}") from err
            if r.status_code == 404:
                raise BotError(f"no tournament {self.tournament_id} on {base}")
            if r.status_code != 200:
                raise BotError(f"GET /api/tournaments/{self.tournament_id}: {r.status_code} {r.text[:200]}")
            tour = r.json()
            if tour["status"] != "open" and cfg.players:
                raise BotError(f"tournament {self.tournament_id} is {tour['status']}: bots can join only while open")
            self.settings = tour["settings"]
            self.rules = ViewRules.of(self.settings)
            sem = asyncio.Semaphore(cfg.connect_concurrency)

            async def post(url: str, **kw: Any) -> Any:
                attempt = 0
                while True:  # a loaded server may time out now and then: try again
                    try:
                        r = await http.post(url, **kw)
                        if r.status_code != 429:
                            return r
                        # The server's per-address limit on registering and joining: wait as told.
                        self.stats.errors["setup_429"] += 1
                        await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                        continue
                    except httpx.TransportError as err:
                        attempt += 1
                        self.stats.errors[f"setup_{type(err).__name__}"] += 1
                        if attempt == 4:
                            raise BotError(f"cannot reach {url}: {type(err).__name__} {err}") from err
                        await asyncio.sleep(attempt)

            async def one(i: int) -> Bot:
                server = cfg.servers[i % len(cfg.servers)]
                async with sem:
                    r = await post(f"{server}/api/players", json={"name": f"{cfg.name_prefix}-{i}"})
                    if r.status_code != 201:
                        raise BotError(f"register: {r.status_code} {r.text[:200]}")
                    token = r.json()["token"]
                    r = await post(
                        f"{server}/api/tournaments/{self.tournament_id}/entries",
                        headers={"authorization": f"Bearer {token}"},
                    )
                    if r.status_code != 201:
                        raise BotError(f"join: {r.status_code} {r.text[:200]}")
                return Bot(self, i, server, token, r.json()["id"], random.Random(self.rng.random()))

            self.bots = list(await asyncio.gather(*(one(i) for i in range(cfg.players))))
        early = self.rng.sample(range(len(self.bots)), round(cfg.end_early * len(self.bots)))
        horizon = min(cfg.duration, float(self.settings.get("time_limit", cfg.time_limit)))
        for i in early:
            self.bots[i].end_at = horizon * (0.1 + 0.8 * self.bots[i].rng.random())

    async def _create(self, http: Any, base: str) -> int:
        cfg = self.cfg
        settings: dict[str, Any] = {"variant": cfg.variant, "time_limit": cfg.time_limit}
        if cfg.suits is not None:
            settings["suits"] = cfg.suits
        r = await http.post(
            f"{base}/api/tournaments",
            json={"name": f"{cfg.name_prefix} run {time.strftime('%H:%M:%S')}", "settings": settings},
            headers={"authorization": f"Bearer {cfg.admin_token}"},
        )
        if r.status_code != 201:
            raise BotError(f"could not create the tournament: {r.status_code} {r.text[:300]}")
        return int(r.json()["id"])

    # -- websockets

    async def connect(self, watchers: bool = True) -> None:
        """Open every play connection (and start every game), then every watcher."""
        sem = asyncio.Semaphore(self.cfg.connect_concurrency)

        async def one(bot: Bot) -> None:
            async with sem:
                for attempt in range(5):
                    try:
                        await bot.connect()
                        return
                    except BotError:
                        raise
                    except Exception as err:
                        self.stats.errors["connect_failed"] += 1
                        if attempt == 4:
                            raise BotError(f"bot {bot.index} could not connect: {err!r}") from err
                        await asyncio.sleep(0.5 * (attempt + 1))

        await asyncio.gather(*(one(b) for b in self.bots))
        if watchers:
            await self.connect_watchers()

    async def connect_watchers(self) -> None:
        cfg = self.cfg
        ids = [b.entry_id for b in self.bots]
        for i in range(cfg.watchers):
            # Like a browser: a watcher follows the top page and one player's entry. A sampled
            # watcher follows up to 100 entries, to time each of their acknowledgements' way to it.
            sample = i < cfg.watch_sample
            if cfg.watch_all or not ids:
                follow = None
            elif sample:
                follow = ids[(i * 100) % len(ids) :][:100] or ids[:100]
            else:
                follow = [ids[i % len(ids)]]
            w = Watch(self, cfg.servers[i % len(cfg.servers)], sample=sample, follow=follow)
            self.watches.append(w)
        readies = [asyncio.Event() for _ in self.watches]
        for i, (w, ready) in enumerate(zip(self.watches, readies, strict=True)):
            self._watch_tasks.append(asyncio.create_task(w.run(self._watch_stop, ready)))
            if i % self.cfg.connect_concurrency == self.cfg.connect_concurrency - 1:
                await asyncio.sleep(0.05)
        if readies:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)

    async def play(self, duration: float | None = None, on_tick: Callable[[], None] | None = None) -> float:
        """Every bot plays for ``duration`` seconds (or until every game is over). Returns the seconds."""
        duration = self.cfg.duration if duration is None else duration
        stop = self._stop = asyncio.Event()
        self.stats = self._fresh_stats()
        for w in self.watches:
            w.covered.clear()  # acknowledgement times start again with the new figures
        self.play_started = time.monotonic()
        tasks = [asyncio.create_task(b.play(stop)) for b in self.bots]
        end = self.play_started + duration
        try:
            while time.monotonic() < end and not all(t.done() for t in tasks) and not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), min(0.5, max(0.0, end - time.monotonic())))
                if on_tick:
                    on_tick()
        finally:
            stop.set()
            elapsed = time.monotonic() - self.play_started
            await asyncio.gather(*tasks, return_exceptions=True)
        for t in tasks:
            if t.exception() is not None:
                self.stats.errors["bot_crashed"] += 1
                self.note(f"bot crashed: {t.exception()!r}")
        return elapsed

    def stop(self) -> None:
        """End the play phase now (from another task)."""
        self._stop.set()

    def _fresh_stats(self) -> Stats:
        """Counters start again with the play phase (setup retries are not part of it)."""
        old = self.stats
        new = Stats(connected=old.connected, watchers=old.watchers)
        new.errors.update({k: v for k, v in old.errors.items() if k.startswith("connect")})
        return new

    async def close(self) -> None:
        self._watch_stop.set()
        await asyncio.gather(*self._watch_tasks, return_exceptions=True)
        await asyncio.gather(*(b.close() for b in self.bots), return_exceptions=True)
        self.ack_log.close()

    def figures(self, seconds: float) -> dict[str, Any]:
        out = self.stats.figures(seconds)
        out.update(
            tournament_id=self.tournament_id,
            players=len(self.bots),
            policy=self.cfg.policy,
            pace=self.cfg.pace,
            servers=self.cfg.servers,
            compression=self.cfg.compression or "none",
            games_over=sum(b.done for b in self.bots),
        )
        if self.notes:
            out["notes"] = self.notes
        return out


def validate(cfg: BotConfig) -> None:
    problems = []
    if cfg.players < 0:
        problems.append("--players must be 0 or more")
    if cfg.watchers < 0:
        problems.append("--watchers must be 0 or more")
    if cfg.players == 0 and cfg.watchers == 0:
        problems.append("nothing to run: give --players or --watchers")
    if cfg.policy not in POLICIES:
        problems.append(f"--policy must be one of {', '.join(POLICIES)}")
    if not (cfg.pace >= 0 and math.isfinite(cfg.pace)):
        problems.append("--pace must be 0 (as fast as answers come) or a positive number of moves a second")
    if not 0 <= cfg.jitter <= 1:
        problems.append("--jitter must be between 0 and 1")
    if not 0 <= cfg.end_early <= 1:
        problems.append("--end-early must be a fraction between 0 and 1")
    if not (cfg.duration > 0 and math.isfinite(cfg.duration)):
        problems.append("--duration must be a positive number of seconds")
    if cfg.tournament_id is None and not cfg.admin_token:
        problems.append("give --tournament ID, or --admin-token (or ADMIN_TOKEN) to create a tournament")
    if cfg.tournament_id is not None and cfg.tournament_id < 1:
        problems.append("--tournament must be a positive id")
    if cfg.time_limit < 1:
        problems.append("--time-limit must be at least 1 second")
    if cfg.connect_concurrency < 1:
        problems.append("--connect-concurrency must be at least 1")
    if cfg.compression not in (None, "deflate"):
        problems.append("--compression must be deflate or none")
    if not cfg.servers:
        problems.append("give at least one --server")
    for s in cfg.servers:
        if not s.startswith(("http://", "https://")):
            problems.append(f"--server must be an http:// or https:// URL, not {s!r}")
    try:
        ViewRules.of({"variant": cfg.variant})
    except ValueError:
        problems.append(f"--variant {cfg.variant!r} is not a game of this server")
    if problems:
        raise BotError("; ".join(problems))


# ---------------------------------------------------------------------------------------- display


def _row_text(stats: Stats, seconds: float, last: dict[str, float]) -> dict[str, str]:
    window = stats.window
    stats.window = array("d")
    moves_now = (stats.acks - last.get("acks", 0)) / max(1e-6, seconds - last.get("t", 0))
    last["acks"], last["t"] = stats.acks, seconds

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v * 1000:.1f}"

    return {
        "time": f"{seconds:.0f} s",
        "bots": f"{stats.playing} playing, {stats.connected} connected",
        "moves/s": f"{moves_now:.0f} (avg {stats.acks / max(seconds, 1e-6):.0f})",
        "acked": str(stats.acks),
        "ack ms p50/p95/p99": f"{ms(percentile(window, 50))} / {ms(percentile(window, 95))} / "
        f"{ms(percentile(window, 99))}",
        "errors": ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())) or "0",
        "refused": ", ".join(f"{k} {v}" for k, v in sorted(stats.refused.items())) or "0",
        "games over": ", ".join(f"{k} {v}" for k, v in sorted(stats.outcomes.items())) or "0",
        "watchers": f"{stats.watchers}, {stats.updates} updates",
        "watch lag ms p50/p99": f"{ms(percentile(stats.feed_lag[-20000:], 50))} / "
        f"{ms(percentile(stats.feed_lag[-20000:], 99))} (ack->seen {ms(percentile(stats.ack_lag[-20000:], 99))})",
    }


class Display:
    """A live table with rich on a terminal; a line every few seconds otherwise."""

    def __init__(self, swarm: Swarm, live: bool) -> None:
        self.swarm = swarm
        self.last: dict[str, float] = {}
        self.live_display: Any = None
        self.printed = 0.0
        if live:
            from rich.live import Live

            self.live_display = Live(self._table({}), refresh_per_second=2, transient=False)

    def _table(self, row: dict[str, str]) -> Any:
        from rich.table import Table

        table = Table(title=f"spidertour bots: tournament {self.swarm.tournament_id}", show_header=False)
        table.add_column("what", style="bold")
        table.add_column("value")
        for k, v in row.items():
            table.add_row(k, v)
        return table

    def __enter__(self) -> Display:
        if self.live_display is not None:
            self.live_display.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live_display is not None:
            self.live_display.__exit__(*exc)

    def tick(self) -> None:
        seconds = time.monotonic() - self.swarm.play_started
        if self.live_display is None and seconds - self.printed < 5:
            return
        row = _row_text(self.swarm.stats, seconds, self.last)
        if self.live_display is not None:
            self.live_display.update(self._table(row))
        else:
            self.printed = seconds
            print("  ".join(f"{k}: {v}" for k, v in row.items()), file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------- checking acks


async def check_acks(path: str, database_url: str) -> tuple[int, list[str]]:
    """Every logged acknowledgement must be in PostgreSQL's moves (same entry, n, seq and move)."""
    import asyncpg

    logged: dict[tuple[int, int], dict[str, Any]] = {}
    problems: list[str] = []
    try:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    key = (int(rec["entry_id"]), int(rec["n"]))
                    item = {"seq": int(rec["seq"]), "move": rec["move"]}
                except (ValueError, KeyError, TypeError) as err:
                    raise BotError(f"{path}:{i}: not an acknowledgement line ({err})") from err
                if key in logged and logged[key] != item:
                    problems.append(f"entry {key[0]} move {key[1]} was acknowledged twice, differently")
                logged[key] = item
    except OSError as err:
        raise BotError(f"cannot read {path}: {err.strerror}") from err
    try:
        conn = await asyncpg.connect(database_url, timeout=10)
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        raise BotError(f"cannot connect to the database: {err}") from err
    try:
        entries = sorted({e for e, _ in logged})
        rows = await conn.fetch(
            "SELECT entry_id, n, seq, move::text AS move FROM moves WHERE entry_id = ANY($1::bigint[])", entries
        )
    finally:
        await conn.close()
    stored = {(r["entry_id"], r["n"]): (r["seq"], json.loads(r["move"])) for r in rows}
    for (entry_id, n), item in sorted(logged.items()):
        found = stored.get((entry_id, n))
        if found is None:
            problems.append(f"entry {entry_id} move {n} (seq {item['seq']}) was acknowledged but is not stored")
        elif found != (item["seq"], item["move"]):
            problems.append(
                f"entry {entry_id} move {n}: acknowledged seq {item['seq']} {item['move']}, "
                f"stored seq {found[0]} {found[1]}"
            )
    return len(logged), problems


# ---------------------------------------------------------------------------------------- command line


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bots = sub.add_parser(
        "bots",
        help="run bot players and leaderboard watchers against a server, or check their acknowledgements",
        description="Bot players (real websocket clients) and watchers against a running server, with live figures.",
    )
    bots.add_argument(
        "--server",
        action="append",
        dest="servers",
        metavar="URL",
        help="server URL; repeat to split bots between servers (default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT)",
    )
    bots.add_argument("--tournament", type=int, help="join this tournament (must be open)")
    bots.add_argument("--admin-token", help="create a tournament with this token (default $ADMIN_TOKEN)")
    bots.add_argument("--players", "-n", type=int, default=10)
    bots.add_argument("--watchers", "-w", type=int, default=0)
    bots.add_argument("--policy", choices=sorted(POLICIES), default="random")
    bots.add_argument("--pace", type=float, default=2.0, help="moves a second per bot; 0 = as fast as answers come")
    bots.add_argument("--jitter", type=float, default=0.5, help="0-1: spread of each wait around 1/pace")
    bots.add_argument("--end-early", type=float, default=0.0, help="fraction of bots that end their game early")
    bots.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    bots.add_argument("--variant", default="spider78", help="for a created tournament")
    bots.add_argument("--suits", type=int, help="for a created tournament")
    bots.add_argument("--time-limit", type=int, default=600, help="seconds, for a created tournament")
    bots.add_argument("--seed", type=int, help="random seed of the bots' choices")
    bots.add_argument(
        "--compression",
        choices=["none", "deflate"],
        default="none",
        help="ask for permessage-deflate on the websockets (browsers do)",
    )
    bots.add_argument("--connect-concurrency", type=int, default=64)
    bots.add_argument(
        "--watch-sample",
        type=int,
        default=20,
        help="watchers that decode every update to time acknowledgement-to-watcher lag",
    )
    bots.add_argument(
        "--watch-all",
        action="store_true",
        help="every watcher follows every entry's changes (default: one entry each, and the top)",
    )
    bots.add_argument("--ack-log", metavar="FILE", help="append every acknowledged move as a JSON line")
    bots.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    bots.add_argument("--no-live", action="store_true", help="plain progress lines instead of a live table")
    bots.add_argument(
        "--check-acks",
        metavar="FILE",
        help="do not play: check an --ack-log against PostgreSQL ($DATABASE_URL or --database-url)",
    )
    bots.add_argument("--database-url", help="for --check-acks (default $DATABASE_URL)")
    bots.set_defaults(run=run_bots_command)


def run_bots_command(args: argparse.Namespace) -> int:
    try:
        if args.check_acks:
            return _run_check(args)
        cfg = BotConfig(
            servers=[s.rstrip("/") for s in (args.servers or [server_url()])],
            tournament_id=args.tournament,
            admin_token=args.admin_token or os.environ.get("ADMIN_TOKEN") or None,
            players=args.players,
            watchers=args.watchers,
            policy=args.policy,
            pace=args.pace,
            jitter=args.jitter,
            end_early=args.end_early,
            duration=args.duration,
            variant=args.variant,
            suits=args.suits,
            time_limit=args.time_limit,
            seed=args.seed,
            compression=None if args.compression == "none" else args.compression,
            connect_concurrency=args.connect_concurrency,
            watch_sample=args.watch_sample,
            watch_all=args.watch_all,
        )
        validate(cfg)
        for path in (args.ack_log, args.json):
            if path and not Path(path).resolve().parent.is_dir():
                raise BotError(f"no folder for {path}")
        figures = _run(run_swarm(cfg, ack_log=args.ack_log, live=not args.no_live and sys.stderr.isatty()))
    except BotError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    text = json.dumps(figures, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n")
    print(text)
    return 0 if figures["error_count"] == 0 and not figures["refused_by_engine"] else 1


def _run(coro: Any) -> Any:
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def _run_check(args: argparse.Namespace) -> int:
    url = args.database_url or os.environ.get("DATABASE_URL")
    if not url:
        raise BotError("--check-acks needs --database-url or DATABASE_URL")
    count, problems = _run(check_acks(args.check_acks, url))
    for p in problems[:50]:
        print(p, file=sys.stderr)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more", file=sys.stderr)
    if problems:
        print(f"FAIL: {len(problems)} of {count} acknowledged moves are missing or differ in PostgreSQL")
        return 1
    print(f"OK: all {count} acknowledged moves are in PostgreSQL")
    return 0


async def run_swarm(cfg: BotConfig, ack_log: str | None = None, live: bool = False) -> dict[str, Any]:
    swarm = Swarm(cfg, ack_log)
    cpu0 = time.process_time()
    try:
        await swarm.setup()
        await swarm.connect()
        with Display(swarm, live) as display:
            seconds = await swarm.play(on_tick=display.tick)
            display.tick()
    finally:
        await swarm.close()
    figures = swarm.figures(seconds)
    figures["loadgen_cpu_seconds"] = round(time.process_time() - cpu0, 2)
    return figures


BENCH_SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "server_bench.py"


def add_bench_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bench = sub.add_parser(
        "bench",
        help="the server load benchmark (bench/server_bench.py; its options follow, see bench -h)",
        add_help=False,
        prefix_chars="+",
    )
    bench.add_argument("args", nargs="*")
    bench.set_defaults(run=run_bench_command)


def run_bench_command(args: argparse.Namespace) -> int:
    import importlib.util

    if not BENCH_SCRIPT.exists():
        print(
            f"error: {BENCH_SCRIPT} is not there (the benchmark runs from a checkout of the project)", file=sys.stderr
        )
        return 2
    spec = importlib.util.spec_from_file_location("server_bench", BENCH_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.main(args.args))
