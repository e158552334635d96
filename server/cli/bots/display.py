"""The run's figures as they come: a live table on a terminal, a line every few seconds otherwise."""

from __future__ import annotations

import sys
import time
from array import array
from typing import Any

from .stats import Stats, percentile
from .swarm import Swarm


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

        fmt = self.swarm.cfg.match_format
        what = f"matches {fmt}" if fmt is not None else f"tournament {self.swarm.tournament_id}"
        table = Table(title=f"spidertour bots: {what}", show_header=False)
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
