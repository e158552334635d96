"""What a feed's tick costs its watchers: one tick offered to 1,000 watchers on the play port, each
following one entry of 2,000 and the top page, timed alone (no socket: what is sent is counted).

.venv/bin/python bench/scale/feed_bench.py                 # 250, 1,250 and 2,000 entries changed a tick
.venv/bin/python bench/scale/feed_bench.py --changed 1250 --watchers 1000 --ticks 200

At 5,000 moves a second a feed ticks four times a second with about 1,250 entries changed, so the
CPU of a tick in milliseconds, times 4, divided by 5, is the microseconds it adds to each move.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from spidertour.server.watch.feeds import Tick, Watcher
from spidertour.server.watch.messages import Row


class Counted:
    """A play-port connection as the watcher sees it, which takes everything and counts it."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0

    def can_send(self) -> bool:
        return True

    def send_now(self, data: bytes) -> None:
        self.messages += 1
        self.bytes += len(data)

    def when_writable(self, callback: object) -> None:
        pass


async def tick_cost(entries: int, watchers: int, changed: int, ticks: int, seed: int = 1) -> tuple[float, float, float]:
    """CPU milliseconds a tick, messages a tick and bytes a message."""
    rnd = random.Random(seed)
    sockets = [Counted() for _ in range(watchers)]
    attached = [Watcher(frozenset({rnd.randrange(entries)})) for _ in range(watchers)]
    for watcher, socket in zip(attached, sockets, strict=True):
        watcher.attach(socket, 1)
    rows = [
        Row(entry_id=i, player=f"player {i}", score=rnd.randrange(3000), status="playing", rank=i + 1, deadline=1.8e9)
        for i in range(entries)
    ]
    cpu = 0.0
    for _ in range(ticks):
        moved = {row.entry_id: row for row in rnd.sample(rows, changed)}
        top = sorted(rows, key=lambda r: -r.score)[:20]
        tick = Tick(1, entries, moved, top, None)
        began = time.process_time()
        for watcher in attached:
            watcher.offer(tick)
        cpu += time.process_time() - began
    messages = sum(s.messages for s in sockets)
    return cpu / ticks * 1e3, messages / ticks, sum(s.bytes for s in sockets) / max(1, messages)


async def main(args: argparse.Namespace) -> None:
    for changed in args.changed:
        runs = [await tick_cost(args.entries, args.watchers, changed, args.ticks, seed) for seed in range(args.runs)]
        ms = [r[0] for r in runs]
        print(
            f"{changed:>5} changed a tick: {min(ms):6.2f}-{max(ms):6.2f} ms of CPU a tick ({args.runs} runs), "
            f"{runs[0][1]:.0f} messages of {runs[0][2]:.0f} bytes"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--changed", type=int, nargs="+", default=[250, 1250, 2000])
    parser.add_argument("--ticks", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.entries < 1 or args.watchers < 1 or args.ticks < 1 or args.runs < 1:
        parser.error("entries, watchers, ticks and runs must be 1 or more")
    if any(not 0 <= c <= args.entries for c in args.changed):
        parser.error("--changed must be between 0 and --entries")
    asyncio.run(main(args))
