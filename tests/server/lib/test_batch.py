"""The batcher: every caller gets its own answer, and items that come while a batch is on its way
(or while the interval between batches runs) go together in the next one."""

from __future__ import annotations

import asyncio

import pytest

from spidertour.server.lib.batch import Batcher


async def test_items_gather_while_a_batch_is_on_its_way() -> None:
    batches: list[list[int]] = []

    async def run(items: list[int]) -> list[int]:
        batches.append(items)
        await asyncio.sleep(0.01)
        return [i * 10 for i in items]

    b: Batcher[int, int] = Batcher(run, max_batch=100, concurrency=1)
    first = asyncio.create_task(b.submit(1))
    await asyncio.sleep(0)
    rest = [asyncio.create_task(b.submit(i)) for i in range(2, 7)]
    assert await first == 10
    assert [await t for t in rest] == [20, 30, 40, 50, 60]
    assert batches == [[1], [2, 3, 4, 5, 6]]


async def test_an_interval_between_batches_gathers_more() -> None:
    batches: list[list[int]] = []

    async def run(items: list[int]) -> list[int]:
        batches.append(items)
        return items

    b: Batcher[int, int] = Batcher(run, max_batch=100, concurrency=1, interval=0.05)
    assert await b.submit(0) == 0  # the first goes at once
    tasks = []
    for i in range(1, 6):  # each alone would go at once without the interval
        tasks.append(asyncio.create_task(b.submit(i)))
        await asyncio.sleep(0.001)
    assert [await t for t in tasks] == [1, 2, 3, 4, 5]
    assert batches[0] == [0] and sum(len(x) for x in batches) == 6 and len(batches) < 6


async def test_a_failed_batch_fails_each_of_its_callers_and_the_next_batch_still_runs() -> None:
    calls = 0

    async def run(items: list[int]) -> list[int]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("down")
        return items

    b: Batcher[int, int] = Batcher(run, max_batch=100, concurrency=1, interval=0.001)
    with pytest.raises(ConnectionError):
        await b.submit(1)
    assert await b.submit(2) == 2
