"""The matches' clock, with short settings: a seat not started in time is absent, a match that never
filled ends (ranked among its seats, or unmatched alone), and both survive a restart of every process."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.client import Api, Player
from tests.server.helpers import fetch
from tests.serverproc import ServerProcess

from .kit import ask, match, play, players, start_server, wait_for

START, WAIT = 2, 4


@pytest.fixture(scope="module")
def match_server(match_db: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    yield from start_server(
        match_db,
        redis_url,
        admin_token,
        redis_prefix + "c",
        MATCH_START_SECONDS=str(START),
        MATCH_WAIT_SECONDS=str(WAIT),
    )


async def test_a_seat_not_started_in_time_is_absent(mapi: Api, match_server: ServerProcess) -> None:
    (a, ta), (b, tb) = players(mapi, 2)
    host = ask(mapi, ta, "duo0")
    guest = ask(mapi, tb, "duo0")
    await play(match_server.ws_url, host["entry"]["id"], ta, reveal=True)
    done = wait_for(mapi, host["match"]["id"], "over")
    assert [(p["player_id"], p["rank"]) for p in done["players"]] == [(a, 1), (b, 2)]
    assert [p["status"] for p in done["players"]] == ["ended", "absent"]
    assert done["players"][1]["final_score"] == 0 and done["players"][1]["time_left"] == 0
    assert done["players"][1]["rating_after"] is None  # one game started: nothing rated
    # Too late to start now.
    player, _ = await Player.connect(match_server.ws_url, guest["entry"]["id"], tb)
    try:
        answer = await player.start()
        assert answer["type"] == "error" and answer["code"] in ("not_open", "already_started"), answer
    finally:
        await player.close()


async def test_alone_at_the_wait_is_unmatched_even_across_a_restart(
    mapi: Api, match_server: ServerProcess, match_db: str
) -> None:
    [(a, ta)] = players(mapi, 1)
    host = ask(mapi, ta, "duo1")
    await play(match_server.ws_url, host["entry"]["id"], ta, reveal=True)
    match_server.kill()  # every process gone: the wait lives in PostgreSQL
    time.sleep(WAIT)
    match_server.start()
    done = wait_for(mapi, host["match"]["id"], "unmatched")
    assert done["seed"] and done["salt"]
    [me] = done["players"]
    assert me["rank"] is None and me["rating_after"] is None and me["final_score"] is not None
    assert await fetch(match_db, "SELECT 1 FROM ratings WHERE player_id = $1", a) == []
    assert ask(mapi, ta, "duo1")["match"]["id"] != host["match"]["id"]  # no longer seating


async def test_unfilled_at_the_wait_is_ranked_among_its_seats(mapi: Api, match_server: ServerProcess) -> None:
    (a, ta), (b, tb) = players(mapi, 2)
    host, guest = ask(mapi, ta, "trio"), ask(mapi, tb, "trio")
    assert guest["match"]["id"] == host["match"]["id"]
    await play(match_server.ws_url, guest["entry"]["id"], tb, reveal=True)
    await play(match_server.ws_url, host["entry"]["id"], ta)
    assert match(mapi, host["match"]["id"])["status"] == "waiting"  # a seat is free until the wait ends
    done = wait_for(mapi, host["match"]["id"], "over")
    assert [(p["player_id"], p["rank"]) for p in done["players"]] == [(a, 2), (b, 1)]
    assert all(p["rating_after"] is not None for p in done["players"])
