"""Analysis per deal: each deal of an entry of a tournament of several deals is a game of its own,
analysed and stored on its own (``?deal=k``); a practice game of one deal is analysed on that deal."""

from __future__ import annotations

from typing import Any

from tests.client import Api, Player, bearer
from tests.server.competitions.practice_kit import wait_finished_with_par, wait_until
from tests.server.helpers import assert_error, fetch

from .kit import END, reveals, two_deal_tournament


def ready(api: Api, path: str, token: str) -> dict[str, Any]:
    """The analysis at ``path`` once worked out (202 until then)."""

    def asked() -> dict[str, Any] | None:
        r = api.http.get(path, headers=bearer(token))
        assert r.status_code in (200, 202), r.text
        return r.json() if r.status_code == 200 else None

    return wait_until("analysed", asked, timeout=60.0)  # type: ignore[no-any-return]


async def test_each_deal_of_an_entry_is_analysed_on_its_own(api: Api, server: Any) -> None:
    made = await two_deal_tournament(api, server.ws_url)
    tid, seed, ann = made["id"], made["seed"], made["people"]["ann"]
    _, cat = api.register("cat")
    absent = api.join(tid, cat)["id"]  # never plays
    made["finish"]()
    tour = wait_finished_with_par(api, tid)
    path = f"/api/tournaments/{tid}/entries/{ann['entry']}/analysis"
    token = ann["token"]

    assert_error(api.http.get(path, headers=bearer(token)), 400, "2 deals", "?deal=k")
    assert_error(api.http.get(f"{path}?deal=3", headers=bearer(token)), 404, "no deal 3")
    assert_error(api.http.get(f"{path}?deal=first", headers=bearer(token)), 400, "whole number from 1")
    assert_error(
        api.http.get(f"/api/tournaments/{tid}/entries/{absent}/analysis?deal=2", headers=bearer(token)),
        404,
        "never played deal 2",
    )
    assert await fetch(server.database_url, "SELECT 1 FROM analysis_claims WHERE entry_id = $1", ann["entry"]) == []

    # Deal 1: one reveal then the end (2 positions), with the par; deal 2: two reveals (3), no par.
    first = ready(api, f"{path}?deal=1", token)
    second = ready(api, f"{path}?deal=2", token)
    assert len(first["positions"]) == 2 and first["par"] == tour["par"]
    assert len(second["positions"]) == 3 and second["par"] is None
    rows = await fetch(server.database_url, "SELECT deal FROM analyses WHERE entry_id = $1 ORDER BY deal", ann["entry"])
    assert [r["deal"] for r in rows] == [1, 2]
    again = api.http.get(f"{path}?deal=2", headers=bearer(token))
    assert again.status_code == 200 and again.json() == second

    # A practice game of deal 2 is analysed on deal 2, asked with its deal or without.
    r = api.http.post(f"/api/tournaments/{tid}/practice", json={"deal": 2}, headers=bearer(cat))
    assert r.status_code == 201, r.text
    practice = r.json()["id"]
    player, _ = await Player.connect(server.ws_url, practice, cat)
    await player.start()
    for move in reveals(f"{seed}/2", 3, 1):  # cat is entry 3: its renamed deal 2
        assert (await player.play(move))["revealed"] == 1
    await player.play(END)
    assert (await player.recv())["type"] == "over"
    await player.close()
    mine = f"/api/tournaments/{tid}/entries/{practice}/analysis"
    assert_error(api.http.get(f"{mine}?deal=1", headers=bearer(cat)), 404, "deal 2 only")
    analysed = ready(api, mine, cat)
    assert len(analysed["positions"]) == 2 and analysed["par"] is None
    assert ready(api, f"{mine}?deal=2", cat) == analysed
