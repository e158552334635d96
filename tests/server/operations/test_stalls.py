"""STALL_LOG_MS: a stall of the event loop is one WARNING line naming where the loop was."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from spidertour.server.operations.stalls import StallLog


def hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # a blocking call on the loop: what the log is for


async def test_a_stall_is_logged_with_where_the_loop_was(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spidertour.stalls")
    stalls = StallLog(0.1)
    stalls.start()
    try:
        await asyncio.sleep(0.05)
        hold_the_loop(0.4)
        await asyncio.sleep(0.1)  # the loop answers again: the stall is reported
    finally:
        stalls.stop()
    # (a busy machine may stall the loop elsewhere too: those lines name other places)
    logged = [r.getMessage() for r in caplog.records if r.name == "spidertour.stalls"]
    lines = [line for line in logged if "hold_the_loop" in line]
    assert len(lines) == 1, lines
    assert lines[0].startswith("the event loop stalled for ")
    lasted = float(lines[0].split("stalled for ")[1].split(" ms")[0])
    assert 300 <= lasted <= 2000


async def test_a_loop_that_keeps_up_is_not_logged_and_stop_ends_the_thread(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spidertour.stalls")
    stalls = StallLog(5.0)
    stalls.start()
    thread = stalls.thread
    assert thread is not None and thread.is_alive()
    await asyncio.sleep(0.2)
    stalls.stop()
    assert not thread.is_alive()
    assert [r for r in caplog.records if r.name == "spidertour.stalls"] == []
