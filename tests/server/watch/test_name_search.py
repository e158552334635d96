"""A name search (``?name=``) of a running and of a finished tournament's standings finds the names
that hold the text, LIKE's wildcards and its escape character taken as the plain characters they are."""

from __future__ import annotations

import time
from typing import Any

from tests.client import Api

NAMES = ["50%_off\\x", "50 off", "5_0 Ada", "ADA lovelace"]
SEARCHES = {
    "%_": ["50%_off\\x"],
    "_": ["50%_off\\x", "5_0 Ada"],
    "\\": ["50%_off\\x"],
    "ada": ["5_0 Ada", "ADA lovelace"],
}


def _found(api: Api, tid: int, text: str) -> list[str]:
    board = api.http.get(f"/api/tournaments/{tid}/leaderboard", params={"name": text}).json()
    assert board["found"] == len(board["rows"])
    return sorted(r["player"] for r in board["rows"])


def test_names_with_wildcards_are_found_as_written(api: Api) -> None:
    running = api.create_tournament(name="names-running", seed="names", variant="spider78", suits=1)
    finishing = api.create_tournament(name="names-finished", seed="names", closes_in=3, variant="spider78", suits=1)
    for name in NAMES:
        _, token = api.register(name)
        for tour in (running, finishing):
            api.join(tour["id"], token)
    deadline = time.monotonic() + 30
    while api.tournament(finishing["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the tournament did not finish"
        time.sleep(0.3)
    for tour in (running, finishing):
        for text, names in SEARCHES.items():
            assert _found(api, tour["id"], text) == sorted(names), (tour["name"], text)
        assert _found(api, tour["id"], "%") == ["50%_off\\x"]


def test_the_search_says_none_found_plainly(api: Api) -> None:
    tour: dict[str, Any] = api.create_tournament(name="names-none", seed="names", variant="spider78", suits=1)
    board = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard", params={"name": "%%"}).json()
    assert board["rows"] == [] and board["found"] == 0
