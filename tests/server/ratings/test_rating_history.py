"""A player's rating history (docs/competitions.md, Ratings): every rated tournament it played
leaves its rating before and after, as shown (1,000 for a new player), served per game with the
change; the profile says the same numbers and marks a rating provisional under five rated games."""

from __future__ import annotations

from typing import Any

from spidertour.server.competitions.rating_scale import shown
from tests.client import Api, bearer
from tests.server.competitions.rating_kit import ONE_SUIT, Plan, finished, players, profile
from tests.server.helpers import assert_error

GAME = "spider78/2"


def history(api: Api, player_id: int, token: str | None = None) -> dict[str, Any]:
    r = api.http.get(f"/api/players/{player_id}/ratings/history", headers=bearer(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_each_rated_tournament_leaves_the_rating_before_and_after(api: Api, server: Any) -> None:
    (a, ta), (b, tb) = players(api, 2)
    first = await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)])
    second = await finished(api, server.ws_url, [Plan(tb, reveal=True), Plan(ta)])
    unrated = await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)], rated=False)
    await finished(api, server.ws_url, [Plan(ta), Plan(tb, reveal=True)], ONE_SUIT)

    found = history(api, a)
    assert found["player_id"] == a and found["provisional_games"] == 5
    assert set(found["history"]) == {GAME, "spider78/1"}  # one line per game; the unrated one in none
    points = found["history"][GAME]
    assert [p["tournament_id"] for p in points] == [first["id"], second["id"]]  # oldest first
    assert unrated["id"] not in [p["tournament_id"] for p in points]
    one, two = points
    assert one["before"] == 1000 and one["after"] > 1000 and one["rank"] == 1 and one["entrants"] == 2
    assert two["before"] == one["after"] and two["after"] < two["before"] and two["rank"] == 2
    for p in points:
        assert p["change"] == p["after"] - p["before"] and p["provisional"] is True
    assert [p["games"] for p in points] == [1, 2]
    assert one["tournament"] == first["name"] and one["finished_at"] == first["finished_at"]

    # The profile says the same: the rating shown is the last point's, provisional; each result its change.
    mine = profile(api, a)
    rating = mine["ratings"][GAME]
    assert rating["rating"] == two["after"] == shown(rating["ordinal"]) and rating["provisional"] is True
    by_tournament = {r["tournament_id"]: r for r in mine["recent"]}
    assert (by_tournament[second["id"]]["shown"], by_tournament[second["id"]]["change"]) == (
        two["after"],
        two["change"],
    )
    assert by_tournament[first["id"]]["change"] == one["change"] > 0
    assert by_tournament[unrated["id"]]["shown"] is None and by_tournament[unrated["id"]]["change"] is None
    # The other player's history mirrors it.
    theirs = history(api, b)["history"][GAME]
    assert theirs[0]["before"] == 1000 and theirs[0]["change"] < 0 < theirs[1]["change"]


async def test_provisional_until_five_rated_games(api: Api, server: Any) -> None:
    (a, ta), (_, tb) = players(api, 2)
    for _ in range(4):
        await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)])
    assert profile(api, a)["ratings"][GAME]["provisional"] is True
    await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)])
    rating = profile(api, a)["ratings"][GAME]
    assert rating["games"] == 5 and rating["provisional"] is False
    points = history(api, a)["history"][GAME]
    assert [p["provisional"] for p in points] == [True, True, True, True, False]
    assert all(p["change"] > 0 for p in points) and points[-1]["after"] == rating["rating"]


async def test_an_unlisted_tournament_counts_unnamed_for_strangers(api: Api, server: Any) -> None:
    (a, ta), (_, tb) = players(api, 2)
    hidden = await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)], listed=False)
    assert hidden["listed"] is False
    stranger = history(api, a)["history"][GAME]
    assert len(stranger) == 1 and stranger[0]["tournament_id"] is None and stranger[0]["tournament"] is None
    assert stranger[0]["change"] > 0  # the point still counts: the graph has no gap
    own = history(api, a, ta)["history"][GAME]
    assert own[0]["tournament_id"] == hidden["id"] and own[0]["tournament"] == hidden["name"]


def test_no_history_for_an_unknown_player(api: Api) -> None:
    (a, _), *_ = players(api, 1)
    assert history(api, a) == {"player_id": a, "provisional_games": 5, "history": {}}
    for bad in ("999999999", "0"):
        assert_error(api.http.get(f"/api/players/{bad}/ratings/history"), 404, "no player")
    for bad in ("abc", "-3"):  # not a player's number: no route
        assert_error(api.http.get(f"/api/players/{bad}/ratings/history"), 404)
