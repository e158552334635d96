"""A class's progress (GET /api/clubs/{id}/progress): the figures of a small class worked out by
hand from the games its pupils played."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from spidertour.server.competitions.rating_scale import shown
from tests.client import Api, bearer
from tests.server.communities.kit import new_club, new_organiser, tournament_as
from tests.server.communities.test_exports import play_one
from tests.server.communities.test_pupils import roster, signed_in
from tests.server.helpers import assert_error, reveal_move, wait_status

SEED = "progress-seed"


async def ratings_of(database_url: str, *player_ids: int) -> dict[int, float]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            """SELECT player_id, mu - 3 * sigma AS ordinal FROM ratings
                WHERE player_id = ANY($1) AND game = 'spider78/2'""",
            list(player_ids),
        )
    finally:
        await conn.close()
    return {r["player_id"]: round(r["ordinal"], 2) for r in rows}


async def shown_ratings(database_url: str, *player_ids: int) -> dict[int, dict[str, Any]]:
    """The ratings as shown (1,000 for a new player), rated within the 30 days: the change from 1,000."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT player_id, mu - 3 * sigma AS ordinal FROM ratings"
            " WHERE player_id = ANY($1) AND game = 'spider78/2'",
            list(player_ids),
        )
    finally:
        await conn.close()
    return {
        r["player_id"]: {"shown": shown(r["ordinal"]), "shown_change": shown(r["ordinal"]) - 1000, "provisional": True}
        for r in rows
    }


unshown = {"shown": None, "shown_change": None, "provisional": False}


async def test_a_small_class_s_progress(api: Api, server: Any, database_url: str) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school, "Class 4B")
    ann, bo, cy = roster(api, school, club["id"], "Ann Smith", "Bo Jones", "Cy Lee")
    ann_token, bo_token = signed_in(api, ann), signed_in(api, bo)
    closes = (datetime.now(UTC) + timedelta(seconds=6)).isoformat()
    two_suits = {"variant": "spider78", "suits": 2}
    first = tournament_as(api, school, club=club["id"], seed=SEED, settings=two_suits, closes_at=closes)["id"]
    second = tournament_as(api, school, club=club["id"], settings=two_suits, closes_at=closes)["id"]
    one_suit = tournament_as(api, school, club=club["id"], settings={**two_suits, "suits": 1}, closes_at=closes)["id"]
    # First: Ann reveals a card (25) and ends, Bo ends (0): a rated tournament of two who played.
    await play_one(api, server.ws_url, first, ann_token, [reveal_move(SEED), {"type": "end"}])
    await play_one(api, server.ws_url, first, bo_token, [{"type": "end"}])
    # Second: Ann ends at once (0), her last game; Bo plays and is disqualified (not counted).
    await play_one(api, server.ws_url, second, ann_token, [{"type": "end"}])
    await play_one(api, server.ws_url, second, bo_token, [{"type": "end"}])
    bo_second = api.http.get(f"/api/tournaments/{second}/entries", headers=bearer(school)).json()[-1]["id"]
    r = api.http.post(
        f"/api/tournaments/{second}/entries/{bo_second}/disqualify", json={"reason": "x"}, headers=bearer(school)
    )
    assert r.status_code == 200, r.text
    # One suit: Bo alone (unrated: one player).
    await play_one(api, server.ws_url, one_suit, bo_token, [{"type": "end"}])
    for tid in (first, second, one_suit):
        wait_status(api, tid, "finished", 25)

    rated = await ratings_of(database_url, ann["player_id"], bo["player_id"])
    said = await shown_ratings(database_url, ann["player_id"], bo["player_id"])
    assert rated[ann["player_id"]] > rated[bo["player_id"]]
    r = api.http.get(f"/api/clubs/{club['id']}/progress", headers=bearer(school))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["club_id"] == club["id"]
    members = {m["name"]: m for m in got["members"]}
    assert list(members) == ["Ann Smith", "Bo Jones", "Cy Lee"]
    # Rated first within the 30 days: the change is the rating less the starting 0 (25 - 3 x 25/3).
    a, b = rated[ann["player_id"]], rated[bo["player_id"]]
    assert members["Ann Smith"]["played"] == 2 and members["Ann Smith"]["games"] == [
        {
            "game": "spider78/2",
            "played": 2,
            "best": 25,
            "last": 0,
            "rating": a,
            "rating_change": a,
            **said[ann["player_id"]],
        }
    ]
    assert members["Bo Jones"]["played"] == 2 and members["Bo Jones"]["games"] == [
        {"game": "spider78/1", "played": 1, "best": 0, "last": 0, "rating": None, "rating_change": None, **unshown},
        {
            "game": "spider78/2",
            "played": 1,
            "best": 0,
            "last": 0,
            "rating": b,
            "rating_change": b,
            **said[bo["player_id"]],
        },
    ]
    assert members["Cy Lee"] == {
        "player_id": cy["player_id"],
        "name": "Cy Lee",
        "handle": cy["handle"],
        "played": 0,
        "last_seen": None,
        "games": [],
    }
    seen = datetime.fromisoformat(members["Ann Smith"]["last_seen"])
    assert timedelta(0) <= datetime.now(UTC) - seen < timedelta(minutes=2)

    text = api.http.get(f"/api/clubs/{club['id']}/progress?format=csv", headers=bearer(school)).text
    lines = [
        (r["name"], r["game"], r["played"], r["best"], r["last"], r["rating"], r["rating_change_30d"])
        for r in csv.DictReader(io.StringIO(text))
    ]
    assert lines == [
        ("Ann Smith", "spider78/2", "2", "25", "0", str(a), str(a)),
        ("Bo Jones", "spider78/1", "1", "0", "0", "", ""),
        ("Bo Jones", "spider78/2", "1", "0", "0", str(b), str(b)),
        ("Cy Lee", "", "0", "", "", "", ""),
    ]

    # The rated tournament 40 days ago: the ratings stay, their change over 30 days is none.
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("UPDATE tournaments SET finished_at = now() - interval '40 days' WHERE id = $1", first)
    finally:
        await conn.close()
    members = {
        m["name"]: m
        for m in api.http.get(f"/api/clubs/{club['id']}/progress", headers=bearer(school)).json()["members"]
    }
    assert members["Ann Smith"]["games"][0]["rating"] == a and members["Ann Smith"]["games"][0]["rating_change"] == 0
    assert members["Bo Jones"]["games"][1]["rating_change"] == 0


def test_only_the_club_s_organisers_read_it(api: Api) -> None:
    _, school = new_organiser(api, "school")
    _, other = new_organiser(api, "other")
    club = new_club(api, school)
    (ann,) = roster(api, school, club["id"], "Ann Smith")
    path = f"/api/clubs/{club['id']}/progress"
    assert_error(api.http.get(path, headers=bearer(other)), 403, "not your club")
    assert_error(api.http.get(path, headers=bearer(signed_in(api, ann))), 403)
    assert_error(api.http.get(path), 401)
    assert_error(api.http.get("/api/clubs/999999999/progress", headers=bearer(school)), 404)
    assert_error(api.http.get(f"{path}?format=xml", headers=bearer(school)), 400)
    assert api.http.get(path, headers=api.admin()).status_code == 200
