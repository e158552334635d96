"""Accounts and sessions: handles, passwords, signing in on another device, signing out."""

from __future__ import annotations

import secrets
from typing import Any

import asyncpg
import pytest

from spidertour.server.lib.passwords import hash_secret
from tests.client import Api, bearer
from tests.server.helpers import assert_error


def handle() -> str:
    return "h" + secrets.token_hex(5)


def account(api: Api, name: str = "Ann", password: str = "correct horse") -> tuple[dict[str, Any], str]:
    h = handle()
    r = api.http.post("/api/players", json={"name": name, "handle": h.upper(), "password": password})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["handle"] == h and set(body) == {"id", "name", "token", "handle"}
    return body, h


def sign_in(api: Api, **body: str) -> Any:
    return api.http.post("/api/sessions", json=body)


def me(api: Api, token: str) -> Any:
    return api.http.get("/api/me", headers=bearer(token))


async def test_an_account_stores_only_an_argon2id_hash(api: Api, database_url: str) -> None:
    body, h = account(api, password="correct horse")
    conn = await asyncpg.connect(database_url)
    try:
        row = await conn.fetchrow("SELECT handle, password_hash FROM players WHERE id = $1", body["id"])
    finally:
        await conn.close()
    assert row is not None and row["handle"] == h and row["password_hash"].startswith("$argon2id$")
    assert "correct horse" not in row["password_hash"]
    got = me(api, body["token"])
    assert got.status_code == 200 and got.json() == {
        "id": body["id"],
        "name": "Ann",
        "handle": h,
        "clubs": [],
        "has_password": True,
        "organiser": None,
        "may_organise": False,
    }


def test_a_guest_has_no_handle(api: Api) -> None:
    pid, token = api.register("Bo")
    assert me(api, token).json() == {
        "id": pid,
        "name": "Bo",
        "handle": None,
        "clubs": [],
        "has_password": False,
        "organiser": None,
        "may_organise": False,
    }
    assert_error(api.http.get("/api/me"), 401, "bearer")
    assert_error(api.http.get("/api/me", headers=bearer("nope")), 401, "unknown player token")


def test_handles_fold_capitals_and_a_taken_one_is_refused(api: Api) -> None:
    _, h = account(api)
    for taken in (h, h.upper(), h.capitalize()):
        r = api.http.post("/api/players", json={"name": "Other", "handle": taken, "password": "another pass"})
        assert_error(r, 409, "taken", h)
    _, token = api.register("Guest")
    assert_error(
        api.http.patch("/api/me", json={"handle": h.upper(), "password": "12345678"}, headers=bearer(token)), 409
    )
    assert me(api, token).json()["handle"] is None  # nothing changed


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"name": "A", "handle": "ab", "password": "12345678"}, "handle"),
        ({"name": "A", "handle": "x" * 25, "password": "12345678"}, "handle"),
        ({"name": "A", "handle": "@ann", "password": "12345678"}, "handle"),
        ({"name": "A", "handle": "an n", "password": "12345678"}, "handle"),
        ({"name": "A", "handle": "ännchen", "password": "12345678"}, "handle"),
        ({"name": "A", "handle": "okhandle", "password": "1234567"}, "password"),
        ({"name": "A", "handle": "okhandle"}, "both a handle and a password"),
        ({"name": "A", "password": "12345678"}, "both a handle and a password"),
    ],
)
def test_bad_accounts_are_refused(api: Api, body: dict[str, Any], needle: str) -> None:
    assert_error(api.http.post("/api/players", json=body), 400, needle)


async def test_a_second_device_sees_the_same_entries(api: Api) -> None:
    body, h = account(api, password="pass word 1")
    tour = api.create_tournament("two devices", suits=1)
    entry = api.join(tour["id"], body["token"])
    r = sign_in(api, handle=h.upper(), password="pass word 1")
    assert r.status_code == 201, r.text
    second = r.json()
    assert second["token"] != body["token"]
    assert second["player"] == {
        "id": body["id"],
        "name": "Ann",
        "handle": h,
        "clubs": [],
        "has_password": True,
        "organiser": None,
        "may_organise": False,
    }
    mine = api.http.get("/api/me/entries", headers=bearer(second["token"]))
    assert mine.status_code == 200 and [e["id"] for e in mine.json()] == [entry["id"]]
    # One entry a player: the second device cannot join again.
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(second["token"])), 409)


def test_a_wrong_password_and_an_unknown_handle_answer_alike(api: Api) -> None:
    _, h = account(api, password="right password")
    wrong = sign_in(api, handle=h, password="wrong password")
    unknown = sign_in(api, handle=handle(), password="right password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["detail"] == "wrong handle or password"


def test_a_guest_upgrade_keeps_its_entries_and_token(api: Api) -> None:
    pid, token = api.register("Cy")
    tour = api.create_tournament("upgrade", suits=1)
    entry = api.join(tour["id"], token)
    h = handle()
    r = api.http.patch("/api/me", json={"handle": h, "password": "upgraded!"}, headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json() == {
        "id": pid,
        "name": "Cy",
        "handle": h,
        "clubs": [],
        "has_password": True,
        "organiser": None,
        "may_organise": False,
    }
    assert [e["id"] for e in api.http.get("/api/me/entries", headers=bearer(token)).json()] == [entry["id"]]
    other = sign_in(api, handle=h, password="upgraded!").json()["token"]
    assert [e["id"] for e in api.http.get("/api/me/entries", headers=bearer(other)).json()] == [entry["id"]]
    again = api.http.patch("/api/me", json={"handle": handle(), "password": "upgraded!"}, headers=bearer(token))
    assert_error(again, 409, "account already")
    # Without a token: 401 before the body is read.
    assert_error(api.http.patch("/api/me", json={"nonsense": 1}), 401)


async def test_a_club_member_signs_in_with_its_code(api: Api, database_url: str) -> None:
    h = handle()
    conn = await asyncpg.connect(database_url)
    try:
        pid = await conn.fetchval(
            "INSERT INTO players (name, handle, code_hash) VALUES ('Kid', $1, $2) RETURNING id",
            h,
            hash_secret("7-blue-owls"),
        )
        club = await conn.fetchval("INSERT INTO clubs (name, invite_code) VALUES ('Chess & Cards', 'x') RETURNING id")
        await conn.execute("INSERT INTO club_members (club_id, player_id) VALUES ($1, $2)", club, pid)
    finally:
        await conn.close()
    r = sign_in(api, handle=h, code="7-blue-owls")
    assert r.status_code == 201, r.text
    assert r.json()["player"] == {
        "id": pid,
        "name": "Kid",
        "handle": h,
        "clubs": [{"id": club, "name": "Chess & Cards"}],
        "has_password": False,
        "organiser": None,
        "may_organise": False,
    }
    assert me(api, r.json()["token"]).json()["clubs"] == [{"id": club, "name": "Chess & Cards"}]
    wrong = sign_in(api, handle=h, code="8-red-owls")
    assert_error(wrong, 401, "wrong handle or code")
    assert wrong.json() == sign_in(api, handle=handle(), code="7-blue-owls").json()
    # A code is not a password, nor the other way round.
    assert_error(sign_in(api, handle=h, password="7-blue-owls"), 401, "wrong handle or password")


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({}, "got nothing"),
        ({"handle": "someone"}, "got handle"),
        ({"password": "12345678"}, "got password"),
        ({"handle": "someone", "password": "12345678", "code": "1"}, "got handle, password, code"),
        ({"assertion": "x", "handle": "someone"}, "got handle, assertion"),
        ({"handle": "someone", "password": "12345678", "extra": 1}, "extra"),
        ({"handle": "someone", "password": 12345678}, "password"),
    ],
)
def test_bad_sign_ins_are_refused(api: Api, body: dict[str, Any], needle: str) -> None:
    assert_error(api.http.post("/api/sessions", json=body), 400, needle)


def test_signing_out_of_one_device_and_of_all(api: Api) -> None:
    body, h = account(api, password="many devices")
    tokens = [body["token"]] + [sign_in(api, handle=h, password="many devices").json()["token"] for _ in range(3)]
    r = api.http.delete("/api/sessions/current", headers=bearer(tokens[1]))
    assert r.status_code == 204, r.text
    assert_error(me(api, tokens[1]), 401, "unknown player token")
    assert_error(api.http.delete("/api/sessions/current", headers=bearer(tokens[1])), 401)
    assert [me(api, t).status_code for t in tokens] == [200, 401, 200, 200]
    assert api.http.delete("/api/sessions", headers=bearer(tokens[2])).status_code == 204
    assert [me(api, t).status_code for t in tokens] == [401] * 4
    # Signing in again works, and the password is the same.
    fresh = sign_in(api, handle=h, password="many devices")
    assert fresh.status_code == 201 and me(api, fresh.json()["token"]).status_code == 200


def test_an_assertion_without_a_configured_host_site_is_404(api: Api) -> None:
    assert_error(api.http.post("/api/sessions", json={"assertion": "a.b.c"}), 404, "not configured")
