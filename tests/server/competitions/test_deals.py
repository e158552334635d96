"""Several deals in one event: settings ``deals`` and ``scoring``, deal after deal on one play socket,
rounds that start together, the totals and matchpoints of the standings, replays and verify."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from spidertour.engine import Game, Settings
from spidertour.server.cli.verify import verify
from tests.client import Api, Player
from tests.server.helpers import canonical_commitment, fetch, unique

END: dict[str, Any] = {"type": "end"}
# Moves that each reveal a card (25 points) on the deals of seed "mp": deal 1 (one), deal 2 (three).
REVEAL_1 = [{"type": "move", "from": 0, "count": 1, "to": 2}]
REVEAL_2 = [
    {"type": "move", "from": 1, "count": 1, "to": 5},
    {"type": "move", "from": 4, "count": 1, "to": 7},
    {"type": "move", "from": 5, "count": 2, "to": 3},
]


def create(api: Api, **fields: Any) -> dict[str, Any]:
    r = api.http.post("/api/tournaments", json={"name": unique("deals"), **fields}, headers=api.admin())
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def finish(api: Api, tid: int, timeout: float = 15) -> dict[str, Any]:
    """Close the tournament now (its games are over) and wait for its finish."""
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=api.admin())
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + timeout
    while (tour := api.tournament(tid))["status"] != "finished":
        assert time.monotonic() < deadline, f"still {tour['status']}"
        time.sleep(0.1)
    return tour


def view_of(settings: dict[str, Any], seed: str, entry: int) -> list[list[str]]:
    return Game(Settings.from_json(settings), seed, entry).view()["columns"]  # type: ignore[no-any-return]


def replays(api: Api, tid: int) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/tournaments/{tid}/replays")
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines()]


def test_settings_are_checked_and_committed(api: Api) -> None:
    plain = create(api, settings={"time_limit": 60})
    ones = create(api, settings={"time_limit": 60, "deals": 1, "scoring": "total"})
    assert "deals" not in plain["settings"] and "scoring" not in plain["settings"]
    assert ones["settings"] == plain["settings"]  # one deal, by total: the settings of before, as committed
    three = create(api, seed="committed", settings={"time_limit": 60, "deals": 3, "scoring": "matchpoints"})
    assert three["settings"]["deals"] == 3 and three["settings"]["scoring"] == "matchpoints"
    for settings, needle in (
        ({"deals": 0}, "deals"),
        ({"deals": 11}, "deals"),
        ({"deals": 2.5}, "deals"),
        ({"scoring": "best"}, "scoring"),
        ({"deals": 10, "time_limit": 9000}, "deals x time_limit"),
    ):
        r = api.http.post("/api/tournaments", json={"name": "bad", "settings": settings}, headers=api.admin())
        assert r.status_code == 400 and needle in r.text, (settings, r.text)
    cancelled = api.http.post(f"/api/tournaments/{three['id']}/cancel", headers=api.admin())
    assert cancelled.status_code == 200, cancelled.text
    tour = api.tournament(three["id"])
    assert tour["commitment"] == canonical_commitment("committed", tour["settings"], tour["salt"])


async def test_an_own_entrant_plays_deal_after_deal(api: Api, server: Any, database_url: str) -> None:
    settings = {"variant": "spider78", "suits": 2, "time_limit": 600, "deals": 2, "deal_variation": True}
    tour = create(api, seed="pair", settings=settings)
    tid = tour["id"]
    players = {name: api.register(name) for name in ("ann", "bob")}
    entries = {name: api.join(tid, players[name][1]) for name in players}
    full = tour["settings"]

    ann, state = await Player.connect(server.ws_url, entries["ann"]["id"], players["ann"][1])
    assert state["status"] == "joined" and (state["deal"], state["deals"], state["total"]) == (1, 2, 0)
    first = await ann.start()
    assert first["deal"] == 1 and first["view"]["columns"] == view_of(full, "pair/1", 1)
    moved = await ann.play({"type": "move", "from": 0, "count": 1, "to": 3})
    if moved["type"] == "error":  # not legal on this board: any legal move will do, or none
        ann.seq -= 1
    ended = await ann.play(END)
    over = await ann.recv()
    assert ended["type"] == "result" and over["type"] == "over"
    assert (over["deal"], over["deals"], over["total"]) == (1, 2, over["final_score"])
    last_seq = ann.seq

    second = await ann.start()  # deal 2, on the same socket
    assert second["type"] == "state" and second["status"] == "playing", second
    assert (second["deal"], second["deals"], second["total"]) == (2, 2, over["final_score"])
    assert second["view"]["columns"] == view_of(full, "pair/2", 1)
    assert second["view"]["columns"] != view_of(full, "pair/1", 1)
    stale = await ann.play(END, seq=last_seq)  # seq keeps growing across the deals
    assert stale["type"] == "error" and stale["code"] == "stale_seq"
    await ann.play(END)
    over2 = await ann.recv()
    assert over2["type"] == "over" and over2["deal"] == 2
    assert over2["total"] == over["final_score"] + over2["final_score"]
    third = await ann.start()
    assert third["type"] == "error" and third["code"] == "already_started"
    await ann.close()

    # Reconnecting shows the last deal, over, and the running total.
    ann, again = await Player.connect(server.ws_url, entries["ann"]["id"], players["ann"][1])
    assert (again["deal"], again["total"], again["status"]) == (2, over2["total"], "ended")
    await ann.close()

    bob, _ = await Player.connect(server.ws_url, entries["bob"]["id"], players["bob"][1])
    bob_first = await bob.start()  # bob is entry 2: his own renaming of the same deal
    assert bob_first["view"]["columns"] == view_of(full, "pair/1", 2) != first["view"]["columns"]
    await bob.play(END)
    bob_over = await bob.recv()
    await bob.close()

    board = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()
    scores = {r["player"]: r["score"] for r in board["rows"]}
    assert scores == {"ann": over2["total"], "bob": bob_over["final_score"]}  # live: the running totals

    finish(api, tid)
    lines = replays(api, tid)
    assert [(line["player"], line["deal"]) for line in lines] == [("ann", 1), ("ann", 2), ("bob", 1), ("bob", 2)]
    assert {line["seed"] for line in lines} == {"pair"}
    assert [line["final_score"] for line in lines] == [
        over["final_score"],
        over2["final_score"],
        bob_over["final_score"],
        0,
    ]
    assert lines[3]["status"] == "absent"
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert {s["player"]: s["score"] for s in standings} == {"ann": over2["total"], "bob": bob_over["final_score"]}
    report = verify(server.url, tid)
    assert report.ok, report.problems
    assert len(report.games) == 4
    # The published lines re-score with the engine's own command, deal by deal.
    text = api.http.get(f"/api/tournaments/{tid}/replays").text
    replayed = subprocess.run(
        [sys.executable, "-m", "spidertour.server.cli", "replay"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert [json.loads(out)["final_score"] for out in replayed.stdout.splitlines()] == [
        line["final_score"] for line in lines
    ]

    # A replay that scores deal 2 differently from what was published fails the check.
    doctored = [dict(line) for line in lines]
    doctored[1]["moves"] = doctored[1]["moves"][-1:]  # deal 2 of ann without its moves: still "end"
    doctored[1]["final_score"] += 25
    text = "\n".join(json.dumps(line) for line in doctored)
    bad = verify(server.url, tid, text)
    assert not bad.ok and any("deal 2" in p for p in bad.problems), bad.problems


async def test_matchpoints_rank_a_hand_checked_field(api: Api, server: Any, database_url: str) -> None:
    """ann 25 + 25, bob 0 + 75 (one lucky deal), cat 0 + 0, dan never plays. Deal 1: ann beats three (3),
    bob, cat and dan tie (1 each); deal 2: bob 3, ann 2, cat and dan 1/2 each. ann 5, bob 4, cat 1.5,
    dan 1.5 (cat entered first); by the total bob would have won."""
    settings = {"variant": "spider78", "suits": 2, "time_limit": 600, "deals": 2, "scoring": "matchpoints"}
    tour = create(api, seed="mp", settings=settings)
    tid = tour["id"]
    tokens = {name: api.register(name)[1] for name in ("ann", "bob", "cat", "dan")}
    entries = {name: api.join(tid, tokens[name]) for name in tokens}
    plays: dict[str, list[list[dict[str, Any]]]] = {
        "ann": [[REVEAL_1[0], END], [REVEAL_2[0], END]],
        "bob": [[END], [*REVEAL_2, END]],
        "cat": [[END], [END]],
    }
    for name, deals in plays.items():
        player, _ = await Player.connect(server.ws_url, entries[name]["id"], tokens[name])
        for moves in deals:
            started = await player.start()
            assert started["type"] == "state" and started["status"] == "playing", started
            for move in moves:
                assert (await player.play(move))["type"] == "result"
            assert (await player.recv())["type"] == "over"
        await player.close()
    finish(api, tid)
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    got = [(s["rank"], s["player"], s["matchpoints"], s["score"]) for s in standings]
    assert got == [(1, "ann", 5.0, 50), (2, "bob", 4.0, 75), (3, "cat", 1.5, 0), (4, "dan", 1.5, 0)]
    stored = await fetch(
        database_url, "SELECT rank, matchpoints FROM standings WHERE tournament_id = $1 ORDER BY rank", tid
    )
    assert [r["matchpoints"] for r in stored] == [5.0, 4.0, 1.5, 1.5]
    csv = api.http.get(f"/api/tournaments/{tid}/standings.csv")
    assert csv.status_code == 200 and "matchpoints" in csv.text.splitlines()[0]
    report = verify(server.url, tid)
    assert report.ok, report.problems
    assert any(c.name == "ranking" and "matchpoints" in c.detail for c in report.checks)
    # Practice plays one deal at a time: asked without saying which, the reason, nothing made.
    _, token = api.register("practiser")
    r = api.http.post(f"/api/tournaments/{tid}/practice", headers={"authorization": f"Bearer {token}"})
    assert r.status_code == 400 and "2 deals" in r.json()["detail"], r.text
    assert await fetch(database_url, "SELECT id FROM entries WHERE tournament_id = $1 AND practice", tid) == []
    entry = (await fetch(database_url, "SELECT id FROM entries WHERE tournament_id = $1", tid))[0]["id"]
    r = api.http.get(f"/api/tournaments/{tid}/entries/{entry}/analysis", headers={"authorization": f"Bearer {token}"})
    assert r.status_code == 400 and "2 deals" in r.json()["detail"], r.text  # which deal's game: ?deal=k


async def test_rounds_start_together_on_time(api: Api, server: Any, database_url: str) -> None:
    limit = 3
    opens = datetime.now(UTC) + timedelta(seconds=2)
    body = {
        "name": unique("rounds"),
        "start": "together",
        "opens_at": opens.isoformat(),
        "settings": {"variant": "spider78", "suits": 2, "time_limit": limit, "deals": 2},
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    tour = r.json()
    tid = tour["id"]
    opens_at = datetime.fromisoformat(tour["opens_at"])
    assert datetime.fromisoformat(tour["closes_at"]) - opens_at == timedelta(seconds=2 * limit)
    tokens = {name: api.register(name)[1] for name in ("ann", "bob")}
    entries = {name: api.join(tid, tokens[name]) for name in tokens}

    ann, state = await Player.connect(server.ws_url, entries["ann"]["id"], tokens["ann"])
    assert state["status"] == "joined" and state["deal"] == 1
    started = await ann.recv(timeout=10)  # the server starts deal 1 unasked
    assert started["type"] == "state" and started["deal"] == 1 and started["status"] == "playing"
    assert datetime.fromisoformat(started["started_at"]) == opens_at
    await ann.play(END)
    assert (await ann.recv())["type"] == "over"
    early = await ann.start()  # deal 2 starts with everyone's, not before
    assert early["type"] == "error" and early["code"] == "starts_together"
    state_after = await ann.recv(timeout=10)
    assert state_after["type"] == "state" and state_after["deal"] == 2 and state_after["status"] == "playing"
    assert datetime.fromisoformat(state_after["started_at"]) == opens_at + timedelta(seconds=limit)
    assert datetime.fromisoformat(state_after["deadline"]) == opens_at + timedelta(seconds=2 * limit)
    await ann.close()

    deadline = time.monotonic() + 2 * limit + 10
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    rows = await fetch(
        database_url,
        """SELECT e.player_id, d.deal, d.started_at, d.status FROM entry_deals d JOIN entries e ON e.id = d.entry_id
            WHERE e.tournament_id = $1 ORDER BY e.id""",
        tid,
    )
    assert [(r["deal"], r["started_at"]) for r in rows] == [(1, opens_at), (1, opens_at)]
    assert [r["status"] for r in rows] == ["ended", "timed_out"]  # bob never came: the clock ran both his deals
    lines = replays(api, tid)
    assert [(line["player"], line["deal"], line["status"]) for line in lines] == [
        ("ann", 1, "ended"),
        ("ann", 2, "timed_out"),
        ("bob", 1, "timed_out"),
        ("bob", 2, "timed_out"),
    ]
    report = verify(server.url, tid)
    assert report.ok, report.problems


async def test_one_deal_is_as_before(api: Api, server: Any) -> None:
    tour = api.create_tournament(name=unique("one"), seed="single", suits=2, time_limit=600)
    _, token = api.register("solo")
    entry = api.join(tour["id"], token)
    solo, state = await Player.connect(server.ws_url, entry["id"], token)
    assert not {"deal", "deals", "total"} & set(state)
    started = await solo.start()
    assert started["view"]["columns"] == view_of(tour["settings"], "single", 1)
    await solo.play(END)
    over = await solo.recv()
    assert over["type"] == "over" and not {"deal", "deals", "total"} & set(over)
    await solo.close()
    finish(api, tour["id"])
    (line,) = replays(api, tour["id"])
    assert "deal" not in line and line["seed"] == "single"
    (standing,) = api.http.get(f"/api/tournaments/{tour['id']}/standings").json()
    assert "matchpoints" not in standing and standing["score"] == over["final_score"]
