"""The move path's lock-free histogram is exported as prometheus_client's own would be."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, Histogram, generate_latest

from spidertour.server.operations.metrics import LoopHistogram

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025)


def exposition(registry: CollectorRegistry) -> list[str]:
    """The text format's lines, less the ``_created`` series that only the library's histogram has."""
    return [line for line in generate_latest(registry).decode().splitlines() if "_created" not in line]


def test_the_same_series_as_the_librarys_histogram() -> None:
    ours, theirs = CollectorRegistry(auto_describe=True), CollectorRegistry(auto_describe=True)
    mine = LoopHistogram("t_ack_seconds", "How long", BUCKETS, ours)
    library = Histogram("t_ack_seconds", "How long", buckets=BUCKETS, registry=theirs)
    # values on a bound ("le" is inclusive), between bounds, below the first and past the last
    for value in (0.0, 0.0005, 0.001, 0.0011, 0.0025, 0.007, 0.01, 0.025, 0.03, 4.0):
        mine.observe(value)
        library.observe(value)
    assert exposition(ours) == exposition(theirs)
    lines = exposition(ours)
    assert 't_ack_seconds_bucket{le="0.001"} 3.0' in lines
    assert 't_ack_seconds_bucket{le="+Inf"} 10.0' in lines
    assert "t_ack_seconds_count 10.0" in lines


def test_a_second_histogram_of_the_same_name_is_refused() -> None:
    registry = CollectorRegistry(auto_describe=True)
    LoopHistogram("t_dup_seconds", "One", BUCKETS, registry)
    with pytest.raises(ValueError, match="t_dup_seconds"):
        LoopHistogram("t_dup_seconds", "Two", BUCKETS, registry)
