"""A roster tells every bad line at once; a club's results say which pupil was disqualified."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.client import Api, bearer
from tests.server.communities.kit import account, count, new_club, new_organiser, tournament_as
from tests.server.communities.test_exports import play_one, rows_of
from tests.server.communities.test_pupils import roster, signed_in
from tests.server.helpers import assert_error, reveal_move, wait_status

SEED = "results-seed"
PLAYERS = "SELECT count(*) FROM players"


async def test_a_roster_names_every_bad_line_at_once(api: Api, database_url: str) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school)
    _, taken_token = await account(api, database_url, "taken")
    taken = api.http.get("/api/me", headers=bearer(taken_token)).json()["handle"]
    text = "\n".join(
        [
            "name,handle",
            "Ann,",  # 1: fine
            f"Bo,{taken}",  # 2: taken
            "Cy,ab",  # 3: not a handle
            "  ,",  # 4: blank
            "x" * 41 + ",",  # 5: name too long
            "Di,dup-x1",  # 6: fine
            "Ed,dup-x1",  # 7: on an earlier line
            "Fi,fi-x1,extra",  # 8: too many fields
            "",
        ]
    )
    before = await count(database_url, PLAYERS)
    r = api.http.post(
        f"/api/clubs/{club['id']}/roster", content=text.encode(), headers={**bearer(school), "content-type": "text/csv"}
    )
    body = assert_error(r, 400, "nothing was created")
    assert [(x["line"], x["reason"].split(" ")[0:2]) for x in body["extra"]["lines"]] == [
        (2, ["the", "handle"]),
        (3, ["the", "handle"]),
        (4, ["the", "line"]),
        (5, ["the", "name"]),
        (7, ["the", "handle"]),
        (8, ["3", "fields"]),
    ]
    reasons = {x["line"]: x["reason"] for x in body["extra"]["lines"]}
    assert "taken" in reasons[2] and "3-24" in reasons[3] and "blank" in reasons[4] and "earlier line" in reasons[7]
    assert body["extra"]["line"] == 2 and body["extra"]["reason"] == reasons[2]
    for n in (2, 3, 4, 5, 7, 8):
        assert f"line {n}:" in body["detail"]
    assert "line 1:" not in body["detail"] and "line 6:" not in body["detail"]
    assert await count(database_url, PLAYERS) == before
    # JSON names likewise.
    r = api.http.post(f"/api/clubs/{club['id']}/roster", json={"names": ["ok", " ", "x" * 41]}, headers=bearer(school))
    assert [x["line"] for x in assert_error(r, 400)["extra"]["lines"]] == [2, 3]


async def test_a_club_s_results_say_who_was_disqualified(api: Api, server: Any) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school, "Class 4B")
    ann, bo, cy = roster(api, school, club["id"], "Ann", "Bo", "Cy")
    closes = (datetime.now(UTC) + timedelta(seconds=4)).isoformat()
    tid = tournament_as(
        api, school, club=club["id"], seed=SEED, settings={"variant": "spider78", "suits": 2}, closes_at=closes
    )["id"]
    await play_one(api, server.ws_url, tid, signed_in(api, ann), [reveal_move(SEED), {"type": "end"}])
    bo_entry = api.join(tid, signed_in(api, bo))
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{bo_entry['id']}/disqualify",
        json={"reason": "played for a friend"},
        headers=bearer(school),
    )
    assert r.status_code == 200, r.text
    wait_status(api, tid, "finished", 20)
    header, rows = rows_of(api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(school)).text)
    assert header[-1] == "disqualified"
    by_player = {row["player"]: row for row in rows}
    assert by_player["Ann"]["rank"] == "1" and by_player["Ann"]["disqualified"] == ""
    assert by_player["Bo"]["rank"] == "" and by_player["Bo"]["disqualified"] == "played for a friend"
    assert by_player["Bo"]["tournament_id"] == str(tid)
    assert by_player["Cy"]["tournament_id"] == "" and by_player["Cy"]["disqualified"] == ""
    assert cy["player_id"] == int(by_player["Cy"]["player_id"])
