"""Every bot and watcher of one run: set up over HTTP, connect, play, report."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

from .bot import Bot
from .config import BotConfig, BotError, validate
from .crew import play_base
from .matches import ask, format_settings
from .stats import AckLog, Stats
from .view import POLICIES, ViewRules
from .watch import Watch


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
        self.matches: set[int] = set()  # --matches: the matches the bots were seated in
        self.play_bases: dict[str, str] = {}  # each server's play socket (its PLAY_PORT, if it has one)
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
        """Create the tournament if asked to, register every bot and join it (or, with --matches, ask
        for a seat in a match of the format)."""
        import httpx

        cfg = self.cfg
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=cfg.connect_concurrency)) as http:
            base = cfg.servers[0]
            if cfg.match_format is not None:
                self.settings = await format_settings(http, base, cfg.match_format)
            else:
                await self._tournament(http, base)
            self.rules = ViewRules.of(self.settings)
            for server in cfg.servers:
                self.play_bases[server] = await play_base(http, server)
            sem = asyncio.Semaphore(cfg.connect_concurrency)
            post = self._poster(http)

            async def one(i: int) -> Bot:
                server = cfg.servers[i % len(cfg.servers)]
                async with sem:
                    r = await post(f"{server}/api/players", json={"name": f"{cfg.name_prefix}-{i}"})
                    if r.status_code != 201:
                        raise BotError(f"register: {r.status_code} {r.text[:200]}")
                    token = r.json()["token"]
                    if cfg.match_format is not None:
                        match_id, entry_id = await ask(post, server, token, cfg.match_format)
                        self.matches.add(match_id)
                        return Bot(self, i, server, token, entry_id, random.Random(self.rng.random()))
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

    async def _tournament(self, http: Any, base: str) -> None:
        """The tournament the bots join (created first if asked to): its settings."""
        import httpx

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
        if tour["status"] != "open" and self.cfg.players:
            raise BotError(f"tournament {self.tournament_id} is {tour['status']}: bots can join only while open")
        self.settings = tour["settings"]

    def _poster(self, http: Any) -> Any:
        """POST that waits out the server's 429s (as told) and tries a dropped request again."""
        import httpx

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

        return post

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
        if self.cfg.match_format is not None:
            out.update(match_format=self.cfg.match_format, matches=len(self.matches))
        if self.notes:
            out["notes"] = self.notes
        return out
