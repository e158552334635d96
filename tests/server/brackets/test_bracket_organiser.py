"""The organiser's side and bad input: creating with a tournament's checks, joining with its rules,
edits before the opening only, a field of 37 seeded on the server, a bracket of one cancelled, a
cancel mid-bracket, and a disqualification that sends the opponent through."""

from __future__ import annotations

import time

from tests.client import Api, bearer
from tests.server.helpers import assert_error, stamp
from tests.serverproc import ServerProcess

from .kit import BLITZ, bracket, create, join, open_soon, play_game, players, seeds_of, wait_for


def test_bad_input_is_refused_and_changes_nothing(bapi: Api, bracket_server: ServerProcess) -> None:
    post = bapi.http.post
    before = bapi.http.get("/api/brackets", headers=bapi.admin()).json()
    good = {"name": "cup", "settings": BLITZ, "opens_at": stamp(600)}
    assert_error(post("/api/brackets", json=good), 401)
    (_, token), (_, other) = players(bapi, 2)
    assert_error(post("/api/brackets", json=good, headers=bearer(token)), 403)
    for bad, needle in (
        ({**good, "settings": {**BLITZ, "deals": 2}}, "one deal"),
        ({**good, "opens_at": stamp(-5)}, "future"),
        ({**good, "break_seconds": -1}, "break_seconds"),
        ({**good, "surprise": 1}, "surprise"),
        ({**good, "settings": {**BLITZ, "suits": 3}}, "settings"),
        ({**good, "club": 999999}, "no club"),
        ({k: v for k, v in good.items() if k != "opens_at"}, "opens_at"),
    ):
        assert_error(post("/api/brackets", json=bad, headers=bapi.admin()), 400, needle)
    assert bapi.http.get("/api/brackets", headers=bapi.admin()).json() == before
    assert_error(bapi.http.get("/api/brackets/999999"), 404)
    assert_error(bapi.http.get("/api/brackets/99999999999999999999"), 404)
    # Joining: a code, once, before the opening.
    cup = create(bapi, entry_code="sesame1", listed=True)
    assert cup["entry_code_needed"] and cup["entry_code"] == "sesame1"  # shown to its organiser
    assert bracket(bapi, cup["id"])["entry_code"] is None
    assert_error(post(f"/api/brackets/{cup['id']}/entries", headers=bearer(token)), 403, "entry code")
    assert_error(post(f"/api/brackets/{cup['id']}/entries", json={"entry_code": "nope"}, headers=bearer(token)), 403)
    join(bapi, cup["id"], token, entry_code="sesame1")
    again = post(f"/api/brackets/{cup['id']}/entries", json={"entry_code": "sesame1"}, headers=bearer(token))
    assert_error(again, 409, "already")
    assert_error(post(f"/api/brackets/{cup['id']}/entries", json={"team": 1}, headers=bearer(other)), 400)
    assert bracket(bapi, cup["id"])["entrants"] == 1
    # Edits: the organiser's only, checked, before the opening only.
    patch = bapi.http.patch
    assert_error(patch(f"/api/brackets/{cup['id']}", json={"name": "x"}, headers=bearer(token)), 403)
    assert_error(patch(f"/api/brackets/{cup['id']}", json={"opens_at": stamp(-1)}, headers=bapi.admin()), 400)
    edited = patch(f"/api/brackets/{cup['id']}", json={"name": "Cup", "break_seconds": 5}, headers=bapi.admin())
    assert edited.status_code == 200 and edited.json()["name"] == "Cup" and edited.json()["break_seconds"] == 5
    assert edited.json()["commitment"] != cup["commitment"]  # a new salt
    assert_error(post(f"/api/brackets/{cup['id']}/disqualify", json={"player": 1}, headers=bapi.admin()), 400)
    assert_error(
        post(f"/api/brackets/{cup['id']}/disqualify", json={"player": 999999, "reason": "x"}, headers=bapi.admin()),
        404,
    )
    # One entrant at the opening: cancelled, joining refused.
    open_soon(bapi, cup["id"])
    gone = wait_for(bapi, cup["id"], "cancelled")
    assert gone["rounds"] == [] and gone["champion"] is None and gone["seed"]
    late = post(f"/api/brackets/{cup['id']}/entries", json={"entry_code": "sesame1"}, headers=bearer(other))
    assert_error(late, 409, "cancelled")
    assert_error(patch(f"/api/brackets/{cup['id']}", json={"name": "y"}, headers=bapi.admin()), 409)
    assert_error(post(f"/api/brackets/{cup['id']}/cancel", headers=bapi.admin()), 409)


def test_thirty_seven_seeded_into_64_then_cancelled(bapi: Api, bracket_server: ServerProcess) -> None:
    field = players(bapi, 37)
    cup = create(bapi, settings={**BLITZ, "time_limit": 600})
    for _, token in field:  # all unrated: seeded in the order they joined
        join(bapi, cup["id"], token)
    open_soon(bapi, cup["id"])
    running = wait_for(bapi, cup["id"], "running", rounds=1)
    assert running["size"] == 64 and len(running["rounds"][0]["pairings"]) == 32
    pairs = seeds_of(running)
    assert sorted(p[0] for p in pairs if len(p) == 1) == list(range(1, 28))  # 27 byes to the top seeds
    assert all(p[0] + p[1] == 65 for p in pairs if len(p) == 2)
    seed_of = {p["player_id"]: p["seed"] for pr in running["rounds"][0]["pairings"] for p in pr["players"]}
    assert [seed_of[pid] for pid, _ in field] == list(range(1, 38))
    assert_error(bapi.http.post(f"/api/brackets/{cup['id']}/entries", headers=bearer(players(bapi, 1)[0][1])), 409)
    slot, pairing = next((i, pr) for i, pr in enumerate(running["rounds"][0]["pairings"]) if len(pr["players"]) == 2)
    entry = pairing["players"][0]

    def status() -> str:
        mine = bapi.http.get("/api/me/entries", headers=bearer(field[entry["seed"] - 1][1])).json()
        return str(next(e for e in mine if e["id"] == entry["entry_id"])["status"])

    while status() != "playing":  # started by the server, nobody connected
        time.sleep(0.1)
    done = bapi.http.post(f"/api/brackets/{cup['id']}/cancel", headers=bapi.admin())
    assert done.status_code == 200 and done.json()["status"] == "cancelled"
    assert status() == "ended"  # ended by the cancel
    assert bracket(bapi, cup["id"])["rounds"][0]["pairings"][slot]["winner"] is None


async def test_a_disqualified_player_loses_its_pairing(bapi: Api, bracket_server: ServerProcess) -> None:
    (a, ta), (b, tb) = players(bapi, 2)
    cup = create(bapi, settings={**BLITZ, "time_limit": 30})
    join(bapi, cup["id"], ta)
    join(bapi, cup["id"], tb)
    # The organiser sees who joined (anyone else: 401 or 403).
    entrants = bapi.http.get(f"/api/brackets/{cup['id']}/entries", headers=bapi.admin())
    assert entrants.status_code == 200, entrants.text
    assert [(e["player_id"], e["ordinal"], e["disqualified"]) for e in entrants.json()] == [(a, 1, None), (b, 2, None)]
    assert bapi.http.get(f"/api/brackets/{cup['id']}/entries").status_code == 401
    assert bapi.http.get(f"/api/brackets/{cup['id']}/entries", headers=bearer(ta)).status_code in (401, 403)
    open_soon(bapi, cup["id"])
    running = wait_for(bapi, cup["id"], "running", rounds=1)
    out = bapi.http.post(
        f"/api/brackets/{cup['id']}/disqualify", json={"player": a, "reason": "shared an account"}, headers=bapi.admin()
    )
    assert out.status_code == 200, out.text
    assert out.json()["disqualified"] == 1
    again = bapi.http.post(
        f"/api/brackets/{cup['id']}/disqualify", json={"player": a, "reason": "again"}, headers=bapi.admin()
    )
    assert_error(again, 409, "already")
    [pairing] = running["rounds"][0]["pairings"]
    await play_game(bracket_server.ws_url, pairing["players"][1]["entry_id"], tb, reveal=False)
    done = wait_for(bapi, cup["id"], "finished")
    assert done["champion"]["player_id"] == b and done["rounds"][0]["pairings"][0]["winner"] == b
