"""A background loop's failures as an operator wants to read them during an outage.

A loop that tries again every half second would otherwise write a WARNING each try: thousands of
lines for a few minutes of PostgreSQL or Redis out of reach. ``Outage`` says the first failure at
once, then at most one line every ``REPEAT_SECONDS`` while the failures go on (how long, how many
tries, the latest error), and one line when the loop works again: at the failures' level, so
that a log kept at WARNING shows when an outage ended as well as when it began.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

REPEAT_SECONDS = 30.0


class Outage:
    """The failures of one loop (``name``: what fails, as the log says it, e.g. "clock sweep")."""

    def __init__(
        self,
        log: logging.Logger,
        name: str,
        repeat: float = REPEAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log, self.name, self.repeat, self.clock = log, name, repeat, clock
        self.failures = 0
        self.since = self.said_at = 0.0

    def failed(self, reason: str) -> None:
        """One failed try (``reason``: the error, or what was unavailable). Logged when it is the first
        of an outage, or when the last line is ``repeat`` seconds old."""
        now = self.clock()
        self.failures += 1
        if self.failures == 1:
            self.since = self.said_at = now
            self.log.warning("%s failed (%s); retrying", self.name, reason)
        elif now - self.said_at >= self.repeat:
            self.said_at = now
            self.log.warning(
                "%s still failing after %.0f s, %d tries (%s); retrying",
                self.name,
                now - self.since,
                self.failures,
                reason,
            )

    def ok(self) -> None:
        """A try that worked: the end of an outage, if there was one."""
        if self.failures:
            self.log.warning(
                "%s works again after %.1f s (%d failed tries)", self.name, self.clock() - self.since, self.failures
            )
            self.failures = 0
