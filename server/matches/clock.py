"""The matches' clock: seats not started in time become absent, matches that never filled stop
seating (or end unmatched), and matches whose games are all over close, for the tournaments' clock
to finish (standings, ratings, seed). Everything lives in PostgreSQL: any number of processes run it,
and it resumes after a restart of all of them."""

from __future__ import annotations

import logging

from ..core import Core
from ..operations.sweeps import run_sweeps
from . import store

log = logging.getLogger("spidertour.matches")


async def sweep_once(core: Core) -> list[int]:
    """One pass; returns the tournaments of the matches it closed."""
    await store.start_timeouts(core.db)
    await store.wait_timeouts(core.db, core.config.match_wait_seconds)
    return await store.close_done(core.db)


async def run_clock(core: Core) -> None:
    await run_sweeps(core, "matches", sweep_once, log)
