"""Organisers: made and revoked by the owner, each managing only what it runs (or its clubs run)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.client import Api, bearer
from tests.server.helpers import assert_error, unique

from .kit import count, new_club, new_organiser, tournament_as


def iso(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def test_the_owner_creates_lists_and_revokes_organisers(api: Api, database_url: str) -> None:
    name = unique("Ann's club")
    r = api.http.post("/api/organisers", json={"name": name}, headers=api.admin())
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["name"] == name and len(made["token"]) >= 40
    listed = {o["id"]: o for o in api.http.get("/api/organisers", headers=api.admin()).json()}
    assert listed[made["id"]]["revoked_at"] is None and "token" not in listed[made["id"]]
    mine = tournament_as(api, made["token"])
    assert mine["organiser"] == {"id": made["id"], "name": name}

    r = api.http.delete(f"/api/organisers/{made['id']}", headers=api.admin())
    assert r.status_code == 200 and r.json()["revoked_at"], r.text
    for method, path, body in [
        ("POST", "/api/tournaments", {"name": "after"}),
        ("POST", f"/api/tournaments/{mine['id']}/close", None),
        ("POST", "/api/clubs", {"name": "after"}),
        ("GET", "/api/schedules", None),
    ]:
        assert_error(api.http.request(method, path, json=body, headers=bearer(made["token"])), 403, "organiser")
    # Organiser routes are the owner's alone; an organiser's own token does not reach them.
    _, other = new_organiser(api)
    assert_error(api.http.get("/api/organisers", headers=bearer(other)), 403, "admin token")
    assert_error(api.http.post("/api/organisers", json={"name": "x"}, headers=bearer(other)), 403)
    assert_error(api.http.delete("/api/organisers/999999999", headers=api.admin()), 404, "no organiser")
    # The owner still manages what a revoked organiser made.
    assert api.http.post(f"/api/tournaments/{mine['id']}/close", headers=api.admin()).status_code == 200


async def test_tokens_are_stored_hashed(api: Api, database_url: str) -> None:
    oid, token = new_organiser(api)
    stored = "SELECT count(*) FROM organisers WHERE id = $1 AND token_hash = sha256($2::bytea)"
    assert await count(database_url, stored, oid, token.encode()) == 1


@pytest.mark.parametrize(
    "body",
    [
        b"{",
        b'{"name": ""}',
        b'{"name": 5}',
        b'{"name": "x", "token": "mine"}',
        b'{"name": "\\u0000"}',
        b"[]",
    ],
)
async def test_bad_organiser_bodies_change_nothing(api: Api, database_url: str, body: bytes) -> None:
    before = await count(database_url, "SELECT count(*) FROM organisers")
    r = api.http.post("/api/organisers", content=body, headers={**api.admin(), "content-type": "application/json"})
    assert_error(r, 400)
    assert await count(database_url, "SELECT count(*) FROM organisers") == before


# Every route that manages a tournament or schedule: (method, path, body), given the tournament
# (open, with one entry) and one schedule of organiser A.
Case = Callable[[dict[str, Any]], tuple[str, str, Any]]
ROUTES: dict[str, Case] = {
    "edit": lambda t: ("PATCH", f"/api/tournaments/{t['scheduled']}", {"name": "taken over"}),
    "close": lambda t: ("POST", f"/api/tournaments/{t['open']}/close", None),
    "cancel": lambda t: ("POST", f"/api/tournaments/{t['open']}/cancel", None),
    "entries": lambda t: ("GET", f"/api/tournaments/{t['open']}/entries", None),
    "disqualify": lambda t: (
        "POST",
        f"/api/tournaments/{t['open']}/entries/{t['entry']}/disqualify",
        {"reason": "not yours"},
    ),
    "integrity": lambda t: ("GET", f"/api/tournaments/{t['open']}/integrity", None),
    "standings.csv live": lambda t: ("GET", f"/api/tournaments/{t['open']}/standings.csv", None),
    "schedule stop": lambda t: ("DELETE", f"/api/schedules/{t['schedule']}", None),
}


@pytest.fixture(scope="module")
def owned(api: Api) -> dict[str, Any]:
    """Organiser A's tournaments, entry and schedule, and organiser B's token."""
    _, a = new_organiser(api, "a")
    _, b = new_organiser(api, "b")
    open_ = tournament_as(api, a)
    scheduled = tournament_as(api, a, opens_at=iso(600), closes_at=iso(1200))
    _, player = api.register("entrant")
    entry = api.join(open_["id"], player)
    r = api.http.post(
        "/api/schedules",
        json={"name": unique("weekly"), "first_opens_at": iso(86400), "every_minutes": 10080},
        headers=bearer(a),
    )
    assert r.status_code == 201, r.text
    return {
        "a": a,
        "b": b,
        "open": open_["id"],
        "scheduled": scheduled["id"],
        "entry": entry["id"],
        "schedule": r.json()["id"],
    }


@pytest.mark.parametrize("route", list(ROUTES))
def test_another_organiser_is_refused_on_every_route(api: Api, owned: dict[str, Any], route: str) -> None:
    method, path, body = ROUTES[route](owned)
    before = api.http.get(f"/api/tournaments/{owned['open']}").json()
    r = api.http.request(method, path, json=body, headers=bearer(owned["b"]))
    what = "schedule" if "schedule" in route else "tournament"
    assert_error(r, 403, f"not your {what}")
    assert api.http.get(f"/api/tournaments/{owned['open']}").json() == before
    # A player's token is no organiser's, nor is no token at all.
    _, player = api.register("nosy")
    assert api.http.request(method, path, json=body, headers=bearer(player)).status_code == 403
    if route != "standings.csv live":
        assert api.http.request(method, path, json=body).status_code == 401


@pytest.mark.parametrize("route", ["entries", "integrity", "standings.csv live", "edit", "disqualify", "close"])
def test_the_organiser_and_the_owner_manage_it(api: Api, owned: dict[str, Any], route: str) -> None:
    method, path, body = ROUTES[route](owned)
    for token in (owned["a"], api.admin_token):
        r = api.http.request(method, path, json=body, headers=bearer(token))
        assert r.status_code in (200, 409), r.text  # 409: already done by the first of them
        if route in ("entries", "integrity", "standings.csv live", "edit"):
            assert r.status_code == 200, r.text


def test_schedules_belong_to_their_organiser(api: Api, owned: dict[str, Any]) -> None:
    mine = [s["id"] for s in api.http.get("/api/schedules", headers=bearer(owned["a"])).json()]
    assert mine == [owned["schedule"]]
    assert api.http.get("/api/schedules", headers=bearer(owned["b"])).json() == []
    everyone = [s["id"] for s in api.http.get("/api/schedules", headers=api.admin()).json()]
    assert owned["schedule"] in everyone
    r = api.http.delete(f"/api/schedules/{owned['schedule']}", headers=bearer(owned["a"]))
    assert r.status_code == 200 and r.json()["active"] is False, r.text


def test_a_club_s_organisers_manage_its_tournaments(api: Api) -> None:
    _, a = new_organiser(api, "a")
    b_id, b = new_organiser(api, "b")
    club = new_club(api, a)
    tour = tournament_as(api, a, club=club["id"])
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/entries", headers=bearer(b)), 403, "not your tournament")
    r = api.http.post(f"/api/clubs/{club['id']}/organisers", json={"organiser": b_id}, headers=bearer(a))
    assert r.status_code == 200 and b_id in [o["id"] for o in r.json()["organisers"]], r.text
    assert api.http.get(f"/api/tournaments/{tour['id']}/entries", headers=bearer(b)).status_code == 200
    # B may now make the club's tournaments too; a club it does not organise it may not use.
    assert tournament_as(api, b, club=club["id"])["club"] == {"id": club["id"], "name": club["name"]}
    _, c = new_organiser(api, "c")
    r = api.http.post("/api/tournaments", json={"name": "x", "club": club["id"]}, headers=bearer(c))
    assert_error(r, 403, "not your club")
    assert_error(api.http.post("/api/tournaments", json={"name": "x", "club": 999999999}, headers=bearer(c)), 400)


def test_the_owner_s_tournaments_as_before(api: Api) -> None:
    """Tournaments made with the admin token (as every one made before organisers) have no organiser."""
    tour = api.create_tournament(name=unique("owner"))
    assert tour["organiser"] is None and tour["listed"] is True and tour["club"] is None
    _, a = new_organiser(api, "a")
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/entries", headers=bearer(a)), 403, "not your tournament")
    assert api.http.get(f"/api/tournaments/{tour['id']}/entries", headers=api.admin()).status_code == 200
    r = api.http.patch(f"/api/tournaments/{tour['id']}", json={"name": "x"}, headers=api.admin())
    assert r.status_code == 409  # open: the usual refusal, not a 403
    assert api.http.post(f"/api/tournaments/{tour['id']}/close", headers=api.admin()).status_code == 200


def test_unknown_tokens_and_bodies(api: Api) -> None:
    assert_error(api.http.post("/api/tournaments", json={"name": "x"}, headers=bearer("nobody")), 403)
    _, a = new_organiser(api)
    for body in ({"name": "x", "club": "1"}, {"name": "x", "entry_code": "abc"}, {"name": "x", "listed": 1}):
        assert_error(api.http.post("/api/tournaments", json=body, headers=bearer(a)), 400)
    r = api.http.post("/api/tournaments", content=b"{", headers={**bearer(a), "content-type": "application/json"})
    assert_error(r, 400)
