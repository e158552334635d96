"""Organisers who sign in (COMMUNITY.md section 6): the owner makes an account an organiser, or the
account makes itself one where ORGANISERS_OPEN allows it; its sessions then carry the rights, until
a revocation, which holds at once on every process and stops its schedules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.client import Api, bearer
from tests.conftest import server_env
from tests.server.communities.kit import account_organiser, count, new_club, new_organiser, signed_in, tournament_as
from tests.server.communities.test_organisers import ROUTES, iso
from tests.server.helpers import assert_error, unique
from tests.serverproc import ServerProcess


def test_the_owner_makes_an_account_an_organiser_by_handle_or_id(api: Api) -> None:
    player_id, handle, session = signed_in(api, "Ms Smith")
    assert api.http.get("/api/me", headers=bearer(session)).json()["organiser"] is None
    assert_error(api.http.post("/api/clubs", json={"name": "x"}, headers=bearer(session)), 403, "organiser")

    r = api.http.post("/api/organisers", json={"handle": "@" + handle.upper()}, headers=api.admin())
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["name"] == "Ms Smith" and made["player_id"] == player_id and "token" not in made
    # Made again, by id this time: the same organiser, 200.
    again = api.http.post("/api/organisers", json={"player": player_id}, headers=api.admin())
    assert again.status_code == 200 and again.json()["id"] == made["id"], again.text
    listed = {o["id"]: o for o in api.http.get("/api/organisers", headers=api.admin()).json()}
    assert listed[made["id"]]["player_id"] == player_id

    me = api.http.get("/api/me", headers=bearer(session)).json()
    assert me["organiser"] == {"id": made["id"], "name": "Ms Smith"}
    # The session that existed before carries the rights now: a tournament, a club of its own.
    tour = tournament_as(api, session)
    assert tour["organiser"] == {"id": made["id"], "name": "Ms Smith"}
    club = new_club(api, session)
    assert [o["id"] for o in club["organisers"]] == [made["id"]]
    assert [c["id"] for c in api.http.get("/api/clubs", headers=bearer(session)).json()] == [club["id"]]
    # A session opened by signing in again carries them too.
    r = api.http.post("/api/sessions", json={"handle": handle, "password": "a long password"})
    assert r.status_code == 201 and r.json()["player"]["organiser"]["id"] == made["id"], r.text
    other_device = r.json()["token"]
    assert api.http.get(f"/api/tournaments/{tour['id']}/entries", headers=bearer(other_device)).status_code == 200


async def test_bad_requests_to_make_an_organiser_change_nothing(api: Api, database_url: str) -> None:
    guest_id, _ = api.register("guest")
    _, handle, _ = signed_in(api)
    before = await count(database_url, "SELECT count(*) FROM organisers")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({}, 400, "one of"),
        ({"name": "x", "handle": handle}, 400, "one of"),
        ({"player": 1, "handle": handle}, 400, "one of"),
        ({"player": 0}, 400, ""),
        ({"player": "1"}, 400, ""),
        ({"player": guest_id}, 400, "guest"),
        ({"player": 999_999_999}, 404, "no player"),
        ({"handle": "nobody-" + unique("x")}, 404, "no account"),
    ]
    for body, status, needle in cases:
        assert_error(api.http.post("/api/organisers", json=body, headers=api.admin()), status, needle)
    _, token = new_organiser(api)
    assert_error(api.http.post("/api/organisers", json={"handle": handle}, headers=bearer(token)), 403)
    assert await count(database_url, "SELECT count(*) FROM organisers") == before + 1  # the token one only


@pytest.fixture(scope="module")
def owned_by_accounts(api: Api) -> dict[str, Any]:
    """Organiser A's tournaments, entry and schedule, made through a session of A's account; a
    session of organiser B's account."""
    _, _, a = account_organiser(api, "a")
    _, _, b = account_organiser(api, "b")
    open_ = tournament_as(api, a)
    scheduled = tournament_as(api, a, opens_at=iso(600), closes_at=iso(1200))
    _, player = api.register("entrant")
    entry = api.join(open_["id"], player)
    body = {"name": unique("weekly"), "first_opens_at": iso(86400), "every_minutes": 10080}
    r = api.http.post("/api/schedules", json=body, headers=bearer(a))
    assert r.status_code == 201, r.text
    return {"a": a, "b": b, "open": open_["id"], "scheduled": scheduled["id"], "entry": entry["id"]} | {
        "schedule": r.json()["id"]
    }


READ = ["entries", "integrity", "standings.csv live", "edit"]  # change nothing another route needs


@pytest.mark.parametrize("route", READ)
def test_a_session_carries_the_organiser_s_rights(api: Api, owned_by_accounts: dict[str, Any], route: str) -> None:
    method, path, body = ROUTES[route](owned_by_accounts)
    other = api.http.request(method, path, json=body, headers=bearer(owned_by_accounts["b"]))
    assert_error(other, 403, "not your tournament")
    r = api.http.request(method, path, json=body, headers=bearer(owned_by_accounts["a"]))
    assert r.status_code == 200, r.text


def test_a_session_carries_the_organiser_s_rights_on_every_other_route(api: Api) -> None:
    """Each route another account-organiser is refused, then the owning account's session done."""
    _, _, a = account_organiser(api, "a")
    _, _, b = account_organiser(api, "b")
    open_ = tournament_as(api, a)
    _, player = api.register("entrant")
    entry = api.join(open_["id"], player)
    body = {"name": unique("weekly"), "first_opens_at": iso(86400), "every_minutes": 10080}
    schedule = api.http.post("/api/schedules", json=body, headers=bearer(a)).json()
    owned = {"open": open_["id"], "entry": entry["id"], "schedule": schedule["id"], "scheduled": 0}
    # Cancelled: another of A's open tournaments. Once closed with no game running, the first one
    # finishes at the clock's next tick, and a finished tournament is no longer cancelled.
    cancelled = tournament_as(api, a)
    for route in ("disqualify", "schedule stop", "close", "cancel"):
        method, path, body = ROUTES[route](owned if route != "cancel" else owned | {"open": cancelled["id"]})
        what = "schedule" if "schedule" in route else "tournament"
        assert_error(api.http.request(method, path, json=body, headers=bearer(b)), 403, f"not your {what}")
        r = api.http.request(method, path, json=body, headers=bearer(a))
        assert r.status_code == 200, (route, r.text)
    assert api.http.get(f"/api/tournaments/{cancelled['id']}").json()["status"] == "cancelled"
    assert api.http.get(f"/api/tournaments/{open_['id']}").json()["status"] in ("closing", "finished")


def test_revoking_ends_the_rights_on_every_process_and_stops_schedules(api: Api, other_process: ServerProcess) -> None:
    organiser_id, _, session = account_organiser(api)
    club = new_club(api, session)
    body = {"name": unique("weekly"), "first_opens_at": iso(86400), "every_minutes": 10080}
    schedule = api.http.post("/api/schedules", json=body, headers=bearer(session)).json()
    other = Api(other_process.url, api.admin_token)
    assert other.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(session)).status_code == 200

    r = api.http.delete(f"/api/organisers/{organiser_id}", headers=api.admin())
    assert r.status_code == 200 and r.json()["revoked_at"], r.text
    for http in (api.http, other.http):
        assert_error(http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(session)), 403)
        assert_error(http.post("/api/clubs", json={"name": "after"}, headers=bearer(session)), 403, "organiser")
        assert_error(http.get("/api/me/organised", headers=bearer(session)), 403)
        me = http.get("/api/me", headers=bearer(session))
        assert me.status_code == 200 and me.json()["organiser"] is None  # still a player, signed in
    stopped = {s["id"]: s for s in api.http.get("/api/schedules", headers=api.admin()).json()}[schedule["id"]]
    assert stopped["active"] is False
    # Made an organiser again by the owner: the same organiser, its club its own again.
    r = api.http.post(
        "/api/organisers",
        json={"player": api.http.get("/api/me", headers=bearer(session)).json()["id"]},
        headers=api.admin(),
    )
    assert r.status_code == 201 and r.json()["id"] == organiser_id, r.text
    assert other.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(session)).status_code == 200


def test_organisers_are_the_owner_s_to_make_unless_open(api: Api) -> None:
    _, _, session = signed_in(api)
    assert_error(api.http.post("/api/me/organiser", headers=bearer(session)), 403, "owner")
    assert api.http.get("/api/me", headers=bearer(session)).json()["organiser"] is None
    assert_error(api.http.post("/api/me/organiser"), 401)


@pytest.fixture(scope="module")
def open_server(database_url: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[Api]:
    env = {**server_env(redis_prefix), "ORGANISERS_OPEN": "true"}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield Api(proc.url, admin_token)
    finally:
        proc.stop()


def test_where_open_any_account_makes_itself_an_organiser(open_server: Api) -> None:
    api = open_server
    player_id, _, session = signed_in(api, "Club secretary")
    r = api.http.post("/api/me/organiser", headers=bearer(session))
    assert r.status_code == 201 and r.json()["player_id"] == player_id and "token" not in r.json(), r.text
    organiser_id = r.json()["id"]
    again = api.http.post("/api/me/organiser", headers=bearer(session))
    assert again.status_code == 200 and again.json()["id"] == organiser_id
    assert new_club(api, session)["organisers"][0]["id"] == organiser_id
    # A guest is no account.
    _, guest = api.register("guest")
    assert_error(api.http.post("/api/me/organiser", headers=bearer(guest)), 403, "account")
    # One the owner revoked stays revoked, whatever the setting.
    assert api.http.delete(f"/api/organisers/{organiser_id}", headers=api.admin()).status_code == 200
    assert_error(api.http.post("/api/me/organiser", headers=bearer(session)), 403, "revoked")
    assert api.http.get("/api/me", headers=bearer(session)).json()["organiser"] is None


def test_token_organisers_keep_working_beside_accounts(api: Api) -> None:
    organiser_id, token = new_organiser(api)
    tour = tournament_as(api, token)
    assert tour["organiser"]["id"] == organiser_id
    organised = api.http.get("/api/me/organised", headers=bearer(token))
    assert organised.status_code == 200 and [i["id"] for i in organised.json()["items"]] == [tour["id"]]
    # An organiser's token is no player's: /api/me is for players.
    assert api.http.get("/api/me", headers=bearer(token)).status_code == 401


def test_me_says_whether_the_account_may_make_itself_an_organiser(api: Api, open_server: Api) -> None:
    """``may_organise``: only where the server allows it, for an account (not a guest) that is no
    organiser yet and was never revoked by the owner."""
    _, _, closed = signed_in(api)
    assert api.http.get("/api/me", headers=bearer(closed)).json()["may_organise"] is False

    _, handle, session = signed_in(open_server, "Class teacher")

    def me() -> dict[str, Any]:
        found: dict[str, Any] = open_server.http.get("/api/me", headers=bearer(session)).json()
        return found

    assert me()["may_organise"] is True and me()["organiser"] is None
    r = open_server.http.post("/api/sessions", json={"handle": handle, "password": "a long password"})
    assert r.status_code == 201 and r.json()["player"]["may_organise"] is True, r.text
    _, guest = open_server.register("guest")
    assert open_server.http.get("/api/me", headers=bearer(guest)).json()["may_organise"] is False

    made = open_server.http.post("/api/me/organiser", headers=bearer(session))
    assert made.status_code == 201, made.text
    assert me()["may_organise"] is False and me()["organiser"]["id"] == made.json()["id"]
    revoked = open_server.http.delete(f"/api/organisers/{made.json()['id']}", headers=open_server.admin())
    assert revoked.status_code == 200, revoked.text
    assert me()["organiser"] is None and me()["may_organise"] is False  # revoked: the owner's to restore
