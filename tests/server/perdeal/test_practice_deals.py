"""Practice of one deal of a finished tournament of several: the deal the entrants played as deal k
(dealt from ``<seed>/<k>``, renamed alike), unranked, its ``over`` set against that deal's results."""

from __future__ import annotations

from typing import Any

from tests.client import Api, Player, bearer
from tests.server.competitions.practice_kit import wait_finished_with_par
from tests.server.helpers import assert_error, fetch

from .kit import END, columns, reveals, two_deal_tournament

PRACTICE_ROWS = "SELECT id, deal FROM entries WHERE tournament_id = $1 AND practice ORDER BY id"


async def test_a_deal_of_several_is_practised_as_the_entrants_played_it(api: Api, server: Any) -> None:
    made = await two_deal_tournament(api, server.ws_url)
    tid, seed, ann = made["id"], made["seed"], made["people"]["ann"]
    path = f"/api/tournaments/{tid}/practice"
    _, guest = api.register("Guest")
    assert_error(api.http.post(path, json={"deal": 2}, headers=bearer(guest)), 403, "finishes")
    made["finish"]()
    tour = wait_finished_with_par(api, tid)
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    replays = api.http.get(f"/api/tournaments/{tid}/replays").text

    # Bad asks: a plain reason each, and nothing made.
    assert_error(api.http.post(path, headers=bearer(guest)), 400, "2 deals", '"deal"')
    assert_error(api.http.post(path, json={"deal": 3}, headers=bearer(guest)), 404, "no deal 3", "2 deals")
    assert_error(api.http.post(path, json={"deal": 0}, headers=bearer(guest)), 400, "whole number from 1")
    assert_error(api.http.post(path, json={"deal": "2"}, headers=bearer(guest)), 400)
    assert_error(api.http.post(path, json={"deal": 2, "seat": 1}, headers=bearer(guest)), 400)
    assert_error(api.http.post(f"{path}?deal=two", headers=bearer(guest)), 400, "whole number from 1", "two")
    assert_error(api.http.post(f"{path}?deal=-1", headers=bearer(guest)), 400, "whole number from 1")
    assert_error(api.http.post(f"{path}?deal=%C2%B2", headers=bearer(guest)), 400, "whole number from 1")
    assert_error(api.http.post(f"{path}?deal=1", json={"deal": 2}, headers=bearer(guest)), 400, "two different")
    assert await fetch(server.database_url, PRACTICE_ROWS, tid) == []

    r = api.http.post(path, json={"deal": 2}, headers=bearer(guest))
    assert r.status_code == 201, r.text
    entry = r.json()
    assert entry["practice"] is True and (entry["deal"], entry["deals"]) == (2, 2)
    again = api.http.post(f"{path}?deal=2", headers=bearer(guest))  # open: the same one, by either way of asking
    assert again.status_code == 200 and again.json()["id"] == entry["id"], again.text
    other = api.http.post(f"{path}?deal=1", headers=bearer(guest))  # another deal: a game of its own
    assert other.status_code == 201 and other.json()["deal"] == 1 and other.json()["id"] != entry["id"], other.text

    # Deal 2 as entry 1 was dealt it (the guest has no entry: entry 1's deal, the par's).
    player, state = await Player.connect(server.ws_url, entry["id"], guest)
    assert state["practice"] is True and (state["deal"], state["deals"]) == (2, 2)
    started = await player.start()
    assert started["status"] == "playing"
    assert started["view"]["columns"] == columns(f"{seed}/2", 1) != columns(f"{seed}/1", 1)
    for move in reveals(f"{seed}/2", 1, 1):
        assert (await player.play(move))["revealed"] == 1
    await player.play(END)
    over = await player.recv()
    assert over["type"] == "over" and over["final_score"] == 25 and (over["deal"], over["deals"]) == (2, 2)
    # Deal 2's results: ann 50 ahead; bob's 25 with more time left, or less (ties go to the entrant).
    assert over["would_rank"]["of"] == 3 and over["would_rank"]["rank"] in (2, 3), over
    assert over["par"] is None  # the par is deal 1's
    again_started = await player.start()  # one deal: no next deal after it
    assert again_started["type"] == "error" and again_started["code"] == "already_started", again_started
    await player.close()

    # Deal 1, with two cards revealed: 50 beats ann's 25 there; the par is this deal's.
    over = await _play(server.ws_url, other.json()["id"], guest, reveals(f"{seed}/1", 1, 2))
    assert over["final_score"] == 50 and over["would_rank"] == {"rank": 1, "of": 3} and over["deal"] == 1
    assert over["par"] == tour["par"]

    # A ranked entrant practises its own renamed deal (bob, entry 2).
    bob = made["people"]["bob"]
    r = api.http.post(path, json={"deal": 2}, headers=bearer(bob["token"]))
    assert r.status_code == 201, r.text
    player, _ = await Player.connect(server.ws_url, r.json()["id"], bob["token"])
    started = await player.start()
    await player.close()
    assert started["view"]["columns"] == columns(f"{seed}/2", 2) != columns(f"{seed}/2", 1)

    mine = api.http.get("/api/me/practice", headers=bearer(guest)).json()
    assert [(e["deal"], e["deals"], e["status"], e["final_score"]) for e in mine] == [
        (1, 2, "ended", 50),
        (2, 2, "ended", 25),
    ]
    # Ranked nowhere: the standings and replays are as they were; the ranked entry played on.
    assert api.http.get(f"/api/tournaments/{tid}/standings").json() == standings
    assert api.http.get(f"/api/tournaments/{tid}/replays").text == replays
    assert api.http.get("/api/me/entries", headers=bearer(ann["token"])).json()[0]["id"] == ann["entry"]


async def _play(ws_url: str, entry_id: int, token: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    player, _ = await Player.connect(ws_url, entry_id, token)
    try:
        assert (await player.start())["status"] == "playing"
        for move in moves:
            assert (await player.play(move))["type"] == "result"
        await player.play(END)
        return await player.recv()
    finally:
        await player.close()


async def test_one_deal_practice_is_asked_as_before_and_refuses_a_second_deal(api: Api, server: Any) -> None:
    tid = api.create_tournament(name="one deal", seed="one-deal-practice", closes_in=2, variant="spider78")["id"]
    _, token = api.register("Solo")
    wait_finished_with_par(api, tid)
    path = f"/api/tournaments/{tid}/practice"
    assert_error(api.http.post(path, json={"deal": 2}, headers=bearer(token)), 404, "no deal 2", "one deal")
    r = api.http.post(path, headers=bearer(token))
    assert r.status_code == 201 and r.json()["deal"] is None and r.json()["deals"] == 1, r.text
    same = api.http.post(path, json={"deal": 1}, headers=bearer(token))
    assert same.status_code == 200 and same.json()["id"] == r.json()["id"], same.text
