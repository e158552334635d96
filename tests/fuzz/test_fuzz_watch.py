"""Fuzzing the watch websocket: random tournament ids in the path and random frames from the
watcher. A watcher only listens: every frame is answered with pong or a bad_message error and the
connection stays open; an unknown tournament is refused with not_found; the server stays up and a
player playing meanwhile is unaffected."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.fuzz.fuzzing import FUZZ, Guard, frames


def test_fuzz_watch_socket(guard: Guard) -> None:
    proc, tid = guard.proc, guard.tid

    ids = st.one_of(
        st.just(str(tid)),
        st.sampled_from(["0", str(2**63 - 1), str(2**63), str(10**30)]),
        st.integers(-5, 2**70).map(str),
    )

    @settings(FUZZ, max_examples=80)
    @given(ids, st.lists(frames, max_size=20))
    def watch_socket(which: str, batch: list[str | bytes]) -> None:
        try:
            ws = connect(f"{proc.ws_url}/ws/watch/{which}", max_size=1 << 26)
        except InvalidStatus as err:  # a path the router does not take (a negative id): refused at the handshake
            assert err.response.status_code in (403, 404), err
            assert which.startswith("-")
            return
        with ws:
            first = json.loads(ws.recv(10))
            if which != str(tid):
                assert first["type"] == "error" and first["code"] == "not_found", first
                return
            assert first["type"] == "snapshot" and first["tournament_id"] == tid
            for frame in batch:
                ws.send(frame)
                while True:  # updates may come between: the answer is the next message that is not one
                    msg = json.loads(ws.recv(10))
                    if msg["type"] != "update":
                        break
                assert msg["type"] in ("pong", "error"), msg
                if msg["type"] == "error":
                    assert msg["code"] == "bad_message", msg
            ws.send('{"type": "ping"}')
            while (msg := json.loads(ws.recv(10)))["type"] == "update":
                pass
            assert msg["type"] == "pong"

    with guard:
        watch_socket()
