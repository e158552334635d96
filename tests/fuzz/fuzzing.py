"""Shared by the fuzz tests: hostile frames and requests (hypothesis strategies), an honest player
that plays meanwhile, the fuzzer's own connection, and the guard that checks nothing else changed."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from spidertour.engine import MOVE_REFUSALS, Game, Settings, move_from_json
from tests.client import Api, apply_result, play_url
from tests.faults.helpers import fetch, row_counts
from tests.serverproc import ServerProcess

SEED = "fault-fuzz-seed-0123456789"
SERVER_TYPES = {"error", "state", "result", "over", "pong"}
ERROR_CODES = MOVE_REFUSALS | {
    "unauthorised",
    "bad_message",
    "not_started",
    "already_started",
    "not_open",
    "stale_seq",
    "seq_reused",
    "not_saved",
    "try_again",
    "taken_over",
    "slow_down",
    "flood",
    "time_up",
    "game_over",
}
FUZZ = settings(
    max_examples=120, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

# ------------------------------------------------------------------------------------ strategies

ints = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, 1, -1, 8, 1000, 1001, 2**53, 2**53 + 1, 2**63]))
scalars = st.one_of(st.none(), st.booleans(), ints, st.floats(), st.text(max_size=30))
values = st.recursive(
    scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=12
)
type_names = st.one_of(
    st.sampled_from(
        ["auth", "start", "move", "deal", "undo", "end", "sync", "ping", "watch", "", "MOVE", "result", "state"]
    ),
    values,
)
field_names = st.sampled_from(["seq", "from", "to", "count", "pile", "token", "x", "type", "view", "tournament_id"])
objects = st.builds(lambda t, f: {**f, "type": t}, type_names, st.dictionaries(field_names, values, max_size=5))
near_valid = st.builds(
    lambda kind, seq, a, b, c: {
        "move": {"type": "move", "seq": seq, "from": a, "count": b, "to": c},
        "deal": {"type": "deal", "seq": seq, "pile": a},
        "undo": {"type": "undo", "seq": seq},
    }[kind],
    st.sampled_from(["move", "move", "deal", "undo"]),
    st.integers(-3, 2**53 + 2),
    st.integers(-2, 12),
    st.integers(-1, 14),
    st.integers(-2, 12),
)


def _nested(n: int) -> str:
    return "[" * n + "]" * n


frames = st.one_of(
    objects.map(lambda o: json.dumps(o, allow_nan=True)),
    near_valid.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=200),
    st.integers(1, 3000).map(_nested),
    st.integers(4000, 300_000).map(lambda n: '{"type": "move", "seq": 1, "pad": "' + "x" * n + '"}'),
    st.sampled_from(
        [
            "",
            "null",
            "[]",
            "{}",
            '{"type": null}',
            "1e999999",
            '{"type": "move"}' * 50,
            '{"type": "ping", "type": "auth"}',
            '{"type": "auth", "token": "' + "t" * 5000 + '"}',
            "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
            "\x00" * 100,
        ]
    ),
)


# ------------------------------------------------------------------------------------ the server


class HonestPlayer(threading.Thread):
    """Plays legal moves meanwhile and checks every answer against the engine."""

    def __init__(self, ws_url: str, entry_id: int, token: str, settings_json: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.url, self.entry_id, self.token = play_url(ws_url, entry_id), entry_id, token
        self.game = Game(Settings.from_json(settings_json), SEED)
        self.stop = threading.Event()
        self.acks = 0
        self.problems: list[str] = []

    def run(self) -> None:
        rng = random.Random(11)
        try:
            with connect(self.url) as ws:
                ws.send(json.dumps({"type": "auth", "token": self.token}))
                json.loads(ws.recv(10))
                ws.send('{"type": "start"}')
                state = json.loads(ws.recv(10))
                view = state.get("view")
                if view != self.game.view():
                    self.problems.append(f"start: {state}")
                seq = 0
                while not self.stop.is_set() and not self.game.over:
                    moves = [m for m in self.game.legal_moves() if m.type == "move"] or list(self.game.legal_moves())
                    if not moves:
                        break
                    move = rng.choice(moves).to_json()
                    seq += 1
                    ws.send(json.dumps({**move, "seq": seq}))
                    answer = json.loads(ws.recv(10))
                    self.game.play(move_from_json(move))
                    if answer.get("type") == "result":
                        view = apply_result(view, answer)
                    if answer.get("type") != "result" or answer.get("n") != seq or view != self.game.view():
                        self.problems.append(f"move {seq}: {answer}")
                        return
                    self.acks += 1
                    time.sleep(0.02)
        except Exception as err:  # any failure of the honest player is a finding
            self.problems.append(f"honest player failed: {err!r}")


def check_answer(raw: str | bytes) -> dict[str, Any]:
    text = raw if isinstance(raw, str) else raw.decode()
    assert SEED not in text
    msg = json.loads(text)
    assert isinstance(msg, dict) and msg.get("type") in SERVER_TYPES, msg
    if msg["type"] == "error":
        assert msg["code"] in ERROR_CODES, msg
        assert isinstance(msg["reason"], str) and msg["reason"], msg
    return msg


class FuzzPlayer:
    """The fuzzer's own authenticated play connection, opened again whenever the server closes it."""

    def __init__(self, ws_url: str, entry_id: int, token: str) -> None:
        self.url = play_url(ws_url, entry_id)
        self.token = token
        self.ws: ClientConnection | None = None
        self.acks = 0
        self.sent = 0

    def socket(self) -> ClientConnection:
        if self.ws is None:
            # Entered by hand: this connection outlives any one block and is closed explicitly.
            self.ws = connect(self.url, max_size=1 << 22).__enter__()
            self.ws.send(json.dumps({"type": "auth", "token": self.token}))
            assert check_answer(self.ws.recv(10))["type"] == "state"
        return self.ws

    def exchange(self, frame: str | bytes) -> None:
        ws = self.socket()
        ws.send(frame)
        self.sent += 1
        msg = check_answer(ws.recv(10))
        if msg["type"] == "result":
            self.acks += 0 if msg["repeated"] else 1
            if msg["fields"]["over"]:
                assert check_answer(ws.recv(10))["type"] == "over"


# ------------------------------------------------------------------------------------ the guard


class Guard:
    """Around one fuzzing run: a tournament, the fuzzer's own entry, an honest player playing meanwhile,
    and the row counts of PostgreSQL before, to check afterwards that nothing else changed."""

    def __init__(self, proc: ServerProcess, db: str, admin_token: str) -> None:
        self.proc, self.db = proc, db
        self.api = Api(proc.url, admin_token)
        self.tour = self.api.create_tournament(name="fuzz", seed=SEED, variant="spider78", suits=1)
        self.tid = self.tour["id"]
        _, honest_token = self.api.register("honest")
        self.honest_entry = self.api.join(self.tid, honest_token)["id"]
        _, self.fuzz_token = self.api.register("fuzzer")
        self.fuzz_entry = self.api.join(self.tid, self.fuzz_token)["id"]
        self.honest = HonestPlayer(proc.ws_url, self.honest_entry, honest_token, self.tour["settings"])
        self.fuzzer = FuzzPlayer(proc.ws_url, self.fuzz_entry, self.fuzz_token)
        self.created = {"players": 0, "entries": 0}
        self.others_sql = "SELECT count(*) AS n FROM moves WHERE entry_id <> ALL($1::bigint[])"

    def __enter__(self) -> Guard:
        self.before = asyncio.run(row_counts(self.db))
        self.other_moves = asyncio.run(fetch(self.db, self.others_sql, [self.honest_entry, self.fuzz_entry]))[0]["n"]
        self.honest.start()
        return self

    def __exit__(self, *exc: object) -> None:
        # A short fuzzing run on a busy machine may end before the honest player has made its 20
        # moves: let it finish them (it plays on alone), then stop it.
        deadline = time.monotonic() + 60
        while self.honest.is_alive() and self.honest.acks < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        self.honest.stop.set()
        self.honest.join(15)
        if self.fuzzer.ws is not None:
            self.fuzzer.ws.close()
        if exc[0] is not None:
            return
        # The server is alive and well, the honest player was never disturbed.
        assert self.proc.proc is not None and self.proc.proc.poll() is None
        assert httpx.get(self.proc.url + "/health", timeout=5).status_code == 200
        assert self.honest.problems == []
        assert self.honest.acks >= 20, (self.honest.acks, self.honest.game.over, self.honest.game.score)
        # Nothing changed but what the fuzzer was entitled to create.
        after = asyncio.run(row_counts(self.db))
        assert after["tournaments"] == self.before["tournaments"]
        assert after["players"] == self.before["players"] + self.created["players"]
        assert after["entries"] == self.before["entries"] + self.created["entries"]
        others = asyncio.run(fetch(self.db, self.others_sql, [self.honest_entry, self.fuzz_entry]))[0]["n"]
        assert others == self.other_moves
        count = "SELECT count(*) AS n FROM moves WHERE entry_id = $1"
        assert asyncio.run(fetch(self.db, count, self.honest_entry))[0]["n"] == self.honest.acks
        assert asyncio.run(fetch(self.db, count, self.fuzz_entry))[0]["n"] == self.fuzzer.acks
