"""Who may join and who sees a tournament: club members only, holders of an entry code, or both;
unlisted tournaments left out of the list but readable by id."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client import Api, bearer
from tests.server.helpers import assert_error, unique

from .kit import account, count, new_club, new_organiser, tournament_as

CODE = "blue-heron-7"


def joined(api: Api, tid: int, token: str, body: dict[str, Any] | None = None) -> Any:
    return api.http.post(f"/api/tournaments/{tid}/entries", json=body, headers=bearer(token))


async def club_with_member(api: Api, database_url: str) -> tuple[str, dict[str, Any], str]:
    """An organiser's token, its club, and a member's token (joined by the invite code)."""
    _, organiser = new_organiser(api)
    club = new_club(api, organiser)
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(organiser)).json()["invite"]
    _, member = await account(api, database_url)
    r = api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(member))
    assert r.status_code == 201, r.text
    return organiser, club, member


async def test_club_members_only(api: Api, database_url: str) -> None:
    organiser, club, member = await club_with_member(api, database_url)
    tour = tournament_as(api, organiser, club=club["id"])
    assert tour["club"] == {"id": club["id"], "name": club["name"]} and tour["listed"] is False
    assert tour["entry_code_needed"] is False
    _, outsider = api.register("outsider")
    assert_error(joined(api, tour["id"], outsider), 403, "club members only", club["name"])
    assert await count(database_url, "SELECT count(*) FROM entries WHERE tournament_id = $1", tour["id"]) == 0
    assert joined(api, tour["id"], member).status_code == 201


async def test_entry_code_only(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api)
    tour = tournament_as(api, organiser, entry_code=CODE)
    assert tour["entry_code"] == CODE and tour["entry_code_needed"] and tour["listed"] is False
    _, player = api.register("p")
    assert_error(joined(api, tour["id"], player), 403, "entry code needed")
    assert_error(joined(api, tour["id"], player, {"entry_code": "red-heron-7"}), 403, "wrong entry code")
    assert_error(joined(api, tour["id"], player, {"entry_code": 7}), 400)
    assert_error(joined(api, tour["id"], player, {"entry_code": CODE, "extra": 1}), 400)
    r = api.http.post(
        f"/api/tournaments/{tour['id']}/entries",
        content=b"{",
        headers={**bearer(player), "content-type": "application/json"},
    )
    assert_error(r, 400, "malformed")
    assert await count(database_url, "SELECT count(*) FROM entries WHERE tournament_id = $1", tour["id"]) == 0
    assert joined(api, tour["id"], player, {"entry_code": CODE}).status_code == 201
    # An open tournament still takes a join with no body, or an empty one.
    open_ = tournament_as(api, organiser)
    _, other = api.register("o")
    assert api.http.post(f"/api/tournaments/{open_['id']}/entries", headers=bearer(other)).status_code == 201


async def test_club_and_code_both_needed(api: Api, database_url: str) -> None:
    organiser, club, member = await club_with_member(api, database_url)
    tour = tournament_as(api, organiser, club=club["id"], entry_code=CODE)
    _, outsider = api.register("outsider")
    body = assert_error(joined(api, tour["id"], outsider, {"entry_code": CODE}), 403, "club members only")
    assert "entry code" not in body["detail"]
    assert_error(joined(api, tour["id"], outsider), 403, "club members only", "entry code needed")
    assert_error(joined(api, tour["id"], member), 403, "entry code needed")
    assert_error(joined(api, tour["id"], member, {"entry_code": CODE.upper()}), 403, "wrong entry code")
    assert joined(api, tour["id"], member, {"entry_code": CODE}).status_code == 201


async def test_the_code_is_shown_to_its_organisers_only(api: Api, database_url: str) -> None:
    organiser, club, member = await club_with_member(api, database_url)
    tour = tournament_as(api, organiser, club=club["id"], entry_code=CODE, listed=True)
    path = f"/api/tournaments/{tour['id']}"
    _, other_organiser = new_organiser(api)
    for headers in ({}, bearer(member), bearer(other_organiser), bearer("unknown")):
        seen = api.http.get(path, headers=headers).json()
        assert seen["entry_code"] is None and seen["entry_code_needed"] is True
        listed = {t["id"]: t for t in api.http.get("/api/tournaments", headers=headers).json()}
        assert listed[tour["id"]]["entry_code"] is None
    for token in (organiser, api.admin_token):
        assert api.http.get(path, headers=bearer(token)).json()["entry_code"] == CODE
        listed = {t["id"]: t for t in api.http.get("/api/tournaments", headers=bearer(token)).json()}
        assert listed[tour["id"]]["entry_code"] == CODE


async def test_unlisted_tournaments(api: Api, database_url: str) -> None:
    organiser, club, member = await club_with_member(api, database_url)
    club_only = tournament_as(api, organiser, club=club["id"])
    coded = tournament_as(api, organiser, entry_code=CODE)
    hidden = tournament_as(api, organiser, listed=False)
    public = tournament_as(api, organiser, club=club["id"], listed=True)
    ids = {club_only["id"], coded["id"], hidden["id"], public["id"]}

    def seen(headers: dict[str, str]) -> set[int]:
        return {t["id"] for t in api.http.get("/api/tournaments", params={"limit": 500}, headers=headers).json()} & ids

    _, stranger = api.register("stranger")
    _, other_organiser = new_organiser(api)
    assert seen({}) == {public["id"]}
    assert seen(bearer(stranger)) == {public["id"]}
    assert seen(bearer(other_organiser)) == {public["id"]}
    assert seen(bearer(member)) == {public["id"], club_only["id"]}
    assert seen(bearer(organiser)) == ids
    assert seen(api.admin()) == ids
    for tid in ids:  # readable by id by anyone: a link can be shared
        assert api.http.get(f"/api/tournaments/{tid}").status_code == 200
        assert api.http.get(f"/api/tournaments/{tid}/leaderboard").status_code == 200
        assert api.http.get(f"/api/tournaments/{tid}/standings").status_code == 200


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"entry_code": "abc"}, "entry_code"),
        ({"entry_code": "x" * 65}, "entry_code"),
        ({"entry_code": " padded "}, "entry code"),
        ({"entry_code": "tab\there"}, "entry code"),
        ({"club": 0}, "club"),
        ({"club": "1"}, "club"),
        ({"listed": "no"}, "listed"),
    ],
)
async def test_bad_access_fields_create_nothing(
    api: Api, database_url: str, fields: dict[str, Any], needle: str
) -> None:
    _, organiser = new_organiser(api)
    name = unique("bad")
    r = api.http.post("/api/tournaments", json={"name": name, **fields}, headers=bearer(organiser))
    assert_error(r, 400, needle)
    assert await count(database_url, "SELECT count(*) FROM tournaments WHERE name = $1", name) == 0


async def test_schedules_carry_every_setting(api: Api, database_url: str) -> None:
    from datetime import UTC, datetime, timedelta

    organiser, club, member = await club_with_member(api, database_url)
    first = (datetime.now(UTC) + timedelta(minutes=30)).replace(microsecond=0)
    body = {
        "name": unique("weekly"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 10080,
        "ahead_minutes": 60,
        "settings": {"variant": "spider78", "suits": 2, "time_limit": 300},
        "start": "together",
        "club": club["id"],
        "entry_code": CODE,
    }
    r = api.http.post("/api/schedules", json=body, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    schedule = r.json()
    assert schedule["start"] == "together" and schedule["club"]["id"] == club["id"]
    assert schedule["entry_code"] == CODE and schedule["listed"] is False and schedule["organiser"] is not None
    (tid,) = schedule["tournaments"]
    tour = api.http.get(f"/api/tournaments/{tid}", headers=bearer(organiser)).json()
    assert tour["start"] == "together" and tour["club"]["id"] == club["id"] and tour["entry_code"] == CODE
    assert tour["organiser"] == schedule["organiser"] and tour["listed"] is False
    assert tour["settings"]["time_limit"] == 300 and tour["settings"]["suits"] == 2
    assert_error(joined(api, tid, member), 403, "entry code needed")
    assert joined(api, tid, member, {"entry_code": CODE}).status_code == 201
    # A club the organiser does not organise, or certify_seconds without certified: refused.
    _, other = new_organiser(api)
    assert_error(api.http.post("/api/schedules", json=body, headers=bearer(other)), 403, "not your club")
    bad = {**body, "club": None, "certify_seconds": 5}
    assert_error(api.http.post("/api/schedules", json=bad, headers=bearer(organiser)), 400, "certified")
