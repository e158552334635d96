"""Fuzzing the play websocket: thousands of malformed, oversized and hostile frames, authenticated
and as the first frame of a connection. Every frame gets a protocol answer, the connection stays
open, nothing but the fuzzer's own game changes, and a player playing meanwhile is unaffected."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.client import play_url
from tests.fuzz.fuzzing import FUZZ, Guard, check_answer, frames

# ------------------------------------------------------------------------------------ the tests


def test_fuzz_play_socket(guard: Guard) -> None:
    """Random frames on an authenticated play connection, and as the first frame of new ones."""
    with guard:
        fuzzer, proc = guard.fuzzer, guard.proc
        fuzzer.socket().send('{"type": "start"}')
        assert check_answer(fuzzer.socket().recv(10))["type"] == "state"

        @settings(FUZZ, max_examples=260)
        @given(st.lists(frames, min_size=5, max_size=30))
        def play_socket(batch: list[str | bytes]) -> None:
            for frame in batch:
                fuzzer.exchange(frame)

        @settings(FUZZ, max_examples=30)
        @given(frames)
        def before_auth(frame: str | bytes) -> None:
            with connect(play_url(proc.ws_url, guard.fuzz_entry), max_size=1 << 22) as ws:
                ws.send(frame)
                msg = check_answer(ws.recv(10))
                assert msg["type"] == "error" and msg["code"] == "unauthorised", msg
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003

        play_socket()
        before_auth()
        assert fuzzer.sent >= 2000

        # A frame over 1 MiB is closed by the websocket layer (1009); the server stays up.
        ws = fuzzer.socket()
        ws.send("x" * (1 << 20 | 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        fuzzer.ws = None
        fuzzer.exchange('{"type": "ping"}')  # and a new connection works
