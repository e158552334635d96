"""Practice: a finished tournament's deal played again, unranked, over the play websocket."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client import Api, Player, bearer
from tests.server.communities.kit import new_organiser, tournament_as
from tests.server.helpers import assert_error, fetch, stamp, unique

from .practice_kit import play, reveals, wait_finished_with_par

SEED = "practice-seed"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2}
STANDINGS = "SELECT * FROM standings WHERE tournament_id = $1 ORDER BY rank"  # what series and ratings read


def snapshot(api: Api, tid: int) -> dict[str, Any]:
    """Everything a practice game must leave as it is: standings, leaderboard, count, exports, replays."""
    get = api.http.get
    return {
        "entrants": api.tournament(tid)["entrants"],
        "standings": get(f"/api/tournaments/{tid}/standings").json(),
        "leaderboard": get(f"/api/tournaments/{tid}/leaderboard").json(),
        "csv": get(f"/api/tournaments/{tid}/standings.csv").text,
        "replays": get(f"/api/tournaments/{tid}/replays").text,
        "entries": get(f"/api/tournaments/{tid}/entries", headers=api.admin()).json(),
        "integrity": get(f"/api/tournaments/{tid}/integrity", headers=api.admin()).json()["entries"],
    }


async def test_practice_after_the_finish_ranks_nowhere_and_says_where_it_would_have(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("practice"), seed=SEED, closes_in=4, **SETTINGS)["id"]
    two = reveals(SEED, 2, **SETTINGS)
    _, first = api.register("First")
    first_entry = api.join(tid, first)["id"]
    await play(api, server.ws_url, first_entry, first, two)  # 50 points
    _, second = api.register("Second")
    await play(api, server.ws_url, api.join(tid, second)["id"], second, [])  # 0, ended
    _, third = api.register("Third")
    api.join(tid, third)  # never starts: absent

    _, guest = api.register("Guest")
    path = f"/api/tournaments/{tid}/practice"
    assert_error(api.http.post(path, headers=bearer(guest)), 403, "finishes", "open")
    assert_error(api.http.post(path), 401)
    assert_error(api.http.post("/api/tournaments/999999999/practice", headers=bearer(guest)), 404)

    tour = wait_finished_with_par(api, tid)
    before = snapshot(api, tid)
    assert before["entrants"] == 3 and len(before["standings"]) == 3
    stored = await fetch(server.database_url, STANDINGS, tid)

    r = api.http.post(path, headers=bearer(guest))
    assert r.status_code == 201, r.text
    entry = r.json()
    assert entry["practice"] is True and entry["tournament_id"] == tid and entry["status"] == "joined"
    again = api.http.post(path, headers=bearer(guest))  # one open at a time: the same one
    assert again.status_code == 200 and again.json()["id"] == entry["id"], again.text

    player, state = await Player.connect(server.ws_url, entry["id"], guest)
    assert state["practice"] is True and state["time_limit"] == 600
    started = await player.start()
    assert started["status"] == "playing" and started["view"]["variant"] == "spider78"
    result = await player.play(two[0])  # the same deal: the same first reveal
    assert result["type"] == "result" and result["revealed"] == 1 and result["fields"]["score"] == 25
    await player.play({"type": "end"})
    over = await player.recv()
    await player.close()
    assert over["type"] == "over" and over["final_score"] == 25
    # 50 ranks above it, the two zeros below: second of the three ranked and itself.
    assert over["would_rank"] == {"rank": 2, "of": 4}
    assert over["par"] == tour["par"]
    # Reopened once over: its state says the same, and the state of a ranked entry nothing of the kind.
    player, state = await Player.connect(server.ws_url, entry["id"], guest)
    await player.close()
    assert state["view"]["over"] is True
    assert state["would_rank"] == {"rank": 2, "of": 4} and state["par"] == tour["par"]
    player, state = await Player.connect(server.ws_url, first_entry, first)
    await player.close()
    assert state["view"]["over"] is True and "would_rank" not in state and "par" not in state

    assert snapshot(api, tid) == before
    assert (
        await fetch(server.database_url, "SELECT * FROM standings WHERE tournament_id = $1 ORDER BY rank", tid)
        == stored
    )
    assert api.http.get("/api/me/entries", headers=bearer(guest)).json() == []
    mine = api.http.get("/api/me/practice", headers=bearer(guest)).json()
    assert [(e["id"], e["status"], e["final_score"], e["practice"]) for e in mine] == [(entry["id"], "ended", 25, True)]

    # Over: the next one is a new practice entry. A ranked entrant practises its own deal.
    r = api.http.post(path, headers=bearer(guest))
    assert r.status_code == 201 and r.json()["id"] != entry["id"], r.text
    r = api.http.post(path, headers=bearer(first))
    assert r.status_code == 201, r.text
    over = await play(api, server.ws_url, r.json()["id"], first, two[:1])
    assert over["final_score"] == 25 and over["would_rank"] == {"rank": 2, "of": 4}
    assert snapshot(api, tid) == before


async def test_practice_and_analysis_of_a_cancelled_tournament_are_refused(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("cancelled"), **SETTINGS)["id"]
    _, token = api.register("Late")
    eid = api.join(tid, token)["id"]
    assert api.http.post(f"/api/tournaments/{tid}/cancel", headers=api.admin()).status_code == 200
    assert_error(api.http.post(f"/api/tournaments/{tid}/practice", headers=bearer(token)), 409, "cancelled")
    analysis = api.http.get(f"/api/tournaments/{tid}/entries/{eid}/analysis", headers=bearer(token))
    assert_error(analysis, 409, "cancelled")


async def test_a_ranked_over_message_carries_no_practice_fields(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("ranked"), seed=SEED, **SETTINGS)["id"]
    _, token = api.register("Ranked")
    over = await play(api, server.ws_url, api.join(tid, token)["id"], token, [])
    assert over["outcome"] == "ended" and "would_rank" not in over and "par" not in over


@pytest.mark.parametrize("scoring", ["total", "matchpoints"])
async def test_a_practice_game_stays_out_of_the_ranking_rebuilt_by_a_disqualification(
    api: Api, server: Any, scoring: str
) -> None:
    """A practice game better than every ranked one, then a disqualification after the finish: the
    standings ranked again, the winner, the CSV, the series and the ratings leave the practice out.
    One deal by matchpoints is refused now; such a tournament stored before is ranked all the same."""
    _, organiser = new_organiser(api)
    series = api.http.post("/api/series", json={"name": unique("season")}, headers=bearer(organiser)).json()
    tid = tournament_as(api, organiser, seed=SEED, closes_at=stamp(4), settings=SETTINGS, series=series["id"])["id"]
    if scoring == "matchpoints":
        await fetch(
            server.database_url,
            """UPDATE tournaments SET settings = settings || '{"scoring": "matchpoints"}' WHERE id = $1""",
            tid,
        )
    two, three = reveals(SEED, 2, **SETTINGS), reveals(SEED, 3, **SETTINGS)
    first_id, first = api.register("First")
    await play(api, server.ws_url, api.join(tid, first)["id"], first, two)  # 50
    _, second = api.register("Second")
    second_entry = api.join(tid, second)["id"]
    await play(api, server.ws_url, second_entry, second, [])  # 0
    wait_finished_with_par(api, tid)

    guest_id, guest = api.register("Better")
    entry = api.http.post(f"/api/tournaments/{tid}/practice", headers=bearer(guest)).json()
    over = await play(api, server.ws_url, entry["id"], guest, three)  # 75: it would have won
    assert over["would_rank"] == {"rank": 1, "of": 3}
    disqualify = f"/api/tournaments/{tid}/entries/{second_entry}/disqualify"
    r = api.http.post(disqualify, json={"reason": "two devices"}, headers=bearer(organiser))
    assert r.status_code == 200, r.text

    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [(s["rank"], s["player_id"]) for s in standings] == [(1, first_id)]
    assert api.tournament(tid)["winner"]["player"] == "First"
    assert "Better" not in api.http.get(f"/api/tournaments/{tid}/standings.csv").text
    table = api.http.get(f"/api/series/{series['id']}/standings").json()
    assert guest_id not in [row["player_id"] for row in table]
    stored = await fetch(server.database_url, "SELECT entry_id FROM standings WHERE tournament_id = $1", tid)
    assert entry["id"] not in [row["entry_id"] for row in stored]
    rated = await fetch(server.database_url, "SELECT player_id FROM rating_history WHERE tournament_id = $1", tid)
    assert guest_id not in [row["player_id"] for row in rated]
    assert await fetch(server.database_url, "SELECT 1 FROM ratings WHERE player_id = $1", guest_id) == []


def test_matchpoints_need_several_deals(api: Api) -> None:
    one: dict[str, Any] = {**SETTINGS, "scoring": "matchpoints"}
    for settings in (one, {**one, "deals": 1}):
        body = {"name": unique("one deal"), "settings": settings}
        assert_error(api.http.post("/api/tournaments", json=body, headers=api.admin()), 400, "matchpoints", "deals")
    schedule = {"name": unique("weekly"), "first_opens_at": stamp(3600), "every_minutes": 60, "settings": one}
    assert_error(api.http.post("/api/schedules", json=schedule, headers=api.admin()), 400, "matchpoints")
    r = api.http.post(
        "/api/tournaments", json={"name": unique("two"), "settings": {**one, "deals": 2}}, headers=api.admin()
    )
    assert r.status_code == 201, r.text
    assert r.json()["settings"]["scoring"] == "matchpoints"
