"""A histogram for the move's path: observed by one event loop's thread, without a lock.

``prometheus_client.Histogram`` takes a lock on every bucket and on the sum it counts, for threads
the server does not have on that path: 1.3 us a move (``bench/metrics_bench.py``). This one keeps
plain counts, which ``/metrics`` (served by the same event loop) reads between two moves, and is
exported through the client's own registry as a histogram of the same name, buckets and series
(``_bucket``, ``_count``, ``_sum``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence

from prometheus_client import CollectorRegistry
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

_go_float: Callable[[float], str] = floatToGoString  # the library's text for a bound ("+Inf", "0.001"); untyped there


class LoopHistogram(Collector):
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
