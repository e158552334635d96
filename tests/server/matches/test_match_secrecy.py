"""Secrecy until a match is over: nothing open to others (routes, lists, profiles, exports, the watch
socket, an opponent's own play socket) shows a seat's score, time, moves or board, nor the seed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from tests.client import Api, Player, bearer
from tests.server.helpers import fetch
from tests.serverproc import ServerProcess

from .kit import ask, play, players, wait_for

SECRET_KEYS = {"score", "final_score", "time_left", "moves", "columns", "board", "seed", "salt", "rank"}


def secrets_in(value: Any) -> list[str]:
    """Keys of a game's result or board holding a value anywhere in a JSON body."""
    found = []
    if isinstance(value, dict):
        found += [k for k, v in value.items() if k in SECRET_KEYS and v not in (None, [], {})]
        for v in value.values():
            found += secrets_in(v)
    elif isinstance(value, list):
        for v in value:
            found += secrets_in(v)
    return found


async def watch_frames(ws_url: str, tid: int) -> list[str]:
    frames = []
    async with websockets.connect(f"{ws_url}/ws/watch/{tid}") as ws:
        try:
            while True:
                frames.append(str(await asyncio.wait_for(ws.recv(), 2)))
        except (websockets.ConnectionClosed, TimeoutError):
            pass
    return frames


async def test_nothing_of_a_seat_shows_before_the_match_is_over(
    mapi: Api, match_server: ServerProcess, match_db: str
) -> None:
    (a, ta), (b, tb) = players(mapi, 2)
    host = ask(mapi, ta, "duo12")
    mid, tid, a_entry = host["match"]["id"], host["match"]["tournament_id"], host["entry"]["id"]
    over = await play(match_server.ws_url, a_entry, ta, reveal=True)  # the host's game is over
    [row] = await fetch(match_db, "SELECT seed FROM tournaments WHERE id = $1", tid)
    seed, score = row["seed"], over["final_score"]
    guest = ask(mapi, tb, "duo12")
    assert guest["match"]["id"] == mid

    public = [
        f"/api/matches/{mid}",
        "/api/matches/formats",
        "/api/tournaments",
        "/api/tournaments?status=open",
        f"/api/tournaments/{tid}",
        f"/api/tournaments/{tid}/standings",
        f"/api/tournaments/{tid}/replays",
        f"/api/tournaments/{tid}/par",
        f"/api/tournaments/{tid}/leaderboard",
        f"/api/tournaments/{tid}/leaderboard/around/{a_entry}",
        f"/api/tournaments/{tid}/teams",
        f"/api/tournaments/{tid}/standings.csv",
        f"/api/tournaments/{tid}/disqualified",
        f"/api/tournaments/{tid}/entries/{a_entry}/analysis",
        f"/api/matches/{mid}/replays",
        f"/api/players/{a}",
        f"/api/players/{b}",
        "/api/me/matches",
        "/api/me/entries",
    ]
    for path in public:
        for headers in (None, bearer(tb), mapi.admin()):
            r = mapi.http.get(path, headers=headers)
            assert seed not in r.text, path
            assert r.status_code in (200, 401, 403, 404), (path, r.status_code)
            if r.status_code == 200 and path.startswith("/api/tournaments/"):
                raise AssertionError(f"{path} shows a match's tournament before it is over")
            if r.status_code == 200 and r.headers["content-type"].startswith("application/json"):
                body = r.json()
                if path == "/api/me/entries":  # the opponent's own seat only
                    assert all(e["player_id"] == b for e in body), body
                else:
                    assert secrets_in(body) == [], (path, body)
    shown = mapi.http.get(f"/api/matches/{mid}").json()
    assert [p["status"] for p in shown["players"]] == ["done", "waiting"]
    assert mapi.http.post(f"/api/tournaments/{tid}/practice", headers=bearer(tb)).status_code == 404
    assert mapi.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(tb)).status_code == 404
    for frame in await watch_frames(match_server.ws_url, tid):
        assert seed not in frame and secrets_in(json.loads(frame)) == [], frame
    # The opponent's own play socket: its own game, nothing of the host's, no seed.
    player, first = await Player.connect(match_server.ws_url, guest["entry"]["id"], tb)
    try:
        frames = [first, await player.start(), await player.play({"type": "end"})]
        frames.append(await player.recv())
    finally:
        await player.close()
    for answer in frames:
        assert seed not in json.dumps(answer) and answer.get("player_id") in (None, b), answer
    # Once over: the seed, the results, the tournament.
    done = wait_for(mapi, mid, "over")
    assert done["seed"] == seed and done["players"][0]["final_score"] == score
    assert mapi.http.get(f"/api/tournaments/{tid}").json()["seed"] == seed
    assert seed in mapi.http.get(f"/api/matches/{mid}/replays").text
