"""Joining tournaments, my entries, standings and replays over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.client import Api, Player, bearer
from tests.server.helpers import assert_error, unique, wait_status

# ----------------------------------------------------------------------------- entries


def test_joining(api: Api) -> None:
    tour = api.create_tournament(name="join")
    pid, token = api.register("joiner")
    path = f"/api/tournaments/{tour['id']}/entries"
    assert_error(api.http.post(path), 401, "bearer")
    assert_error(api.http.post(path, headers=bearer("no-such-token")), 401, "unknown player token")
    assert_error(api.http.post(path, headers=api.admin()), 401, "unknown player token")
    r = api.http.post(path, headers=bearer(token))
    assert r.status_code == 201, r.text
    assert token not in r.text
    entry = r.json()
    assert entry["tournament_id"] == tour["id"] and entry["player_id"] == pid and entry["player"] == "joiner"
    assert entry["status"] == "joined" and entry["score"] == 0 and entry["final_score"] is None
    assert entry["started_at"] is None and entry["deadline"] is None
    assert_error(api.http.post(path, headers=bearer(token)), 409, "already")
    assert api.tournament(tour["id"])["entrants"] == 1
    assert_error(api.http.post("/api/tournaments/987654321/entries", headers=bearer(token)), 404)


def test_joining_a_scheduled_tournament_is_refused(api: Api) -> None:
    tour = api.create_tournament(name="not yet", opens_in=3600, closes_in=7200)
    _, token = api.register("early")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(token)), 409, "scheduled")
    assert api.tournament(tour["id"])["entrants"] == 0


async def test_joining_a_closing_tournament_is_refused(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="closing soon", closes_in=1.5, time_limit=600)
    _, first = api.register("in-time")
    entry = api.join(tour["id"], first)
    player, _ = await Player.connect(server.ws_url, entry["id"], first)
    assert (await player.start())["status"] == "playing"
    await asyncio.to_thread(wait_status, api, tour["id"], "closing")
    _, late = api.register("too-late")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(late)), 409, "closing")
    assert api.tournament(tour["id"])["entrants"] == 1
    assert (await player.play({"type": "end"}))["type"] == "result"
    await player.close()
    finished = await asyncio.to_thread(wait_status, api, tour["id"], "finished")
    assert finished["seed"] is not None


def test_joining_a_finished_tournament_is_refused(api: Api) -> None:
    seed = unique("short")
    tour = api.create_tournament(name="over quickly", seed=seed, closes_in=0.3)
    finished = wait_status(api, tour["id"], "finished")
    assert finished["seed"] == seed and finished["finished_at"] is not None
    _, token = api.register("after")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(token)), 409, "finished")
    r = api.http.get(f"/api/tournaments/{tour['id']}/replays")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert r.text == ""
    assert api.http.get(f"/api/tournaments/{tour['id']}/standings").json() == []


def test_my_entries_show_only_the_callers(api: Api) -> None:
    one = api.create_tournament(name="mine-1")
    two = api.create_tournament(name="mine-2")
    pid, token = api.register("me")
    qid, other = api.register("someone else")
    e1 = api.join(one["id"], token)
    e2 = api.join(two["id"], token)
    q1 = api.join(one["id"], other)
    mine = api.http.get("/api/me/entries", headers=bearer(token))
    assert mine.status_code == 200
    assert [e["id"] for e in mine.json()] == [e2["id"], e1["id"]]  # newest first
    assert [e["tournament"] for e in mine.json()] == ["mine-2", "mine-1"]  # named, for a list to show
    assert all(e["player_id"] == pid for e in mine.json())
    theirs = api.http.get("/api/me/entries", headers=bearer(other)).json()
    assert [e["id"] for e in theirs] == [q1["id"]] and theirs[0]["player_id"] == qid
    assert_error(api.http.get("/api/me/entries"), 401, "bearer")
    assert_error(api.http.get("/api/me/entries", headers=bearer("nobody")), 401, "unknown player token")


# ----------------------------------------------------------------------------- standings and replays


async def test_standings(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="standings", seed="standings-seed", variant="spider78", suits=2)
    _, idle = api.register("idle")
    idle_entry = api.join(tour["id"], idle)
    _, busy = api.register("busy")
    busy_entry = api.join(tour["id"], busy)
    player, _ = await Player.connect(server.ws_url, busy_entry["id"], busy)
    await player.start()
    answer = await player.play({"type": "move", "from": 0, "count": 1, "to": 8})  # onto the free column
    assert answer["type"] == "result" and answer["view"]["score"] == 25
    await player.close()
    r = api.http.get(f"/api/tournaments/{tour['id']}/standings")
    assert r.status_code == 200
    rows = r.json()
    assert [(s["rank"], s["entry_id"], s["score"], s["status"]) for s in rows] == [
        (1, busy_entry["id"], 25, "playing"),
        (2, idle_entry["id"], 0, "joined"),
    ]
    assert rows[0]["player"] == "busy" and rows[1]["player"] == "idle"
    page = api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"offset": 1, "limit": 1}).json()
    assert [s["entry_id"] for s in page] == [idle_entry["id"]]
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"limit": 0}), 400, "limit")
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"offset": -1}), 400, "offset")
    assert_error(api.http.get("/api/tournaments/987654321/standings"), 404)


def test_replays_are_refused_before_the_finish(api: Api) -> None:
    for tour in (
        api.create_tournament(name="replays open"),
        api.create_tournament(name="replays scheduled", opens_in=3600, closes_in=7200),
    ):
        assert_error(api.http.get(f"/api/tournaments/{tour['id']}/replays"), 403, "finished")
    assert_error(api.http.get("/api/tournaments/987654321/replays"), 404)
