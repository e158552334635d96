"""Exports as CSV: a tournament's standings (public once finished, live for its organisers) and a
club's results."""

from __future__ import annotations

import csv
import hashlib
import io
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from tests.client import Api, Player, bearer
from tests.server.helpers import assert_error, reveal_move

from .kit import new_club, new_organiser, tournament_as

SEED = "export-seed"
COLUMNS = [
    "rank",
    "player",
    "handle",
    "club",
    "score",
    "free_column_bonus",
    "time_bonus",
    "final_score",
    "outcome",
    "moves",
    "time_left",
]


def rows_of(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    return list(reader.fieldnames or []), rows


def wait_finished(api: Api, tid: int) -> None:
    deadline = time.monotonic() + 15
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline, "never finished"
        time.sleep(0.2)


async def play_one(api: Api, ws_url: str, tid: int, token: str, moves: list[dict[str, Any]]) -> None:
    entry = api.join(tid, token)
    player, _ = await Player.connect(ws_url, entry["id"], token)
    await player.start()
    for move in moves:
        await player.play(move)
    await player.close()


async def test_standings_csv_matches_the_json_standings(api: Api, server: Any) -> None:
    _, organiser = new_organiser(api)
    club = new_club(api, organiser, "Exporters")
    now = datetime.now(UTC)
    tour = tournament_as(
        api,
        organiser,
        seed=SEED,
        settings={"variant": "spider78", "suits": 2},
        closes_at=(now + timedelta(seconds=4)).isoformat(),
    )
    tid = tour["id"]
    path = f"/api/tournaments/{tid}/standings.csv"
    _, first = api.register("First, the one")
    await play_one(api, server.ws_url, tid, first, [reveal_move(SEED), {"type": "end"}])
    _, second = api.register("Second")
    await play_one(api, server.ws_url, tid, second, [{"type": "end"}])
    _, third = api.register("Third")
    api.join(tid, third)  # never starts: absent at the finish

    # Live: its organisers (and the owner) only.
    assert_error(api.http.get(path), 403, "finished")
    _, other = new_organiser(api)
    assert_error(api.http.get(path, headers=bearer(other)), 403, "not your tournament")
    live = api.http.get(path, headers=bearer(organiser))
    assert live.status_code == 200, live.text
    assert rows_of(live.text)[0] == COLUMNS and len(rows_of(live.text)[1]) == 3

    wait_finished(api, tid)
    r = api.http.get(path)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == f'attachment; filename="tournament-{tid}-standings.csv"'
    header, rows = rows_of(r.text)
    assert header == COLUMNS
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [(int(c["rank"]), c["player"], int(c["final_score"])) for c in rows] == [
        (s["rank"], s["player"], s["score"]) for s in standings
    ]
    assert [c["outcome"] for c in rows] == [s["status"] for s in standings]
    assert [int(c["time_left"]) for c in rows] == [s["time_left"] for s in standings]
    top = rows[0]
    assert top["player"] == "First, the one" and top["score"] == "25" and top["moves"] == "2"
    assert int(top["score"]) + int(top["free_column_bonus"]) + int(top["time_bonus"]) == int(top["final_score"])
    assert all(c["club"] == "" and c["handle"] == "" for c in rows)
    assert_error(api.http.get("/api/tournaments/999999999/standings.csv"), 404)
    # A club's organiser exports its members' results in the club's tournaments.
    results = api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(organiser))
    assert results.status_code == 200 and rows_of(results.text)[1] == [], results.text
    assert_error(api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(other)), 403, "not your club")
    assert_error(api.http.get(f"/api/clubs/{club['id']}/results.csv"), 401)


async def test_a_club_s_results(api: Api, server: Any) -> None:
    _, organiser = new_organiser(api)
    club = new_club(api, organiser, "Results club")
    r = api.http.post(
        f"/api/clubs/{club['id']}/roster", json={"names": ["Ann", "Bo"]}, headers=bearer(organiser), timeout=60
    )
    assert r.status_code == 201, r.text
    ann, bo = r.json()["members"]
    # Ann plays with a token made for her here (as her sign-in with her code would give her one).
    token = secrets.token_urlsafe(32)
    conn = await asyncpg.connect(server.database_url)
    try:
        await conn.execute(
            "UPDATE players SET token_hash = $2 WHERE id = $1",
            ann["player_id"],
            hashlib.sha256(token.encode()).digest(),
        )
        await conn.execute(
            "INSERT INTO sessions (player_id, token_hash) VALUES ($1, $2)",
            ann["player_id"],
            hashlib.sha256(token.encode()).digest(),
        )
    finally:
        await conn.close()
    tour = tournament_as(
        api,
        organiser,
        club=club["id"],
        seed=SEED,
        settings={"variant": "spider78", "suits": 2},
        closes_at=(datetime.now(UTC) + timedelta(seconds=3)).isoformat(),
    )
    await play_one(api, server.ws_url, tour["id"], token, [reveal_move(SEED), {"type": "end"}])
    wait_finished(api, tour["id"])
    r = api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(organiser))
    assert r.status_code == 200, r.text
    header, rows = rows_of(r.text)
    assert header[:3] == ["player_id", "tournament_id", "tournament"] and "final_score" in header
    by_player = {row["player"]: row for row in rows}
    assert by_player["Ann"]["tournament_id"] == str(tour["id"]) and by_player["Ann"]["rank"] == "1"
    assert by_player["Ann"]["handle"] == ann["handle"] and by_player["Ann"]["score"] == "25"
    assert by_player["Bo"]["tournament_id"] == "" and by_player["Bo"]["handle"] == bo["handle"]
    standings = api.http.get(f"/api/tournaments/{tour['id']}/standings.csv").text
    assert rows_of(standings)[1][0]["club"] == club["name"]
