"""Pupils' names in public (COMMUNITY.md section 6): a roster member's full name and handle are its
clubs' to see; every public route, board, socket and export shows the public its initials and no
handle, unless the club chooses to show them (public_names)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.client import Api, bearer
from tests.server.communities.kit import new_club, new_organiser, tournament_as
from tests.server.communities.test_exports import play_one
from tests.server.communities.test_pupils import roster, signed_in
from tests.server.helpers import reveal_move, unique, wait_status, watcher

SEED = "public-names-seed"


def public_texts(api: Api, tid: int, series_id: int, ann_id: int) -> dict[str, str]:
    """What anyone reads of a finished tournament and its series, by route."""
    paths = {
        "tournament": f"/api/tournaments/{tid}",
        "standings": f"/api/tournaments/{tid}/standings",
        "standings.csv": f"/api/tournaments/{tid}/standings.csv",
        "leaderboard": f"/api/tournaments/{tid}/leaderboard",
        "disqualified": f"/api/tournaments/{tid}/disqualified",
        "replays": f"/api/tournaments/{tid}/replays",
        "series standings": f"/api/series/{series_id}/standings",
        "series standings.csv": f"/api/series/{series_id}/standings.csv",
    }
    texts = {}
    for what, path in paths.items():
        r = api.http.get(path)
        assert r.status_code == 200, (what, r.text)
        texts[what] = r.text
    return texts


async def test_the_public_sees_pupils_initials_unless_the_club_shows_names(api: Api, server: Any) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school, "Class 4B")
    assert club["public_names"] is False
    ann, bo = roster(api, school, club["id"], "Ann Smith", "Bo Jones Kent")
    series = api.http.post("/api/series", json={"name": unique("term"), "club": club["id"]}, headers=bearer(school))
    assert series.status_code == 201, series.text
    closes = (datetime.now(UTC) + timedelta(seconds=5)).isoformat()
    tour = tournament_as(api, school, seed=SEED, club=club["id"], series=series.json()["id"], closes_at=closes)
    tid = tour["id"]
    ann_token, bo_token = signed_in(api, ann), signed_in(api, bo)
    await play_one(api, server.ws_url, tid, ann_token, [reveal_move(SEED), {"type": "end"}])
    bo_entry = api.join(tid, bo_token)
    # Live: the board over HTTP and the watch socket.
    ws, first = await watcher(server.ws_url, tid)
    await ws.close()
    live = {"leaderboard": api.http.get(f"/api/tournaments/{tid}/leaderboard").text, "watch": json.dumps(first)}
    assert "Ann S." in live["leaderboard"] and "Ann S." in live["watch"], live
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{bo_entry['id']}/disqualify", json={"reason": "left"}, headers=bearer(school)
    )
    assert r.status_code == 200, r.text
    wait_status(api, tid, "finished", 20)

    texts = {**live, **public_texts(api, tid, series.json()["id"], ann["player_id"])}
    for what, text in texts.items():
        lowered = text.lower()
        assert "smith" not in lowered and "jones" not in lowered and "kent" not in lowered, (what, text)
        assert ann["handle"] not in lowered and bo["handle"] not in lowered, (what, text)
    for what in ("tournament", "standings", "standings.csv", "series standings", "series standings.csv"):
        assert "Ann S." in texts[what], (what, texts[what])
    assert "Bo J. K." in texts["disqualified"]
    # The club's organisers: in full, in the export and on the club's own routes.
    full = api.http.get(f"/api/tournaments/{tid}/standings.csv", headers=bearer(school)).text
    assert f"Ann Smith,{ann['handle']},Class 4B" in full.replace(club["name"], "Class 4B")
    members = api.http.get(f"/api/clubs/{club['id']}/members", headers=bearer(school)).json()
    assert [(m["name"], m["shown_as"], m["handle_shown"]) for m in members] == [
        ("Ann Smith", "Ann S.", False),
        ("Bo Jones Kent", "Bo J. K.", False),
    ]
    results = api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(school)).text
    assert "Ann Smith" in results and "Bo Jones Kent" in results

    # The club shows its pupils' names: every public route names them in full, with their handles.
    r = api.http.patch(f"/api/clubs/{club['id']}", json={"public_names": True}, headers=bearer(school))
    assert r.status_code == 200 and r.json()["public_names"] is True, r.text
    assert api.http.get(f"/api/clubs/{club['id']}").json()["public_names"] is True
    texts = public_texts(api, tid, series.json()["id"], ann["player_id"])
    for what in ("tournament", "standings", "standings.csv", "series standings", "series standings.csv"):
        assert "Ann Smith" in texts[what], (what, texts[what])
    for what in ("standings.csv", "series standings", "series standings.csv"):
        assert ann["handle"] in texts[what], (what, texts[what])
    assert "Bo Jones Kent" in texts["disqualified"]
    # And keeps them again: initials once more.
    r = api.http.patch(f"/api/clubs/{club['id']}", json={"public_names": False}, headers=bearer(school))
    assert r.status_code == 200 and r.json()["public_names"] is False, r.text
    texts = public_texts(api, tid, series.json()["id"], ann["player_id"])
    assert all("smith" not in t.lower() for t in texts.values()) and "Ann S." in texts["standings"]
    members = api.http.get(f"/api/clubs/{club['id']}/members", headers=bearer(school)).json()
    assert [m["name"] for m in members] == ["Ann Smith", "Bo Jones Kent"]


def test_only_the_club_s_organisers_choose_and_bad_bodies_change_nothing(api: Api) -> None:
    _, school = new_organiser(api, "school")
    _, other = new_organiser(api, "other")
    club = new_club(api, school)
    path = f"/api/clubs/{club['id']}"
    (ann,) = roster(api, school, club["id"], "Ann Smith")
    bodies: list[Any] = [{}, {"public_names": "yes"}, {"public_names": True, "name": "x"}, [], {"public_names": None}]
    for body in bodies:
        assert api.http.patch(path, json=body, headers=bearer(school)).status_code == 400, body
    assert api.http.patch(path, json={"public_names": True}, headers=bearer(other)).status_code == 403
    assert api.http.patch(path, json={"public_names": True}, headers=bearer(signed_in(api, ann))).status_code == 403
    assert api.http.patch(path, json={"public_names": True}).status_code == 401
    assert (
        api.http.patch("/api/clubs/999999999", json={"public_names": True}, headers=bearer(school)).status_code == 404
    )
    assert api.http.get(path).json()["public_names"] is False
    members = api.http.get(f"{path}/members", headers=bearer(school)).json()
    assert members[0]["shown_as"] == "Ann S." and members[0]["name"] == "Ann Smith"


def test_organisers_see_full_names_of_their_own_club_s_pupils_only(api: Api) -> None:
    _, school = new_organiser(api, "school")
    _, stranger = new_organiser(api, "stranger")
    club = new_club(api, school)
    (ann,) = roster(api, school, club["id"], "Ann Smith")
    ann_token = signed_in(api, ann)
    ours = tournament_as(api, school, club=club["id"])["id"]
    theirs = tournament_as(api, stranger)["id"]  # open to all: the pupil joins it too
    for tid in (ours, theirs):
        api.join(tid, ann_token)
    ours_entries = api.http.get(f"/api/tournaments/{ours}/entries", headers=bearer(school)).json()
    theirs_entries = api.http.get(f"/api/tournaments/{theirs}/entries", headers=bearer(stranger)).json()
    assert [e["player"] for e in ours_entries] == ["Ann Smith"]
    assert [e["player"] for e in theirs_entries] == ["Ann S."]
    ours_csv = api.http.get(f"/api/tournaments/{ours}/standings.csv", headers=bearer(school)).text
    theirs_csv = api.http.get(f"/api/tournaments/{theirs}/standings.csv", headers=bearer(stranger)).text
    assert f"Ann Smith,{ann['handle']}," in ours_csv
    assert "Ann S.,," in theirs_csv and "smith" not in theirs_csv.lower()
