"""The event loop's lag (``play.pacing.lag``): measured by a timer woken late, ``behind`` past its limit
for as long again as the loop was late, then no more; a server whose loop was held answers a move
try_again (busy) and changes nothing, then plays the same move sent again."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import time
from collections.abc import Iterator

import pytest

from spidertour.server.operations.collector import gc_paused, time_pause
from spidertour.server.play.pacing.lag import TICK, LoopLag
from tests.client import Api
from tests.conftest import server_env
from tests.server.play.test_busy import SEED, SETTINGS, started, stored, two_moves
from tests.serverproc import ServerProcess
from tests.services import unique_name


async def test_a_held_loop_is_behind_until_it_catches_up() -> None:
    lag = LoopLag(0.1)
    lag.start()
    try:
        await asyncio.sleep(3 * TICK)
        settled = time.monotonic() + 2
        while lag.behind or lag.lag >= 0.1:  # a loaded machine may have held this process a moment already
            assert time.monotonic() < settled, f"lag {lag.lag:.3f} s: never settled below 0.1 s"
            await asyncio.sleep(TICK)
        time.sleep(0.3)  # the loop held: nothing else runs for 300 ms
        deadline = time.monotonic() + 1
        while not lag.behind:  # the timer's first wake-up after the hold sees it
            assert time.monotonic() < deadline, f"lag {lag.lag:.3f} s never past 0.1 s"
            await asyncio.sleep(0)
        assert lag.lag >= 0.25
        held = time.monotonic()
        while lag.behind:  # busy for as long again as the loop was late, then no more
            assert time.monotonic() - held < 1.5, "still behind long after the loop caught up"
            await asyncio.sleep(TICK)
        assert time.monotonic() - held >= 0.2  # held about 0.3 s, measured from the late wake-up
        assert lag.lag < 0.1, lag.lag
    finally:
        await lag.stop()
    assert lag.task is None


async def test_a_limit_of_zero_is_never_behind() -> None:
    lag = LoopLag(0.0)
    lag.start()
    try:
        await asyncio.sleep(TICK)
        time.sleep(0.2)
        deadline = time.monotonic() + 1
        while lag.lag < 0.1:  # measured as late...
            assert time.monotonic() < deadline, "the hold was never measured"
            await asyncio.sleep(0)
        assert not lag.behind  # ...and still not behind
    finally:
        await lag.stop()


@pytest.fixture(scope="module")
def lagging(database_url: str, redis_url: str, admin_token: str) -> Iterator[ServerProcess]:
    env = {**server_env(unique_name("st_lag")), "LOOP_LAG_MS": "200"}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


async def test_a_move_read_while_the_loop_is_behind_is_try_again(
    lagging: ServerProcess, admin_token: str, database_url: str
) -> None:
    api = Api(lagging.url, admin_token)
    tournament = api.create_tournament(name="lagging", seed=SEED, **SETTINGS)
    player, entry = await started(api, lagging, tournament["id"], "lag-a")
    move, _ = two_moves()
    assert lagging.proc is not None
    pid = lagging.proc.pid
    os.kill(pid, signal.SIGSTOP)  # the process gets no CPU: its loop falls behind by the pause
    try:
        await asyncio.sleep(2)
    finally:
        os.kill(pid, signal.SIGCONT)
    await asyncio.sleep(0.05)  # the timer wakes 2 s late: busy for the next second (HOLD)
    refused = await player.play(move, seq=1)
    assert refused["type"] == "error" and refused["code"] == "try_again" and refused["seq"] == 1, refused
    assert "busy" in refused["reason"]
    assert await stored(database_url, [entry]) == 0  # nothing written
    await asyncio.sleep(1.2)  # the hold is over
    deadline = time.monotonic() + 10
    while (again := await player.play(move, seq=1))["type"] == "error":  # sent again, as clients do
        assert again["code"] == "try_again" and time.monotonic() < deadline, again  # (a busy machine)
        await asyncio.sleep(0.5)
    assert again["type"] == "result" and again["n"] == 1 and again["seq"] == 1, again
    assert await stored(database_url, [entry]) == 1
    await player.close()


async def test_a_garbage_collection_is_measured_but_does_not_make_it_busy() -> None:
    """A collection is one stall, not an overload: the lag shows it, ``behind`` does not."""
    added = time_pause not in gc.callbacks
    if added:
        gc.callbacks.append(time_pause)
    heap: list[list[object]] = [[i] for i in range(1_500_000)]  # enough for a collection of a few hundred ms
    for i in range(0, len(heap) - 1, 2):
        heap[i].append(heap[i + 1])
    lag = LoopLag(0.05)
    lag.start()
    try:
        await asyncio.sleep(3 * TICK)
        paused = gc_paused()
        began = time.monotonic()
        gc.collect()  # on the loop, as a collection triggered by an allocation would be
        took = time.monotonic() - began
        assert gc_paused() - paused >= 0.8 * took  # the pause was timed
        assert took > 0.1, f"the collection took only {took:.3f} s: not a stall to test with"
        deadline = time.monotonic() + 1
        while lag.lag < 0.05:  # measured as late...
            assert time.monotonic() < deadline, "the collection was never measured"
            await asyncio.sleep(0)
        assert lag.own < 0.05 and not lag.behind  # ...but the process is not busy for it
        time.sleep(0.3)  # a stall that is not a collection still is
        deadline = time.monotonic() + 1
        while not lag.behind:
            assert time.monotonic() < deadline, f"lag {lag.lag:.3f} s never made it busy"
            await asyncio.sleep(0)
    finally:
        await lag.stop()
        del heap
        if added:
            gc.callbacks.remove(time_pause)
