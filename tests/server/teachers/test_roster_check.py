"""A roster checked first (?check=true): the same checks as making it, every bad line at once or how
many lines are fine, and nothing created either way; then made in parts, each part checked again."""

from __future__ import annotations

from typing import Any

from tests.client import Api, bearer
from tests.server.communities.kit import account, account_organiser, count, new_club, new_organiser
from tests.server.helpers import assert_error

PLAYERS = "SELECT count(*) FROM players"
MEMBERS = "SELECT count(*) FROM club_members WHERE club_id = $1"


def post_csv(api: Api, token: str, club_id: int, text: str, check: bool = True) -> Any:
    return api.http.post(
        f"/api/clubs/{club_id}/roster",
        params={"check": "true"} if check else None,
        content=text.encode(),
        headers={**bearer(token), "content-type": "text/csv"},
        timeout=60,
    )


async def test_a_checked_roster_names_every_bad_line_and_creates_nothing(api: Api, database_url: str) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school)
    _, taken_token = await account(api, database_url, "taken")
    taken = api.http.get("/api/me", headers=bearer(taken_token)).json()["handle"]
    text = "\n".join(["name,handle", "Ann,", f"Bo,{taken}", "Cy,ab", "  ,", "Di,dup-c1", "Ed,dup-c1", ""])
    before = await count(database_url, PLAYERS)
    checked = assert_error(post_csv(api, school, club["id"], text), 400, "nothing was created")
    made = assert_error(post_csv(api, school, club["id"], text, check=False), 400, "nothing was created")
    # The very answer making it would give.
    assert checked["extra"]["lines"] == made["extra"]["lines"]
    assert [x["line"] for x in checked["extra"]["lines"]] == [2, 3, 4, 6]
    assert "taken" in checked["extra"]["lines"][0]["reason"]
    assert await count(database_url, PLAYERS) == before

    # Fixed: 200, how many lines are fine, and still nothing created.
    fixed = "name,handle\nAnn,\nBo,\nCy,cy-c1\nDi,dup-c1\n"
    r = post_csv(api, school, club["id"], fixed)
    assert r.status_code == 200, r.text
    assert r.json() == {"lines": 4, "created": 0}
    assert r.headers["cache-control"] == "no-store"
    assert await count(database_url, PLAYERS) == before
    assert await count(database_url, MEMBERS, club["id"]) == 0
    # Then made (check=false is making it, as no parameter is).
    r = post_csv(api, school, club["id"], fixed, check=False)
    assert r.status_code == 201, r.text
    assert len(r.json()["members"]) == 4
    assert await count(database_url, MEMBERS, club["id"]) == 4
    # The same file again: its handles are taken now, and the check says so.
    again = assert_error(post_csv(api, school, club["id"], fixed), 400, "taken")
    assert [x["line"] for x in again["extra"]["lines"]] == [3, 4]


async def test_names_checked_by_an_organiser_account_then_made_in_parts(api: Api, database_url: str) -> None:
    _, _, session = account_organiser(api, "Ms Rivera")
    club = new_club(api, session, "Class 6C")
    names = [f"Pupil {n}" for n in range(1, 46)]
    url = f"/api/clubs/{club['id']}/roster"
    r = api.http.post(
        url, params={"check": "true"}, json={"names": [*names[:3], " ", "x" * 41]}, headers=bearer(session)
    )
    assert [x["line"] for x in assert_error(r, 400)["extra"]["lines"]] == [4, 5]
    r = api.http.post(url, params={"check": "true"}, json={"names": names}, headers=bearer(session))
    assert r.status_code == 200 and r.json() == {"lines": 45, "created": 0}, r.text
    assert await count(database_url, MEMBERS, club["id"]) == 0
    made = []
    for start in range(0, len(names), 20):
        r = api.http.post(url, json={"names": names[start : start + 20]}, headers=bearer(session), timeout=60)
        assert r.status_code == 201, r.text
        made += r.json()["members"]
    assert [m["name"] for m in made] == names
    assert len({m["handle"] for m in made}) == 45
    assert await count(database_url, MEMBERS, club["id"]) == 45


async def test_only_the_club_s_organisers_check_its_roster(api: Api) -> None:
    _, school = new_organiser(api, "school")
    _, other = new_organiser(api, "other")
    club = new_club(api, school)
    _, player = api.register("pupil")
    url = f"/api/clubs/{club['id']}/roster"
    assert_error(api.http.post(url, params={"check": "true"}, json={"names": ["Ann"]}), 401)
    assert_error(api.http.post(url, params={"check": "true"}, json={"names": ["Ann"]}, headers=bearer(other)), 403)
    assert_error(api.http.post(url, params={"check": "true"}, json={"names": ["Ann"]}, headers=bearer(player)), 403)
    r = api.http.post(url, params={"check": "maybe"}, json={"names": ["Ann"]}, headers=bearer(school))
    assert_error(r, 400)
