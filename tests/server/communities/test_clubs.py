"""Clubs: their organisers, members by roster or invite code, and members' sign-in codes."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import asyncpg

from spidertour.server.lib.passwords import secret_matches
from tests.client import Api, bearer
from tests.server.helpers import assert_error, unique

from .kit import account, count, new_club, new_organiser

MEMBERS = "SELECT count(*) FROM club_members"
PLAYERS = "SELECT count(*) FROM players"


async def test_a_club_is_made_read_and_organised(api: Api, database_url: str) -> None:
    a_id, a = new_organiser(api, "a")
    b_id, b = new_organiser(api, "b")
    club = new_club(api, a, "Chess club")
    assert club["organisers"] == [{"id": a_id, "name": club["organisers"][0]["name"]}] and club["members"] == 0
    public = api.http.get(f"/api/clubs/{club['id']}").json()
    assert public == club and "invite" not in json.dumps(public)
    assert_error(api.http.get("/api/clubs/999999999"), 404, "no club")
    # Only its organisers add organisers, read and rotate the invite code.
    r = api.http.post(f"/api/clubs/{club['id']}/organisers", json={"organiser": a_id}, headers=bearer(b))
    assert_error(r, 403, "not your club")
    assert_error(api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(b)), 403, "not your club")
    r = api.http.post(f"/api/clubs/{club['id']}/organisers", json={"organiser": 999999999}, headers=bearer(a))
    assert_error(r, 404, "no organiser")
    for body in ({"organiser": "2"}, {"organiser": b_id, "role": "x"}, {}):
        assert_error(api.http.post(f"/api/clubs/{club['id']}/organisers", json=body, headers=bearer(a)), 400)
    r = api.http.post(f"/api/clubs/{club['id']}/organisers", json={"organiser": b_id}, headers=bearer(a))
    assert r.status_code == 200 and [o["id"] for o in r.json()["organisers"]] == [a_id, b_id]
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(b)).json()["invite"]
    assert len(invite) >= 10
    # The owner may make clubs too (organised by no organiser, managed by the owner).
    r = api.http.post("/api/clubs", json={"name": unique("owner's")}, headers=api.admin())
    assert r.status_code == 201 and r.json()["organisers"] == []
    assert_error(api.http.post("/api/clubs", json={"name": "x"}), 401)
    _, player = api.register("p")
    assert_error(api.http.post("/api/clubs", json={"name": "x"}, headers=bearer(player)), 403)


async def test_each_caller_lists_its_own_clubs(api: Api, database_url: str) -> None:
    """``GET /api/clubs``: an organiser's clubs on any device, a member's clubs; nobody else's."""
    a_id, a = new_organiser(api, "a")
    b_id, b = new_organiser(api, "b")
    first, second = new_club(api, a, "zeta"), new_club(api, a, "alpha")
    theirs = new_club(api, b, "theirs")
    mine = api.http.get("/api/clubs", headers=bearer(a))
    assert mine.status_code == 200
    assert [c["id"] for c in mine.json()] == [second["id"], first["id"]]  # by name
    assert mine.json()[0] == api.http.get(f"/api/clubs/{second['id']}").json()
    assert [c["id"] for c in api.http.get("/api/clubs", headers=bearer(b)).json()] == [theirs["id"]]
    # Added as a co-organiser, b lists the club too; the owner lists every club.
    api.http.post(f"/api/clubs/{first['id']}/organisers", json={"organiser": b_id}, headers=bearer(a))
    assert {c["id"] for c in api.http.get("/api/clubs", headers=bearer(b)).json()} == {theirs["id"], first["id"]}
    every = {c["id"] for c in api.http.get("/api/clubs", headers=api.admin()).json()}
    assert {first["id"], second["id"], theirs["id"]} <= every
    # A player lists the clubs it belongs to; a guest none; no token or a wrong one: 401.
    pid, token = await account(api, database_url)
    assert api.http.get("/api/clubs", headers=bearer(token)).json() == []
    invite = api.http.get(f"/api/clubs/{first['id']}/invite", headers=bearer(a)).json()["invite"]
    api.http.post(f"/api/clubs/{first['id']}/members", json={"invite": invite}, headers=bearer(token))
    assert [c["id"] for c in api.http.get("/api/clubs", headers=bearer(token)).json()] == [first["id"]]
    assert_error(api.http.get("/api/clubs"), 401, "send a token")
    assert_error(api.http.get("/api/clubs", headers=bearer("nobody-holds-this")), 401)
    assert a_id and pid


async def test_joining_by_invite_code(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    club = new_club(api, a)
    path = f"/api/clubs/{club['id']}/members"
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(a)).json()["invite"]
    pid, token = await account(api, database_url)
    _, guest = api.register("guest")
    assert_error(api.http.post(path, json={"invite": invite}, headers=bearer(guest)), 403, "account")
    assert_error(api.http.post(path, json={"invite": "wrong-code"}, headers=bearer(token)), 403, "wrong invite code")
    assert_error(api.http.post(path, json={"invite": 5}, headers=bearer(token)), 400)
    assert_error(api.http.post(path, json={"invite": invite}), 401)
    assert await count(database_url, f"{MEMBERS} WHERE club_id = $1", club["id"]) == 0
    # Members read the member list; others do not.
    assert_error(api.http.get(path, headers=bearer(token)), 403, "members only")
    r = api.http.post(path, json={"invite": invite}, headers=bearer(token))
    assert r.status_code == 201 and r.json()["members"] == 1, r.text
    listed = api.http.get(path, headers=bearer(token)).json()
    assert [m["player_id"] for m in listed] == [pid]
    assert [m["player_id"] for m in api.http.get(path, headers=bearer(a)).json()] == [pid]
    assert_error(api.http.get(path, headers=bearer(guest)), 403)
    assert_error(api.http.get(path), 401)
    # Rotating the code: the old one admits no one any more.
    fresh = api.http.post(f"/api/clubs/{club['id']}/invite", headers=bearer(a)).json()["invite"]
    assert fresh != invite
    _, other = await account(api, database_url, "other")
    assert_error(api.http.post(path, json={"invite": invite}, headers=bearer(other)), 403, "wrong invite code")
    assert api.http.post(path, json={"invite": fresh}, headers=bearer(other)).status_code == 201


async def test_a_roster_of_thirty_names(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    club = new_club(api, a)
    names = [f"Pupil {i} Ünal" for i in range(30)]
    r = api.http.post(f"/api/clubs/{club['id']}/roster", json={"names": names}, headers=bearer(a), timeout=120)
    assert r.status_code == 201, r.text
    assert r.headers["cache-control"] == "no-store"
    members = r.json()["members"]
    assert [m["name"] for m in members] == names
    handles = [m["handle"] for m in members]
    assert len(set(handles)) == 30 and all(h.startswith("pupil-") for h in handles)
    assert all(len(m["code"]) == 10 for m in members) and len({m["code"] for m in members}) == 30
    conn = await asyncpg.connect(database_url)
    try:
        rows = {
            r["id"]: r
            for r in await conn.fetch(
                """SELECT p.id, p.name, p.handle, p.code_hash, p.password_hash FROM players p
                    JOIN club_members m ON m.player_id = p.id WHERE m.club_id = $1""",
                club["id"],
            )
        }
    finally:
        await conn.close()
    assert set(rows) == {m["player_id"] for m in members}
    for member in members[:3]:  # argon2id is slow on purpose: three are enough to show it
        row = rows[member["player_id"]]
        assert row["handle"] == member["handle"] and row["password_hash"] is None
        assert row["code_hash"].startswith("$argon2id$") and member["code"] not in row["code_hash"]
        assert secret_matches(row["code_hash"], member["code"])
        assert not secret_matches(row["code_hash"], member["code"][::-1])
    assert api.http.get(f"/api/clubs/{club['id']}").json()["members"] == 30

    # A new code for one member: the old one no longer matches.
    first = members[0]
    r = api.http.post(f"/api/clubs/{club['id']}/members/{first['player_id']}/code", headers=bearer(a))
    assert r.status_code == 200 and r.json()["code"] != first["code"], r.text
    stored = await count(database_url, "SELECT 1 FROM players WHERE id = $1", first["player_id"])
    assert stored == 1
    conn = await asyncpg.connect(database_url)
    try:
        code_hash = await conn.fetchval("SELECT code_hash FROM players WHERE id = $1", first["player_id"])
    finally:
        await conn.close()
    assert secret_matches(code_hash, r.json()["code"]) and not secret_matches(code_hash, first["code"])
    _, b = new_organiser(api, "b")
    path = f"/api/clubs/{club['id']}/members/{first['player_id']}/code"
    assert_error(api.http.post(path, headers=bearer(b)), 403, "not your club")
    assert_error(api.http.post(f"/api/clubs/{club['id']}/members/999999999/code", headers=bearer(a)), 404)

    # A member chooses a password under its own handle: the code stops, the password signs in.
    second = members[1]
    signed = api.http.post("/api/sessions", json={"handle": second["handle"], "code": second["code"]})
    token = signed.json()["token"]
    assert api.http.get("/api/me", headers=bearer(token)).json()["has_password"] is False
    other_handle = {"handle": unique("elsewhere").lower(), "password": "a long password"}
    assert_error(api.http.patch("/api/me", json=other_handle, headers=bearer(token)), 409, "account already")
    mine = {"handle": second["handle"], "password": "a long password"}
    r = api.http.patch("/api/me", json=mine, headers=bearer(token))
    assert r.status_code == 200 and r.json()["has_password"] is True and r.json()["handle"] == second["handle"]
    assert_error(api.http.post("/api/sessions", json={"handle": second["handle"], "code": second["code"]}), 401)
    assert api.http.post("/api/sessions", json=mine).status_code == 201
    assert_error(api.http.patch("/api/me", json=mine, headers=bearer(token)), 409, "account already")
    r = api.http.post(f"/api/clubs/{club['id']}/members/{second['player_id']}/code", headers=bearer(a))
    assert_error(r, 409, "password")


async def test_a_csv_roster_with_handles_and_a_code_sheet(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    club = new_club(api, a)
    tag = unique("k").lower().replace("-", "")[:10]
    text = f'name,handle\r\nAnn Smith,{tag}-ann\r\n"Bo, the second"\r\nCy,@{tag.upper()}-CY\r\n'
    r = api.http.post(
        f"/api/clubs/{club['id']}/roster",
        content=text.encode(),
        headers={**bearer(a), "content-type": "text/csv", "accept": "text/csv"},
        timeout=60,
    )
    assert r.status_code == 201, r.text
    assert r.headers["content-type"].startswith("text/csv") and "attachment" in r.headers["content-disposition"]
    sheet = list(csv.DictReader(io.StringIO(r.text)))
    assert [(s["name"], s["handle"]) for s in sheet][::2] == [("Ann Smith", f"{tag}-ann"), ("Cy", f"{tag}-cy")]
    assert sheet[1]["name"] == "Bo, the second" and sheet[1]["handle"].startswith("bo-the-second-")
    assert all(len(s["code"]) == 10 and s["player_id"].isdigit() for s in sheet)


async def test_a_bad_line_creates_nothing_and_is_named(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    club = new_club(api, a)
    taken_pid, _ = await account(api, database_url, "taken")
    conn = await asyncpg.connect(database_url)
    try:
        taken = await conn.fetchval("SELECT handle FROM players WHERE id = $1", taken_pid)
    finally:
        await conn.close()
    path = f"/api/clubs/{club['id']}/roster"
    csv_headers = {**bearer(a), "content-type": "text/csv"}
    cases = [
        (f"name,handle\nAnn,\nBo,{taken}\n", "line 2", "taken"),
        ("name,handle\nAnn,dup-1\nBo,dup-1\n", "line 2", "earlier line"),
        ("name,handle\nAnn,ab\n", "line 1", "handle"),
        ("name,handle\nAnn,has space\n", "line 1", "handle"),
        ("name\nAnn\n\t\n", "line 2", "blank"),
        ("name\nAnn\n" + "x" * 41 + "\n", "line 2", "name"),
        ("name\nAnn,extra\n", "line 1", "fields"),
        ("handle\nann-1\n", "header", "name"),
        ("name,age\nAnn,9\n", "header", "name"),
        ("name\n", "no line", ""),
        ("name\n" + "Ann\n" * 201, "at most", "200"),
    ]
    players = await count(database_url, PLAYERS)
    members = await count(database_url, MEMBERS)
    for text, *needles in cases:
        r = api.http.post(path, content=text.encode(), headers=csv_headers)
        body = assert_error(r, 400, *needles)
        if needles[0].startswith("line"):
            assert body["extra"]["line"] == int(needles[0].split()[1]) and "nothing was created" in body["detail"]
    bad_json: list[dict[str, Any]] = [
        {"names": []},
        {"names": ["ok", 5]},
        {"names": ["ok"], "handles": []},
        {"names": ["A"] * 201},
        {"names": "Ann"},
    ]
    for body_json in bad_json:
        assert_error(api.http.post(path, json=body_json, headers=bearer(a)), 400)
    assert_error(api.http.post(path, json={"names": ["ok", " "]}, headers=bearer(a)), 400, "line 2")
    r = api.http.post(path, content=b"\xff\xfe", headers=csv_headers)
    assert_error(r, 400, "utf-8")
    r = api.http.post(path, content=b"name\n" + b"A" * 200_000, headers=csv_headers)
    assert r.status_code == 413
    r = api.http.post(path, content=b"name\nAnn\n", headers={**bearer(a), "content-type": "text/plain"})
    assert_error(r, 415)
    _, b = new_organiser(api, "b")
    assert_error(api.http.post(path, json={"names": ["x"]}, headers=bearer(b)), 403, "not your club")
    assert await count(database_url, PLAYERS) == players
    assert await count(database_url, MEMBERS) == members


async def test_bad_club_bodies_change_nothing(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    club = new_club(api, a)
    clubs = await count(database_url, "SELECT count(*) FROM clubs")
    json_headers = {**bearer(a), "content-type": "application/json"}
    for body in (b"{", b"[]", b'{"name": ""}', b'{"name": 3}', b'{"name": "x", "private": true}', b'{"name": " "}'):
        assert_error(api.http.post("/api/clubs", content=body, headers=json_headers), 400)
    _, member = await account(api, database_url)
    path = f"/api/clubs/{club['id']}/members"
    for body in (b"{", b"{}", b'{"invite": ""}', b'{"invite": "x", "as": "organiser"}'):
        assert_error(
            api.http.post(path, content=body, headers={**bearer(member), "content-type": "application/json"}), 400
        )
    assert await count(database_url, "SELECT count(*) FROM clubs") == clubs
    assert await count(database_url, f"{MEMBERS} WHERE club_id = $1", club["id"]) == 0
    assert_error(api.http.post("/api/clubs/999999999/members", json={"invite": "x"}, headers=bearer(member)), 404)
