"""An unlisted tournament is readable by its link but named in no list a stranger reads: not in a
player's profile, not in a series. Tried as a stranger would, against a real server; its organisers
and its club's members still see it."""

from __future__ import annotations

from typing import Any

from tests.client import Api, bearer
from tests.server.communities.kit import account, new_club, new_organiser, tournament_as
from tests.server.helpers import unique, wait_status


def finished(api: Api, organiser: str, tokens: list[str], **fields: Any) -> int:
    """A tournament the players joined (and never started), closed and finished: its id."""
    tid: int = tournament_as(api, organiser, **fields)["id"]
    body = {"entry_code": fields["entry_code"]} if "entry_code" in fields else None
    for token in tokens:
        r = api.http.post(f"/api/tournaments/{tid}/entries", json=body, headers=bearer(token))
        assert r.status_code == 201, r.text
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(organiser))
    assert r.status_code == 200, r.text
    wait_status(api, tid, "finished", 15)
    return tid


async def test_unlisted_tournaments_are_in_no_profile_or_series_a_stranger_reads(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api, "club runner")
    club = new_club(api, organiser, "Quiet club")
    player_id, player = await account(api, database_url, "Pat")  # an account: its profile is public
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(organiser)).json()["invite"]
    r = api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(player))
    assert r.status_code == 201, r.text
    _, member = await account(api, database_url, "Mo")
    r = api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(member))
    assert r.status_code == 201, r.text
    _, stranger = await account(api, database_url, "Stranger")
    _, other_organiser = new_organiser(api, "someone else")
    r = api.http.post("/api/series", json={"name": unique("open season")}, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    series = r.json()

    listed = finished(api, organiser, [player], series=series["id"])
    hidden = finished(api, organiser, [player], club=club["id"], series=series["id"])  # a club's: unlisted
    coded = finished(api, organiser, [player], entry_code="secret-door", series=series["id"])  # unlisted too
    assert api.tournament(hidden)["listed"] is False and api.tournament(coded)["listed"] is False

    strangers = [{}, bearer(stranger), bearer(other_organiser), bearer("not-a-token")]
    for headers in strangers:
        recent = api.http.get(f"/api/players/{player_id}", headers=headers).json()["recent"]
        assert [r["tournament_id"] for r in recent] == [listed], headers
        one = api.http.get(f"/api/series/{series['id']}", headers=headers).json()
        assert one["tournaments"] == [listed], headers
        every = api.http.get("/api/series", headers=headers).json()
        assert [s["tournaments"] for s in every if s["id"] == series["id"]] == [[listed]], headers
        listing = api.http.get("/api/tournaments?status=finished&limit=500", headers=headers).json()
        assert {hidden, coded}.isdisjoint(t["id"] for t in listing)
        # Its link still works.
        assert api.http.get(f"/api/tournaments/{hidden}", headers=headers).status_code == 200
    # The series' table still counts every result.
    table = api.http.get(f"/api/series/{series['id']}/standings").json()
    assert [(line["player_id"], line["played"]) for line in table] == [(player_id, 3)]

    # Its organisers and the player see all three; the club's members see the club's.
    for token, seen in ((organiser, [coded, hidden, listed]), (player, [coded, hidden, listed])):
        recent = api.http.get(f"/api/players/{player_id}", headers=bearer(token)).json()["recent"]
        assert [r["tournament_id"] for r in recent] == seen
    recent = api.http.get(f"/api/players/{player_id}", headers=bearer(member)).json()["recent"]
    assert [r["tournament_id"] for r in recent] == [hidden, listed]
    assert api.http.get(f"/api/series/{series['id']}", headers=bearer(organiser)).json()["tournaments"] == [
        listed,
        hidden,
        coded,
    ]
    assert api.http.get(f"/api/series/{series['id']}", headers=bearer(member)).json()["tournaments"] == [
        listed,
        hidden,
    ]
    assert len(api.http.get(f"/api/series/{series['id']}", headers=api.admin()).json()["tournaments"]) == 3
