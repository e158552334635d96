"""A tournament that starts together: entries until the opening time, then every game started at once by
the server, connected or not, in one sitting that ends at opens_at + time_limit."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from spidertour.server.cli.verify import verify
from tests.client import Api, Player, bearer

TIME_LIMIT = 3


def together(api: Api, name: str, opens_in: float, **fields: Any) -> Any:
    settings = {"variant": "spider78", "suits": 2, "time_limit": TIME_LIMIT}
    body = {
        "name": name,
        "start": "together",
        "settings": settings,
        "opens_at": (datetime.now(UTC) + timedelta(seconds=opens_in)).isoformat(),
        **fields,
    }
    return api.http.post("/api/tournaments", json=body, headers=api.admin())


def test_creating_a_together_tournament(api: Api) -> None:
    r = together(api, "together", 60)
    assert r.status_code == 201, r.text
    tour = r.json()
    assert tour["start"] == "together" and tour["status"] == "scheduled"
    opens, closes = datetime.fromisoformat(tour["opens_at"]), datetime.fromisoformat(tour["closes_at"])
    assert closes - opens == timedelta(seconds=TIME_LIMIT)  # one sitting
    own = api.create_tournament(name="own start")
    assert own["start"] == "own"
    with_close = together(api, "with a close", 60, closes_at=(datetime.now(UTC) + timedelta(hours=1)).isoformat())
    assert with_close.status_code == 400 and "leave closes_at out" in with_close.json()["detail"]
    past = together(api, "in the past", -5)
    assert past.status_code == 400 and "opens in the future" in past.json()["detail"]
    bad = api.http.post("/api/tournaments", headers=api.admin(), json={"name": "x", "start": "whenever"})
    assert bad.status_code == 400 and "start" in bad.text


async def test_every_game_starts_at_once_and_late_entries_are_refused(api: Api, server: Any, database_url: str) -> None:
    r = together(api, "one sitting", 2.5)
    assert r.status_code == 201, r.text
    tour = r.json()
    tid = tour["id"]
    opens_at = datetime.fromisoformat(tour["opens_at"])
    players = {name: api.register(name) for name in ("ann", "bob", "cat")}
    entries = {name: api.join(tid, players[name][1]) for name in ("ann", "bob")}  # while scheduled

    # ann waits on the play socket; bob never connects.
    ann, state = await Player.connect(server.ws_url, entries["ann"]["id"], players["ann"][1])
    assert state["status"] == "joined" and state["view"] is None
    assert datetime.fromisoformat(state["starts_at"]) == opens_at
    early = await ann.start()
    assert early["type"] == "error" and early["code"] == "starts_together" and "starts together" in early["reason"]

    # At the opening time the server starts ann's game unasked.
    started = await ann.recv(timeout=10)
    assert started["type"] == "state" and started["status"] == "playing" and started["view"] is not None
    assert datetime.fromisoformat(started["started_at"]) == opens_at
    assert datetime.now(UTC) >= opens_at
    assert started["starts_at"] is None

    late = api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(players["cat"][1]))
    assert late.status_code == 409
    assert "started together" in late.json()["detail"] and "entries were taken until then" in late.json()["detail"]

    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch("SELECT id, status, started_at, deadline FROM entries WHERE tournament_id = $1", tid)
        closes = await conn.fetchval("SELECT closes_at FROM tournaments WHERE id = $1", tid)
    finally:
        await conn.close()
    assert len(rows) == 2 and {r["status"] for r in rows} == {"playing"}  # bob's too, though he never came
    assert {r["started_at"] for r in rows} == {opens_at} and {r["deadline"] for r in rows} == {closes}

    moved = await ann.play({"type": "move", "from": 0, "count": 1, "to": 8})
    assert moved["type"] == "result"
    await ann.close()

    deadline = time.monotonic() + TIME_LIMIT + 8
    while (now := api.tournament(tid))["status"] != "finished":
        assert time.monotonic() < deadline, f"still {now['status']}"
        await asyncio.sleep(0.1)
    standings = {s["player"]: s for s in api.http.get(f"/api/tournaments/{tid}/standings").json()}
    assert standings["bob"]["status"] == "timed_out" and standings["bob"]["score"] == 0  # a game that timed out
    assert standings["ann"]["status"] == "timed_out" and standings["ann"]["score"] == moved["view"]["score"]
    report = verify(server.url, tid)
    assert report.ok, report.problems


def test_an_edit_does_not_move_the_opening_into_the_past(api: Api) -> None:
    """Creation refuses an opening in the past; so does an edit (else every entrant would time out at once)."""
    r = together(api, "moved back", 600)
    assert r.status_code == 201, r.text
    tour = r.json()
    _, token = api.register("early bird")
    api.join(tour["id"], token)
    for seconds in (-60, 0):
        opens_at = (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()
        moved = api.http.patch(f"/api/tournaments/{tour['id']}", json={"opens_at": opens_at}, headers=api.admin())
        assert moved.status_code == 400 and "opens in the future" in moved.json()["detail"], moved.text
    after = api.tournament(tour["id"])
    assert after["status"] == "scheduled" and after["opens_at"] == tour["opens_at"]
    later = (datetime.now(UTC) + timedelta(seconds=900)).isoformat()
    moved = api.http.patch(f"/api/tournaments/{tour['id']}", json={"opens_at": later}, headers=api.admin())
    assert moved.status_code == 200, moved.text
    assert datetime.fromisoformat(moved.json()["closes_at"]) - datetime.fromisoformat(later) == timedelta(
        seconds=TIME_LIMIT
    )
