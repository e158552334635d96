"""A clock's loop, as every process runs the matches' and the brackets' clocks: one sweep every
SWEEP_SECONDS; a sweep that fails (PostgreSQL out of reach, or any error) is counted, and the next
comes as usual. PostgreSQL out of reach is logged as an outage (``storage.outages.Outage``); any other
error in one line with its traceback. Everything a sweep does lives in PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..core import Core
from ..storage.outages import Outage
from ..storage.pool import UNAVAILABLE
from .metrics import DB_ERRORS


async def run_sweeps(core: Core, what: str, sweep: Callable[[Core], Awaitable[object]], log: logging.Logger) -> None:
    """Run ``sweep`` until cancelled (``what`` names it in the log: "matches", "brackets")."""
    outage = Outage(log, f"{what} sweep")
    while True:
        try:
            await sweep(core)
        except asyncio.CancelledError:
            raise
        except UNAVAILABLE as err:
            DB_ERRORS.inc()
            outage.failed(f"database unavailable: {err!r}")
        except Exception:
            DB_ERRORS.inc()
            log.warning("%s sweep failed; retrying", what, exc_info=True)
        else:
            outage.ok()
        await asyncio.sleep(core.config.sweep_seconds)
