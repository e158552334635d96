"""The brackets' clock: brackets are seeded at their opening (or cancelled with fewer than two
entrants), games whose both players are done close early (for the tournaments' clock to finish
them: standings, ratings), pairings are decided, rounds open and brackets finish. Everything lives in
PostgreSQL: any number of processes run it, and it resumes after a restart of all of them."""

from __future__ import annotations

import logging

from ..core import Core
from ..operations.sweeps import run_sweeps
from . import rounds

log = logging.getLogger("spidertour.brackets")


async def sweep_once(core: Core) -> list[rounds.Step]:
    """One pass; returns what it did to brackets (seeded, cancelled, a round opened, finished)."""
    steps = await rounds.seed_due(core.db)
    await rounds.close_games(core.db)
    steps += await rounds.advance_due(core.db)
    for step in steps:
        log.info("bracket %s %s%s", step.bracket_id, step.what, "" if step.round is None else f" (round {step.round})")
    return steps


async def run_clock(core: Core) -> None:
    await run_sweeps(core, "brackets", sweep_once, log)
