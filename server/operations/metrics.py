"""Prometheus metrics of one server process (served at ``GET /metrics`` by ``scrape``).

The move path only increments counters and observes histograms (no I/O, nothing awaited);
figures that need the database (games and tournaments by status) are read when scraped.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

_go_float: Callable[[float], str] = floatToGoString  # the library's text for a bound ("+Inf", "0.001"); untyped there


class LoopHistogram(Collector):
    """A histogram for the move's path: observed by one event loop's thread, without a lock.

    ``prometheus_client.Histogram`` takes a lock on every bucket and on the sum it counts, for threads
    the server does not have on that path: 1.3 us a move (``bench/move_bench.py``). This one keeps
    plain counts, which ``/metrics`` (served by the same event loop) reads between two moves, and is
    exported through the client's own registry as a histogram of the same name, buckets and series
    (``_bucket``, ``_count``, ``_sum``).
    """

    def __init__(self, name: str, documentation: str, buckets: Sequence[float], registry: CollectorRegistry) -> None:
        self.name, self.documentation = name, documentation
        self.bounds = tuple(float(b) for b in buckets)  # upper bounds, ascending; +Inf is the last count's
        self.counts = [0] * (len(self.bounds) + 1)
        self.sum = 0.0
        registry.register(self)

    def observe(self, amount: float) -> None:
        self.counts[bisect_left(self.bounds, amount)] += 1  # the first bound >= amount: "le" is inclusive
        self.sum += amount

    def collect(self) -> Iterator[HistogramMetricFamily]:
        buckets: list[tuple[str, float]] = []
        total = 0
        for bound, count in zip((*self.bounds, math.inf), self.counts, strict=True):
            total += count
            buckets.append((_go_float(bound), total))
        yield HistogramMetricFamily(self.name, self.documentation, buckets=buckets, sum_value=self.sum)

    def describe(self) -> Iterator[HistogramMetricFamily]:
        yield HistogramMetricFamily(self.name, self.documentation)


REGISTRY = CollectorRegistry(auto_describe=True)

PLAY_CONNECTIONS = Gauge("spidertour_play_connections", "Play websocket connections open", registry=REGISTRY)
WATCHERS = Gauge("spidertour_watchers", "Watch websocket connections open", registry=REGISTRY)
MOVES = Counter("spidertour_moves", "Moves accepted and committed", registry=REGISTRY)
REFUSALS = Counter(
    "spidertour_refusals", "Error messages sent on play connections, by code", ["code"], registry=REGISTRY
)
ACK_SECONDS = LoopHistogram(  # observed on every move: no lock (``LoopHistogram``)
    "spidertour_ack_seconds",
    "From a move's turn on its connection to its answer being sent (commit included)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
COMMIT_BATCH = Histogram(
    "spidertour_commit_batch_size",
    "Moves written by one commit",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
    registry=REGISTRY,
)
DB_ERRORS = Counter("spidertour_db_errors", "PostgreSQL calls that failed", registry=REGISTRY)
REDIS_ERRORS = Counter("spidertour_redis_errors", "Redis calls that failed", registry=REGISTRY)
PASSWORD_HASHES = Counter(
    "spidertour_password_hashes", "Passwords and codes hashed or checked (argon2), by kind", ["kind"], registry=REGISTRY
)
REBUILDS = Counter("spidertour_leaderboard_rebuilds", "Leaderboards rebuilt from PostgreSQL", registry=REGISTRY)
GAMES = Gauge("spidertour_games", "Entries of unfinished tournaments, by status", ["status"], registry=REGISTRY)
GC_PAUSE = Histogram(
    "spidertour_gc_pause_seconds",
    "The garbage collector's pauses of the process, by generation (operations.collector)",
    ["generation"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
LOOP_LAG = Gauge(
    "spidertour_loop_lag_seconds",
    "How late the event loop woke a 20 ms timer, the worst of the last second (play.pacing.lag)",
    registry=REGISTRY,
)
TOURNAMENTS = Gauge("spidertour_tournaments", "Tournaments by status", ["status"], registry=REGISTRY)
