"""The live board's rows name their players' ids (a public profile's), for links to the profiles:
kept in Redis once, when the entry is made, never written by a move; read with the rows."""

from __future__ import annotations

import json
import time
from typing import Any

from redis.asyncio import Redis

from spidertour.engine import Game, Settings
from tests.client import Api, Player, bearer
from tests.server.helpers import next_update, watcher
from tests.server.watch.test_leaderboard import play_some
from tests.serverproc import ServerProcess

SEED = "board-players"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1}


def board(api: Api, tid: int, **params: Any) -> list[dict[str, Any]]:
    answer = api.http.get(f"/api/tournaments/{tid}/leaderboard", params=params)
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()["rows"]
    return rows


async def test_live_rows_carry_the_player_id_written_once_at_the_entry(
    api: Api, server: ServerProcess, redis_url: str, redis_prefix: str
) -> None:
    tour = api.create_tournament(name="players' ids", seed=SEED, **SETTINGS)
    tid = tour["id"]
    ws, snapshot = await watcher(server.ws_url, tid)
    assert snapshot["top"] == []
    public_id, public_token = api.register("shown-player")
    private_id, private_token = api.register("private-player")
    hidden = api.http.patch("/api/me/profile", json={"public": False}, headers=bearer(private_token))
    assert hidden.status_code == 200, hidden.text
    entry = api.join(tid, public_token)
    other = api.join(tid, private_token)

    # The entry's own update carries the id; the private profile's none.
    seen: dict[int, dict[str, Any]] = {}
    while len(seen) < 2:
        update = await next_update(ws)
        seen.update({r["entry_id"]: r for r in update["changed"]})
    assert seen[entry["id"]]["player_id"] == public_id
    assert "player_id" not in seen[other["id"]]

    player, _ = await Player.connect(server.ws_url, entry["id"], public_token)
    await player.start()
    game = Game(Settings(**SETTINGS), SEED)
    await play_some(player, game, 4)
    assert game.score > 0

    redis = Redis.from_url(redis_url)
    try:
        # A move's row, as Redis holds it, has no id in it: the id lives in its own hash.
        raw = await redis.hget(f"{redis_prefix}:{{t:{tid}}}:rows", str(entry["id"]))
        assert raw is not None
        stored = json.loads(raw)
        assert stored["score"] == game.score and "player_id" not in stored
        ids = await redis.hgetall(f"{redis_prefix}:{{t:{tid}}}:players")
        assert ids == {str(entry["id"]).encode(): str(public_id).encode()}
    finally:
        await redis.aclose()

    rows = {r["entry_id"]: r for r in board(api, tid)}
    assert rows[entry["id"]]["player_id"] == public_id and rows[entry["id"]]["score"] == game.score
    assert "player_id" not in rows[other["id"]]
    assert [r.get("player_id") for r in board(api, tid, name="shown")] == [public_id]
    near = api.http.get(f"/api/tournaments/{tid}/leaderboard/around/{entry['id']}", params={"k": 0}).json()
    assert near["rows"][0]["player_id"] == public_id
    _, fresh = await watcher(server.ws_url, tid)
    assert {r["entry_id"]: r.get("player_id") for r in fresh["top"]} == {entry["id"]: public_id, other["id"]: None}

    # A board rebuilt from PostgreSQL has the ids again.
    done = api.http.post(f"/api/tournaments/{tid}/leaderboard/rebuild", headers=api.admin())
    assert done.status_code == 200, done.text
    assert {r["entry_id"]: r.get("player_id") for r in board(api, tid)} == {entry["id"]: public_id, other["id"]: None}
    assert private_id != public_id
    await ws.close()
    await player.close()


def test_finished_standings_and_series_say_whose_profile_anyone_may_read(api: Api) -> None:
    made = api.http.post("/api/organisers", json={"name": "Profiles league"}, headers=api.admin())
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    series = api.http.post("/api/series", json={"name": "Profiles"}, headers=bearer(token)).json()
    body = {"name": "Profiles final", "seed": SEED, "settings": SETTINGS, "series": series["id"]}
    tid = api.http.post("/api/tournaments", json=body, headers=bearer(token)).json()["id"]
    shown, shown_token = api.register("shown-finisher")
    kept, kept_token = api.register("private-finisher")
    assert api.http.patch("/api/me/profile", json={"public": False}, headers=bearer(kept_token)).status_code == 200
    api.join(tid, shown_token)
    api.join(tid, kept_token)
    assert api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(token)).status_code == 200
    deadline = time.monotonic() + 15
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline, "never finished"
        time.sleep(0.2)

    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert {s["player_id"]: s["profile"] for s in standings} == {shown: True, kept: False}
    assert [r.get("player_id") for r in board(api, tid)] == [shown, None]
    table = api.http.get(f"/api/series/{series['id']}/standings").json()
    assert {r["player_id"]: r["profile"] for r in table} == {shown: True, kept: False}
    # What the profile page shows a watcher for each: the public one, and "no such player" for the other.
    assert api.http.get(f"/api/players/{shown}").status_code == 200
    assert api.http.get(f"/api/players/{kept}").status_code == 404
