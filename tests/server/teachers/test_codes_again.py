"""Codes again: a fresh code sheet for chosen pupils, at any time; the old codes stop, their
sessions end on every process, and the sheet carries what a printed slip needs."""

from __future__ import annotations

import csv
import io
from typing import Any

import asyncpg

from tests.client import Api, bearer
from tests.server.communities.kit import new_club, new_organiser
from tests.server.communities.test_pupils import code_sign_in, join_by_invite, roster, signed_in
from tests.server.helpers import assert_error
from tests.serverproc import ServerProcess


def codes_again(api: Api, token: str, club_id: int, ids: Any, **headers: str) -> Any:
    return api.http.post(
        f"/api/clubs/{club_id}/codes", json={"members": ids}, headers={**bearer(token), **headers}, timeout=60
    )


def test_a_fresh_sheet_for_chosen_pupils_ends_their_old_codes_everywhere(
    api: Api, other_process: ServerProcess
) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school, "Class 4B")
    made = roster(api, school, club["id"], "Ann Smith", "Bo Jones", "Cy Lee")
    ann, bo, cy = made
    other = Api(other_process.url, api.admin_token)
    ann_here, ann_there, cy_session = signed_in(api, ann), signed_in(other, ann), signed_in(api, cy)

    r = codes_again(api, school, club["id"], [ann["player_id"], bo["player_id"], ann["player_id"]])
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store", r.text
    sheet = r.json()
    assert sheet["club"] == {"id": club["id"], "name": club["name"]}
    assert sheet["signin_url"] == str(api.http.base_url).rstrip("/") + "/#/account"
    assert [(s["player_id"], s["name"], s["handle"]) for s in sheet["members"]] == [
        (ann["player_id"], "Ann Smith", ann["handle"]),
        (bo["player_id"], "Bo Jones", bo["handle"]),
    ]
    new = {s["player_id"]: s["code"] for s in sheet["members"]}
    assert len(set(new.values())) == 2 and all(len(c) == 10 for c in new.values())
    # The old codes stop, their sessions end on both processes; Cy, not chosen, keeps hers.
    for member in (ann, bo):
        assert_error(code_sign_in(api, member), 401)
    for http, token in ((api.http, ann_here), (other.http, ann_there)):
        assert_error(http.get("/api/me", headers=bearer(token)), 401)
    assert api.http.get("/api/me", headers=bearer(cy_session)).status_code == 200
    assert signed_in(api, {**ann, "code": new[ann["player_id"]]})
    assert signed_in(other, {**bo, "code": new[bo["player_id"]]})

    # As CSV: one slip a line, with the club and the sign-in address.
    r = codes_again(api, school, club["id"], [cy["player_id"]], accept="text/csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv"), r.text
    (slip,) = list(csv.DictReader(io.StringIO(r.text)))
    assert slip["name"] == "Cy Lee" and slip["handle"] == cy["handle"] and slip["club"] == club["name"]
    assert slip["signin_url"] == sheet["signin_url"] and len(slip["code"]) == 10
    assert_error(api.http.get("/api/me", headers=bearer(cy_session)), 401)
    assert signed_in(api, {**cy, "code": slip["code"]})
    # The roster's own answer says where to sign in too.
    r = api.http.post(f"/api/clubs/{club['id']}/roster", json={"names": ["Di"]}, headers=bearer(school), timeout=60)
    assert r.status_code == 201 and r.json()["signin_url"] == sheet["signin_url"], r.text


async def test_every_member_that_cannot_have_a_code_is_named_and_nothing_changes(api: Api, database_url: str) -> None:
    _, school = new_organiser(api, "school")
    _, rival = new_organiser(api, "rival")
    club = new_club(api, school)
    rival_club = new_club(api, rival)
    ann, bo = roster(api, school, club["id"], "Ann", "Bo")
    (outsider,) = roster(api, rival, rival_club["id"], "Outsider")
    join_by_invite(api, school, club["id"], signed_in(api, outsider))  # a member, of another roster
    r = api.http.patch(
        "/api/me", json={"handle": bo["handle"], "password": "a long password"}, headers=bearer(signed_in(api, bo))
    )
    assert r.status_code == 200, r.text  # Bo chose a password
    ann_session = signed_in(api, ann)

    async def codes() -> list[str]:
        conn = await asyncpg.connect(database_url)
        try:
            rows = await conn.fetch(
                "SELECT coalesce(code_hash, '') AS c FROM players WHERE id = ANY($1) ORDER BY id",
                [ann["player_id"], bo["player_id"], outsider["player_id"]],
            )
        finally:
            await conn.close()
        return [r["c"] for r in rows]

    before = await codes()
    path = f"/api/clubs/{club['id']}/codes"
    body = assert_error(codes_again(api, school, club["id"], [ann["player_id"], 999_999_999, 999_999_998]), 404)
    assert [m["player_id"] for m in body["extra"]["members"]] == [999_999_999, 999_999_998]
    body = assert_error(codes_again(api, school, club["id"], [ann["player_id"], outsider["player_id"]]), 403, "roster")
    assert [m["player_id"] for m in body["extra"]["members"]] == [outsider["player_id"]]
    assert_error(codes_again(api, school, club["id"], [ann["player_id"], bo["player_id"]]), 409, "password")
    for ids in ([], ["1"], [0], None):
        assert_error(codes_again(api, school, club["id"], ids), 400)
    assert_error(codes_again(api, rival, club["id"], [ann["player_id"]]), 403, "not your club")
    assert_error(codes_again(api, school, 999_999_999, [ann["player_id"]]), 404)
    assert_error(api.http.post(path, json={"members": [ann["player_id"]]}), 401)
    assert await codes() == before
    assert api.http.get("/api/me", headers=bearer(ann_session)).status_code == 200  # its session goes on
