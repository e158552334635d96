"""A connection's message rate: a token bucket, kept by the connection itself."""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """At most ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    async def wait(self) -> None:
        """Take one token, sleeping until there is one: a fast client is slowed to the rate."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens = 1.0
            self.at = time.monotonic()
        self.tokens -= 1

    def take(self) -> bool:
        """Take one token if there is one now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
