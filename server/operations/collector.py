"""The garbage collector, tuned once the server has started, and its pauses timed."""

from __future__ import annotations

import gc
import time
from typing import Any

from .metrics import GC_PAUSE

GC_THRESHOLDS = (50_000, 20, 100)

_PAUSES = [GC_PAUSE.labels(str(generation)) for generation in range(3)]
_began = [0.0]
_paused = [0.0]  # seconds paused in collections so far (those timed by ``time_pause``)


def time_pause(phase: str, info: dict[str, Any]) -> None:
    """gc.callbacks: each collection's pause into ``spidertour_gc_pause_seconds``."""
    if phase == "start":
        _began[0] = time.perf_counter()
    else:
        pause = time.perf_counter() - _began[0]
        _paused[0] += pause
        _PAUSES[info["generation"]].observe(pause)


def gc_paused() -> float:
    """The seconds this process has paused in garbage collections so far (once ``tune_gc`` has run)."""
    return _paused[0]


def tune_gc() -> None:
    """Fewer garbage collections, and short ones.

    With Python's defaults (700, 10, 10) the collector ran every few dozen moves and, every so
    often, walked every object of every connection: a third of the server's CPU under load (py-spy
    --native). What was made at start-up is frozen (never walked again) and the collector runs once
    per 50,000 new container objects; cycles are still freed.

    A pause grows with the objects walked: a process holding 10,000 connections pauses 15-28 ms of
    CPU for a young collection and, once the connections made in a burst reach the middle
    generation, about 500 ms for that one (docs/performance.md). Smaller thresholds (10,000, 5)
    traded it for more pauses of 20-45 ms and did not lower the reads' p99 at that size."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if time_pause not in gc.callbacks:
        gc.callbacks.append(time_pause)
