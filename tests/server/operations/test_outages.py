"""A loop's failures said as an outage: once when it begins, then every REPEAT_SECONDS, once when it ends."""

from __future__ import annotations

import logging

import pytest

from spidertour.server.storage.outages import Outage


def test_an_outage_is_said_when_it_begins_now_and_then_while_it_lasts_and_when_it_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [100.0]
    outage = Outage(logging.getLogger("tests.outage"), "clock sweep", repeat=30, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="tests.outage"):
        outage.ok()  # nothing failed: nothing to say
        for _ in range(130):  # 65 s of a try every half second
            outage.failed("database unavailable: ConnectionRefusedError(111)")
            now[0] += 0.5
        outage.ok()
        outage.ok()  # working on: said once
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "clock sweep failed (database unavailable: ConnectionRefusedError(111)); retrying",
        "clock sweep still failing after 30 s, 61 tries (database unavailable: ConnectionRefusedError(111)); retrying",
        "clock sweep still failing after 60 s, 121 tries (database unavailable: ConnectionRefusedError(111)); retrying",
        "clock sweep works again after 65.0 s (130 failed tries)",
    ]
    assert not any(r.exc_info for r in caplog.records)  # no traceback


def test_a_second_outage_is_said_anew(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    outage = Outage(logging.getLogger("tests.outage"), "sign-out subscription", clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="tests.outage"):
        for error in ("first", "second"):
            outage.failed(error)
            now[0] += 1
            outage.failed(error)
            outage.ok()
    assert [r.getMessage() for r in caplog.records] == [
        "sign-out subscription failed (first); retrying",
        "sign-out subscription works again after 1.0 s (2 failed tries)",
        "sign-out subscription failed (second); retrying",
        "sign-out subscription works again after 1.0 s (2 failed tries)",
    ]
