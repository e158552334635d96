"""One leaderboard watcher; a sample of them time each acknowledged move's way to the board."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from .config import BotError
from .crew import Crew, decode, ws_url


class Watch:
    """One leaderboard watcher. Sampled watchers decode every update to time acknowledgements."""

    def __init__(self, swarm: Crew, server: str, sample: bool, follow: list[int] | None = None) -> None:
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

        base = self.swarm.play_bases.get(self.server) or ws_url(self.server)  # where a browser watches
        url = f"{base}/ws/watch/{self.swarm.tournament_id}"
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
                    first = decode(await asyncio.wait_for(ws.recv(decode=False), 30))
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
            msg = decode(data)
            self.last = msg
            at = float(msg.get("at") or 0)
            for row in msg.get("changed") or ():
                self._covers(row, at, now)
        else:
            at = _at_of(data)
        if at:
            stats.feed_lag.append(now - at)


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
