"""The garbage collector, tuned once the server has started."""

from __future__ import annotations

import gc

GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    """Fewer garbage collections. With Python's defaults (700, 10, 10) the collector ran every few
    dozen moves and, every so often, walked every object of every connection: a third of the
    server's CPU under load (py-spy --native). What was made at start-up is frozen (never walked
    again) and the collector runs once per 50,000 new container objects; cycles are still freed."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
