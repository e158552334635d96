"""GET /api/me/organised: what the caller organises, newest first, paged; never another's."""

from __future__ import annotations

from tests.client import Api, bearer
from tests.server.communities.kit import account_organiser, new_club, new_organiser, tournament_as
from tests.server.communities.test_organisers import iso
from tests.server.helpers import assert_error, unique


def test_an_organiser_sees_what_it_manages_and_nothing_else(api: Api) -> None:
    _, _, session = account_organiser(api)
    colleague_id, colleague = new_organiser(api, "colleague")
    running = tournament_as(api, session)
    coming = tournament_as(api, session, opens_at=iso(600), closes_at=iso(1200))
    cancelled = tournament_as(api, session)
    assert api.http.post(f"/api/tournaments/{cancelled['id']}/cancel", headers=bearer(session)).status_code == 200
    club = new_club(api, session)
    # The club's tournament made by a co-organiser is the club's, so it is managed too.
    r = api.http.post(f"/api/clubs/{club['id']}/organisers", json={"organiser": colleague_id}, headers=bearer(session))
    assert r.status_code == 200, r.text
    theirs = tournament_as(api, colleague, club=club["id"])
    series = api.http.post("/api/series", json={"name": unique("season")}, headers=bearer(session))
    assert series.status_code == 201, series.text
    body = {"name": unique("weekly"), "first_opens_at": iso(86400), "every_minutes": 10080, "ahead_minutes": 0}
    schedule = api.http.post("/api/schedules", json=body, headers=bearer(session))
    assert schedule.status_code == 201, schedule.text
    elsewhere = tournament_as(api, colleague)  # the colleague's own, of no club: not managed

    r = api.http.get("/api/me/organised", headers=bearer(session))
    assert r.status_code == 200, r.text
    page = r.json()
    got = [(i["kind"], i["id"]) for i in page["items"]]
    assert got == [  # newest first
        ("schedule", schedule.json()["id"]),
        ("series", series.json()["id"]),
        ("tournament", theirs["id"]),
        ("club", club["id"]),
        ("tournament", cancelled["id"]),
        ("tournament", coming["id"]),
        ("tournament", running["id"]),
    ]
    assert ("tournament", elsewhere["id"]) not in got
    items = {(i["kind"], i["id"]): i for i in page["items"]}
    assert items[("tournament", running["id"])]["status"] == "open"
    assert items[("tournament", running["id"])]["phase"] == "running"
    assert items[("tournament", coming["id"])]["phase"] == "coming"
    assert items[("tournament", cancelled["id"])]["status"] == "cancelled"
    assert items[("tournament", cancelled["id"])]["phase"] == "finished"
    assert items[("club", club["id"])]["members"] == 0 and items[("club", club["id"])]["tournaments"] == 1
    assert items[("schedule", schedule.json()["id"])]["status"] == "active"
    assert items[("series", series.json()["id"])] | {"created_at": None} == {
        "kind": "series",
        "id": series.json()["id"],
        "name": series.json()["name"],
        "status": "coming",
        "phase": "coming",
        "club_id": None,
        "created_at": None,
        "tournaments": 0,
    }
    assert page["counts"] == {
        "club": {"running": 1},
        "schedule": {"running": 1},
        "series": {"coming": 1},
        "tournament": {"coming": 1, "finished": 1, "running": 2},
    }
    # Filters and pages.
    r = api.http.get("/api/me/organised?kind=tournament&phase=running", headers=bearer(session))
    assert [i["id"] for i in r.json()["items"]] == [theirs["id"], running["id"]]
    r = api.http.get("/api/me/organised?limit=2&offset=1", headers=bearer(session))
    assert [(i["kind"], i["id"]) for i in r.json()["items"]] == got[1:3]
    assert r.json()["offset"] == 1 and r.json()["limit"] == 2
    # The colleague's own list has its own and the shared club's.
    r = api.http.get("/api/me/organised?kind=tournament", headers=bearer(colleague))
    assert [i["id"] for i in r.json()["items"]] == [elsewhere["id"], theirs["id"]]


def test_bad_queries_and_callers(api: Api) -> None:
    _, _, session = account_organiser(api)
    for query in ("kind=match", "phase=soon", "limit=0", "limit=201", "offset=-1", "kind="):
        assert_error(api.http.get(f"/api/me/organised?{query}", headers=bearer(session)), 400)
    _, player = api.register("player")
    assert_error(api.http.get("/api/me/organised", headers=bearer(player)), 403, "organiser")
    assert_error(api.http.get("/api/me/organised"), 401)


def test_an_account_organiser_runs_brackets_too(api: Api) -> None:
    organiser_id, _, session = account_organiser(api)
    body = {"name": unique("cup"), "opens_at": iso(600), "break_seconds": 0}
    r = api.http.post("/api/brackets", json=body, headers=bearer(session))
    assert r.status_code == 201, r.text
    bracket = r.json()
    assert bracket["organiser"]["id"] == organiser_id
    r = api.http.patch(f"/api/brackets/{bracket['id']}", json={"name": "renamed"}, headers=bearer(session))
    assert r.status_code == 200 and r.json()["name"] == "renamed", r.text
    _, _, other = account_organiser(api, "other")
    r = api.http.patch(f"/api/brackets/{bracket['id']}", json={"name": "taken"}, headers=bearer(other))
    assert_error(r, 403, "not your")
    items = api.http.get("/api/me/organised?kind=bracket", headers=bearer(session)).json()["items"]
    assert [(i["kind"], i["id"], i["name"], i["phase"]) for i in items] == [
        ("bracket", bracket["id"], "renamed", "coming")
    ]
