"""What a bot run measures: acknowledgements and their latency, errors, outcomes, watcher lag."""

from __future__ import annotations

import json
import math
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO


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
    latency: array[float] = field(default_factory=lambda: array("d"))  # seconds, every first-try acknowledgement
    window: array[float] = field(default_factory=lambda: array("d"))  # the same, since the display last looked
    errors: Counter[str] = field(default_factory=Counter)  # error codes from the server, and client-side failures
    refused: Counter[str] = field(default_factory=Counter)  # engine refusals (a bot's view was wrong: a bug)
    outcomes: Counter[str] = field(default_factory=Counter)
    late: Counter[str] = field(default_factory=Counter)  # moves refused because the game had just ended
    reconnects: int = 0
    connected: int = 0
    playing: int = 0
    feed_lag: array[float] = field(default_factory=lambda: array("d"))  # receive time - update "at"
    ack_lag: array[float] = field(default_factory=lambda: array("d"))  # ack -> first update naming the entry
    updates: int = 0
    update_bytes: int = 0
    watchers: int = 0
    watch_errors: Counter[str] = field(default_factory=Counter)
    ack_times: dict[int, array[float]] = field(default_factory=dict)  # entry id -> wall-clock ack times
    ack_scores: dict[int, array[int]] = field(default_factory=dict)  # entry id -> the score each ack made

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
