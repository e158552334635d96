"""Pupils' accounts: only the club whose roster made an account replaces its code (a club it joined
by invite may not take it over), a new code ends the old code's sessions on every process, and a
roster's accounts have profiles private to their clubs until the pupil or the club makes them public.
Tried as a stranger and another club's organiser would, against real servers."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import websockets

from spidertour.server.storage.migrations import SCHEMA, migrate
from tests.client import Api, Player, bearer
from tests.server.helpers import assert_error, unique
from tests.server.players.test_migrated_guests import migrate_up_to
from tests.serverproc import ServerProcess

from .kit import account, new_club, new_organiser


def roster(api: Api, organiser: str, club_id: int, *names: str) -> list[dict[str, Any]]:
    r = api.http.post(
        f"/api/clubs/{club_id}/roster", json={"names": list(names)}, headers=bearer(organiser), timeout=60
    )
    assert r.status_code == 201, r.text
    return r.json()["members"]  # type: ignore[no-any-return]


def code_sign_in(api: Api, member: dict[str, Any], code: str | None = None) -> Any:
    return api.http.post("/api/sessions", json={"handle": member["handle"], "code": code or member["code"]})


def signed_in(api: Api, member: dict[str, Any]) -> str:
    r = code_sign_in(api, member)
    assert r.status_code == 201, r.text
    return r.json()["token"]  # type: ignore[no-any-return]


def school_and_pupil(api: Api) -> tuple[str, dict[str, Any], dict[str, Any], str]:
    """A school's organiser, its club, a pupil of its roster and the pupil's session."""
    _, school = new_organiser(api, "school")
    club = new_club(api, school, "Class 4B")
    (ann,) = roster(api, school, club["id"], "Ann Smith")
    return school, club, ann, signed_in(api, ann)


def join_by_invite(api: Api, organiser: str, club_id: int, token: str) -> None:
    invite = api.http.get(f"/api/clubs/{club_id}/invite", headers=bearer(organiser)).json()["invite"]
    r = api.http.post(f"/api/clubs/{club_id}/members", json={"invite": invite}, headers=bearer(token))
    assert r.status_code == 201, r.text


def test_another_club_cannot_take_over_a_pupil_s_account(api: Api) -> None:
    school, school_club, ann, ann_token = school_and_pupil(api)
    _, rival = new_organiser(api, "rival")
    chess = new_club(api, rival, "Chess club")
    join_by_invite(api, rival, chess["id"], ann_token)  # Ann joins a second club by its invite code

    # The chess club's organiser may not give her a new code (nor make her profile public) ...
    path = f"/api/clubs/{chess['id']}/members/{ann['player_id']}"
    assert_error(api.http.post(f"{path}/code", headers=bearer(rival)), 403, "made by this club's roster")
    assert_error(
        api.http.patch(f"{path}/profile", json={"public": True}, headers=bearer(rival)), 403, "made by this club"
    )
    # ... so her school's code still signs her in, her session stays, and the rival never reads the roster.
    assert code_sign_in(api, ann).status_code == 201
    assert api.http.get("/api/me", headers=bearer(ann_token)).status_code == 200
    assert_error(api.http.get(f"/api/clubs/{school_club['id']}/members", headers=bearer(rival)), 403)
    school_members = api.http.get(f"/api/clubs/{school_club['id']}/members", headers=bearer(school)).json()
    assert [(m["player_id"], m["roster"], m["profile_public"]) for m in school_members] == [
        (ann["player_id"], True, False)
    ]
    members = api.http.get(f"/api/clubs/{chess['id']}/members", headers=bearer(rival)).json()
    assert [(m["player_id"], m["roster"]) for m in members] == [(ann["player_id"], False)]

    # Her school replaces it: the new code signs in, the old one no longer.
    r = api.http.post(f"/api/clubs/{school_club['id']}/members/{ann['player_id']}/code", headers=bearer(school))
    assert r.status_code == 200, r.text
    assert code_sign_in(api, ann, r.json()["code"]).status_code == 201
    assert_error(code_sign_in(api, ann), 401)


async def test_a_new_code_ends_the_old_code_s_sessions_on_every_process(
    api: Api, server: ServerProcess, other_process: ServerProcess
) -> None:
    school, club, ann, on_this = school_and_pupil(api)
    on_other = signed_in(api, ann)
    first = api.join(api.create_tournament("new code", suits=1)["id"], on_this)
    second = api.join(api.create_tournament("new code too", suits=1)["id"], on_other)
    here, state = await Player.connect(server.ws_url, first["id"], on_this)
    there, again = await Player.connect(other_process.ws_url, second["id"], on_other)
    assert state["type"] == "state" and again["type"] == "state"

    r = api.http.post(f"/api/clubs/{club['id']}/members/{ann['player_id']}/code", headers=bearer(school))
    assert r.status_code == 200, r.text

    for player in (here, there):  # both sockets are closed, told why
        messages = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                messages.append(json.loads(await asyncio.wait_for(player.ws.recv(), 10)))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
        assert messages[-1]["code"] == "session_ended"
    for token in (on_this, on_other):  # and the old code's tokens are refused
        assert_error(api.http.get("/api/me", headers=bearer(token)), 401)
    assert signed_in(api, {**ann, "code": r.json()["code"]})


async def test_a_pupil_s_profile_is_private_to_its_clubs(api: Api, database_url: str) -> None:
    school, club, ann, ann_token = school_and_pupil(api)
    (bo,) = roster(api, school, club["id"], "Bo Jones")
    bo_token = signed_in(api, bo)
    ours = [ann["player_id"], bo["player_id"]]
    _, someone = await account(api, database_url, "Someone")
    _, stranger_organiser = new_organiser(api, "stranger")
    path = f"/api/players/{ann['player_id']}"

    def missing(r: Any, player_id: int) -> None:  # exactly what a player who does not exist answers
        missing_id = 999_999_000 + player_id % 1000
        nobody = api.http.get(f"/api/players/{missing_id}").json()
        assert r.status_code == 404, r.text
        assert r.json() == {**nobody, "detail": nobody["detail"].replace(str(missing_id), str(player_id))}

    # A stranger walking player ids finds neither pupil's name nor handle.
    for pid in range(min(ours) - 5, max(ours) + 5):
        for headers in ({}, bearer(someone), bearer(stranger_organiser), bearer("not-a-token")):
            r = api.http.get(f"/api/players/{pid}", headers=headers)
            if pid in ours:
                missing(r, pid)
            assert "Ann Smith" not in r.text and ann["handle"] not in r.text and "Bo Jones" not in r.text
    # The pupil itself, a member of its club and its organisers read it.
    for token in (ann_token, bo_token, school):
        r = api.http.get(path, headers=bearer(token))
        assert r.status_code == 200 and r.json()["name"] == "Ann Smith" and r.json()["public"] is False, r.text
    assert api.http.get(path, headers=api.admin()).status_code == 200

    # The pupil makes it public: anyone reads it. Its club makes it private again.
    r = api.http.patch("/api/me/profile", json={"public": True}, headers=bearer(ann_token))
    assert r.status_code == 200 and r.json() == {"player_id": ann["player_id"], "public": True}, r.text
    r = api.http.get(path)
    assert r.status_code == 200 and r.json()["public"] is True
    # ... under the name its club shows the public: initials, no handle (the club chooses: public_names).
    assert r.json()["name"] == "Ann S." and r.json()["handle"] is None and "Smith" not in r.text
    assert api.http.get(path, headers=bearer(bo_token)).json()["handle"] == ann["handle"]  # its club: in full
    member_path = f"/api/clubs/{club['id']}/members/{ann['player_id']}/profile"
    r = api.http.patch(member_path, json={"public": False}, headers=bearer(school))
    assert r.status_code == 200 and r.json() == {"player_id": ann["player_id"], "public": False}, r.text
    missing(api.http.get(path), ann["player_id"])
    r = api.http.patch(member_path, json={"public": True}, headers=bearer(school))
    assert r.status_code == 200 and api.http.get(path).status_code == 200
    missing(api.http.get(f"/api/players/{bo['player_id']}", headers=bearer(someone)), bo["player_id"])

    # Bad requests change nothing.
    for body in ({}, {"public": "yes"}, {"public": True, "extra": 1}, [True]):
        assert_error(api.http.patch("/api/me/profile", json=body, headers=bearer(bo_token)), 400)
        assert_error(api.http.patch(member_path, json=body, headers=bearer(school)), 400)
    assert_error(api.http.patch("/api/me/profile", json={"public": True}), 401)
    assert_error(api.http.patch(member_path, json={"public": False}), 401)
    assert_error(api.http.patch(member_path, json={"public": False}, headers=bearer(stranger_organiser)), 403)
    assert_error(api.http.patch(member_path, json={"public": False}, headers=bearer(someone)), 403)
    nobody_path = f"/api/clubs/{club['id']}/members/999999999/profile"
    assert_error(api.http.patch(nobody_path, json={"public": True}, headers=bearer(school)), 404)
    assert api.http.get(path).status_code == 200
    missing(api.http.get(f"/api/players/{bo['player_id']}"), bo["player_id"])


def test_an_account_s_profile_stays_public(api: Api) -> None:
    handle = unique("olga").lower()
    r = api.http.post("/api/players", json={"name": "Open Olga", "handle": handle, "password": "twelve chars"})
    assert r.status_code == 201, r.text
    profile = api.http.get(f"/api/players/{r.json()['id']}")
    assert profile.status_code == 200 and profile.json()["public"] is True, profile.text
    assert profile.json()["handle"] == handle


async def test_roster_members_from_before_are_private_and_belong_to_their_first_club(
    fresh_database_url: str, tmp_path: Path
) -> None:
    await migrate_up_to(fresh_database_url, 13, tmp_path / "schema")
    conn = await asyncpg.connect(fresh_database_url)
    try:
        school, chess = [
            await conn.fetchval("INSERT INTO clubs (name, invite_code) VALUES ($1, 'x') RETURNING id", name)
            for name in ("School", "Chess")
        ]
        pupil = await conn.fetchval(
            "INSERT INTO players (name, handle, code_hash) VALUES ('Kid', 'kid-1', 'h') RETURNING id"
        )
        grown = await conn.fetchval(
            "INSERT INTO players (name, handle, password_hash) VALUES ('Ada', 'ada-1', 'h') RETURNING id"
        )
        await conn.execute(
            """INSERT INTO club_members (club_id, player_id, joined_at)
               VALUES ($1, $3, now() - interval '1 day'), ($2, $3, now()), ($2, $4, now())""",
            school,
            chess,
            pupil,
            grown,
        )
        assert 16 in await migrate(conn, SCHEMA)
        rows = await conn.fetch("SELECT id, roster_club_id, profile_public FROM players ORDER BY id")
        assert [tuple(r) for r in rows] == [(pupil, school, False), (grown, None, True)]
    finally:
        await conn.close()
