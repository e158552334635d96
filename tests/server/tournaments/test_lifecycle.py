"""A tournament's life by the server's clock: scheduled, open, closing, finished; deadlines; the reveal."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from typing import Any

import pytest
import websockets

from tests.client import Api, Player, bearer, play_url
from tests.server.helpers import FREE, canonical_commitment, fetch, reveal_move
from tests.serverproc import ROOT

SEED = "lifecycle-✓-seed"


class StatusWatch:
    """Polls a tournament's status and keeps every distinct status seen, in order."""

    def __init__(self, api: Api, tournament_id: int) -> None:
        self.api, self.id = api, tournament_id
        self.seen: list[str] = []

    def poll(self) -> dict[str, Any]:
        tour = self.api.tournament(self.id)
        if not self.seen or self.seen[-1] != tour["status"]:
            self.seen.append(tour["status"])
        return tour

    async def until(self, status: str, timeout: float = 6.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            tour = self.poll()
            if tour["status"] == status:
                return tour
            assert time.monotonic() < deadline, f"still {tour['status']}, never {status}: saw {self.seen}"
            await asyncio.sleep(0.05)


async def test_a_tournament_lives_by_the_clock(api: Api, server: Any, database_url: str) -> None:
    tour = api.create_tournament(
        name="lifecycle", seed=SEED, opens_in=1.0, closes_in=3.0, variant="spider78", suits=2, time_limit=3
    )
    tid = tour["id"]
    watch = StatusWatch(api, tid)
    assert watch.poll()["status"] == "scheduled"
    players = {name: api.register(name) for name in ("ann", "bob", "cat", "dan", "eve")}
    r = api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(players["ann"][1]))
    assert r.status_code == 409 and "scheduled" in r.json()["detail"]

    await watch.until("open")
    # ann, bob and dan play; cat joins before dan and never starts; eve comes too late.
    entries = {name: api.join(tid, players[name][1]) for name in ("ann", "bob", "cat", "dan")}
    move = reveal_move(SEED)

    ann, _ = await Player.connect(server.ws_url, entries["ann"]["id"], players["ann"][1])
    bob, _ = await Player.connect(server.ws_url, entries["bob"]["id"], players["bob"][1])
    dan, _ = await Player.connect(server.ws_url, entries["dan"]["id"], players["dan"][1])
    for p in (ann, bob, dan):
        started = await p.start()
        assert started["status"] == "playing" and 2.5 < started["time_left"] <= 3
    assert (await ann.play(move))["view"]["score"] == 25
    ended = await ann.play({"type": "end"})
    assert ended["type"] == "result" and ended["view"]["outcome"] == "ended"
    ann_over = await ann.recv()
    assert ann_over["type"] == "over" and ann_over["final_score"] == 25 and ann_over["time_left"] == 2
    await ann.close()
    assert (await bob.play(move))["view"]["score"] == 25
    await bob.close()  # bob's game runs on without him

    await watch.until("closing")
    late = api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(players["eve"][1]))
    assert late.status_code == 409 and "closing" in late.json()["detail"]
    cat, cat_state = await Player.connect(server.ws_url, entries["cat"]["id"], players["cat"][1])
    assert cat_state["status"] == "joined"
    refused = await cat.start()
    assert refused["type"] == "error" and refused["code"] == "not_open"
    await cat.close()
    assert api.tournament(tid)["seed"] is None
    assert_forbidden(api.http.get(f"/api/tournaments/{tid}/replays"))

    # dan stays connected: the server ends his game at the deadline and refuses anything later.
    over = await dan.recv(timeout=5)
    assert over["type"] == "over" and over["outcome"] == "timed_out" and over["final_score"] == 0
    after = await dan.play({"type": "move", "from": 1, "count": 1, "to": FREE})
    assert after["type"] == "error" and after["code"] in ("time_up", "game_over")
    await dan.close()

    finished = await watch.until("finished")
    assert watch.seen == ["scheduled", "open", "closing", "finished"]

    # bob, gone since his move, was timed out by the server: final score = score, no time bonus.
    bob_again, bob_state = await Player.connect(server.ws_url, entries["bob"]["id"], players["bob"][1])
    assert bob_state["status"] == "timed_out" and bob_state["view"]["final_score"] == 25
    late_move = await bob_again.play({"type": "move", "from": 1, "count": 1, "to": FREE}, seq=2)
    assert late_move["type"] == "error" and late_move["code"] in ("time_up", "game_over")
    await bob_again.close()
    rows = {
        r["id"]: r
        for r in await fetch(
            database_url,
            """SELECT id, status, score, final_score, time_left, moves, deadline, ended_at
             FROM entries WHERE tournament_id = $1""",
            tid,
        )
    }
    by_name = {name: rows[e["id"]] for name, e in entries.items()}
    assert {n: r["status"] for n, r in by_name.items()} == {
        "ann": "ended",
        "bob": "timed_out",
        "cat": "absent",
        "dan": "timed_out",
    }
    assert by_name["bob"]["final_score"] == by_name["bob"]["score"] == 25 and by_name["bob"]["time_left"] == 0
    assert by_name["bob"]["ended_at"] == by_name["bob"]["deadline"]
    assert by_name["dan"]["final_score"] == 0 and by_name["cat"]["final_score"] == 0
    assert by_name["bob"]["moves"] == 1 and by_name["dan"]["moves"] == 0  # nothing after the deadline

    # The reveal: the seed, and the commitment recomputed from it and the settings.
    assert finished["seed"] == SEED
    assert tour["salt"] is None and len(finished["salt"]) == 32  # 128 bits, revealed with the seed
    assert (
        finished["commitment"]
        == tour["commitment"]
        == canonical_commitment(SEED, finished["settings"], finished["salt"])
    )
    assert canonical_commitment(SEED + "x", finished["settings"], finished["salt"]) != finished["commitment"]
    assert finished["entrants"] == 4

    # Replays: docs/replay.md input lines; the engine's verifier alone gives every published final score.
    r = api.http.get(f"/api/tournaments/{tid}/replays")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = r.text.splitlines()
    games = [json.loads(line) for line in lines]
    assert [g["entry_id"] for g in games] == sorted(e["id"] for e in entries.values())
    for g in games:
        assert g["seed"] == SEED and {k: g[k] for k in finished["settings"]} == finished["settings"]
    verified = subprocess.run(
        [sys.executable, "-m", "spidertour.engine", "replay"],
        input=r.text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert verified.returncode == 0, verified.stderr
    outputs = [json.loads(line) for line in verified.stdout.splitlines()]
    assert len(outputs) == len(games)
    published = {g["entry_id"]: g["final_score"] for g in games}
    recomputed = {g["entry_id"]: out["final_score"] for g, out in zip(games, outputs, strict=True)}
    assert recomputed == published == {e["id"]: rows[e["id"]]["final_score"] for e in entries.values()}
    assert published[entries["ann"]["id"]] == published[entries["bob"]["id"]] == 25

    # Final standings stored in PostgreSQL in the rules' order: score, then time remaining, then entry.
    stored = await fetch(
        database_url,
        "SELECT rank, entry_id, final_score, time_left, status FROM standings WHERE tournament_id = $1 ORDER BY rank",
        tid,
    )
    assert [(s["rank"], s["entry_id"]) for s in stored] == [
        (1, entries["ann"]["id"]),  # 25 with 2 s left
        (2, entries["bob"]["id"]),  # 25 with none
        (3, entries["cat"]["id"]),  # 0, joined before dan
        (4, entries["dan"]["id"]),
    ]
    assert [s["final_score"] for s in stored] == [25, 25, 0, 0]
    assert [s["time_left"] for s in stored] == [2, 0, 0, 0]
    public = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [(s["rank"], s["entry_id"], s["score"], s["time_left"], s["status"]) for s in public] == [
        (s["rank"], s["entry_id"], s["final_score"], s["time_left"], s["status"]) for s in stored
    ]


def assert_forbidden(r: Any) -> None:
    assert r.status_code == 403 and "finished" in r.json()["detail"]


async def test_a_game_is_ended_at_its_deadline_with_nobody_connected(api: Api, server: Any, database_url: str) -> None:
    tour = api.create_tournament(name="deadline", seed="deadline-seed", variant="spider78", suits=2, time_limit=1)
    _, token = api.register("leaver")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    started = await player.start()
    assert started["status"] == "playing"
    answer = await player.play(reveal_move("deadline-seed"))
    assert answer["type"] == "result"
    await player.close()
    deadline = time.monotonic() + 4
    while True:
        (row,) = await fetch(
            database_url, "SELECT status, score, final_score, time_left FROM entries WHERE id = $1", entry["id"]
        )
        if row["status"] != "playing":
            break
        assert time.monotonic() < deadline, "the server never ended the game"
        await asyncio.sleep(0.1)
    assert (row["status"], row["score"], row["final_score"], row["time_left"]) == ("timed_out", 25, 25, 0)
    mine = api.http.get("/api/me/entries", headers=bearer(token)).json()
    assert [(e["status"], e["final_score"]) for e in mine if e["id"] == entry["id"]] == [("timed_out", 25)]
    again, state = await Player.connect(server.ws_url, entry["id"], token)
    assert state["status"] == "timed_out" and state["view"]["over"] is True and state["time_left"] == 0
    refused = await again.play({"type": "undo"}, seq=5)
    assert refused["type"] == "error" and refused["code"] in ("time_up", "game_over") and refused["seq"] == 5
    sync = await again.request({"type": "sync"})
    assert sync["moves"] == 1 and sync["last_seq"] == 1
    await again.close()


async def test_a_move_after_the_deadline_is_refused_on_a_live_connection(
    api: Api, server: Any, database_url: str
) -> None:
    tour = api.create_tournament(name="late move", seed="late-seed", variant="spider78", suits=2, time_limit=1)
    _, token = api.register("slowpoke")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    await asyncio.sleep(1.1)
    await player.send({"type": "move", "from": 0, "count": 1, "to": FREE, "seq": 1})
    got = [await player.recv(), await player.recv()]
    kinds = {m["type"] for m in got}
    assert kinds == {"over", "error"}, got
    error = next(m for m in got if m["type"] == "error")
    assert error["code"] in ("time_up", "game_over") and error["seq"] == 1
    over = next(m for m in got if m["type"] == "over")
    assert over["outcome"] == "timed_out" and over["final_score"] == 0
    with pytest.raises(TimeoutError):
        await player.recv(timeout=0.3)  # nothing else: no result for the late move
    (row,) = await fetch(database_url, "SELECT status, moves FROM entries WHERE id = $1", entry["id"])
    assert row["status"] == "timed_out" and row["moves"] == 0
    assert await fetch(database_url, "SELECT 1 FROM moves WHERE entry_id = $1", entry["id"]) == []
    await player.close()


async def test_the_play_socket_stays_usable_after_the_finish(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="after the finish", seed="after-seed", closes_in=0.5, time_limit=60)
    _, token = api.register("finisher")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    await player.play({"type": "end"})
    assert (await player.recv())["type"] == "over"
    await player.close()
    deadline = time.monotonic() + 4
    while api.tournament(tour["id"])["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    async with websockets.connect(play_url(server.ws_url, entry["id"])) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        state = json.loads(await ws.recv())
        assert state["type"] == "state" and state["status"] == "ended"
        await ws.send(json.dumps({"type": "start"}))
        again = json.loads(await ws.recv())
        assert again["type"] == "error" and again["code"] == "already_started"
