"""What the metrics cost a move: the histogram and counter calls the move path makes, timed alone.

.venv/bin/python bench/metrics_bench.py
"""

from __future__ import annotations

import time
import timeit

from spidertour.server.operations.metrics import ACK_SECONDS, COMMIT_BATCH, MOVES, REFUSALS


def per_call(fn: object, number: int = 200_000) -> float:
    return timeit.timeit(fn, number=number) / number  # type: ignore[arg-type]


def ack() -> None:  # what PlaySession._frame adds around each move
    began = time.perf_counter()
    ACK_SECONDS.observe(time.perf_counter() - began)


def commit() -> None:  # what Services._commit adds to each batch
    COMMIT_BATCH.observe(20)
    MOVES.inc(20)


if __name__ == "__main__":
    base = per_call(lambda: None)
    print(f"per move (ack histogram, two clock reads): {(per_call(ack) - base) * 1e9:6.0f} ns")
    print(f"per commit batch (batch histogram, moves counter): {(per_call(commit) - base) * 1e9:6.0f} ns")
    refusal = per_call(lambda: REFUSALS.labels("face_down").inc())
    print(f"per refusal (counter by code): {(refusal - base) * 1e9:6.0f} ns")
