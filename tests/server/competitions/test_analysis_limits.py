"""Who may have a game analysed, how many, and in what order the solver's worker serves its jobs:
a player's token needed, an allowance per player and per address, certifications and pars before
analyses. Against a server of its own whose allowances are small (the addresses forwarded by a
trusted proxy, so that each player may come from an address of its own)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.client import Api, bearer
from tests.conftest import server_env
from tests.server.helpers import assert_error, fetch, stamp, unique
from tests.serverproc import ServerProcess

from .practice_kit import ONE_SUIT, play, reveals, wait_finished_with_par

SEED = "analysis-limits"
FOUR_SUITS: dict[str, Any] = {"variant": "spider", "suits": 4}  # no position decided within the budget
ENTRANTS = 12


@pytest.fixture(scope="module")
def limited(database_url: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    env = {
        **server_env(redis_prefix),
        "TRUSTED_PROXIES": "127.0.0.1",
        "ANALYSIS_PER_MINUTE": "0.01",
        "ANALYSIS_BURST": "2",
        "ANALYSIS_ADDRESS_PER_MINUTE": "0.01",
        "ANALYSIS_ADDRESS_BURST": "3",
        "ANALYSIS_SECONDS": "0.5",
        "ANALYSIS_TOTAL_SECONDS": "1",  # each analysis holds the worker about a second
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def finished(limited: ServerProcess, admin_token: str) -> tuple[Api, int, list[int]]:
    """A finished four-suit tournament whose entrants each played two moves: (api, id, entries)."""
    api = Api(limited.url, admin_token)
    tid = api.create_tournament(name=unique("limits"), seed=SEED, closes_in=6, **FOUR_SUITS)["id"]
    two = reveals(SEED, 2, **FOUR_SUITS)

    async def everyone() -> list[int]:
        entries = []
        for i in range(ENTRANTS):
            _, token = api.register(f"p{i}")
            entry = api.join(tid, token)["id"]
            await play(api, limited.ws_url, entry, token, two)
            entries.append(entry)
        return entries

    entries = asyncio.run(everyone())
    wait_finished_with_par(api, tid)
    return api, tid, entries


def ask(api: Api, tid: int, entry: int, token: str | None, address: str) -> Any:
    headers = {"x-forwarded-for": address, **(bearer(token) if token else {})}
    return api.http.get(f"/api/tournaments/{tid}/entries/{entry}/analysis", headers=headers)


async def test_an_analysis_needs_a_token_and_each_player_and_address_an_allowance(
    finished: tuple[Api, int, list[int]], limited: ServerProcess
) -> None:
    api, tid, entries = finished
    assert_error(ask(api, tid, entries[0], None, "10.0.1.1"), 401)
    assert_error(ask(api, tid, entries[0], "not-a-token", "10.0.1.1"), 401)
    assert_error(ask(api, 999_999_999, entries[0], None, "10.0.1.1"), 401)
    assert await fetch(limited.database_url, "SELECT 1 FROM analysis_claims WHERE entry_id = $1", entries[0]) == []

    _, one = api.register("Curious")  # two at once, then one a hundred minutes
    assert ask(api, tid, entries[0], one, "10.0.1.1").status_code == 202
    assert ask(api, tid, entries[1], one, "10.0.1.1").status_code == 202
    assert ask(api, tid, entries[0], one, "10.0.1.1").status_code in (200, 202)  # under way or stored: free
    refused = ask(api, tid, entries[2], one, "10.0.1.9")  # another address: the player's own allowance
    body = assert_error(refused, 429, "too many analyses asked for by you")
    assert int(refused.headers["retry-after"]) > 0 and body["extra"]["limit"] == "analysis"

    _, two = api.register("Neighbour")  # the address has started two of its three
    assert ask(api, tid, entries[3], two, "10.0.1.1").status_code == 202
    refused = ask(api, tid, entries[4], two, "10.0.1.1")
    body = assert_error(refused, 429, "too many analyses from your address")
    assert body["extra"]["limit"] == "analysis_address"
    # Refused, it was not started: asked from elsewhere, it is.
    _, three = api.register("Elsewhere")
    assert ask(api, tid, entries[4], three, "10.0.1.2").status_code == 202

    # A game longer than an analysis covers: 409, nothing charged.
    await fetch(limited.database_url, "UPDATE entries SET moves = 20001 WHERE id = $1", entries[5])
    assert_error(ask(api, tid, entries[5], three, "10.0.1.2"), 409, "at most 20,000 moves")
    assert ask(api, tid, entries[6], three, "10.0.1.2").status_code == 202


async def test_a_certification_queued_behind_analyses_is_served_first(
    finished: tuple[Api, int, list[int]], limited: ServerProcess
) -> None:
    """Six analyses asked for (about a second of the worker each), then a certified tournament: it
    is certified after the analysis running, before the five waiting."""
    api, tid, entries = finished
    mine = entries[-6:]
    for k in range(3):
        _, token = api.register(f"Reader {k}")
        for entry in mine[2 * k : 2 * k + 2]:
            assert ask(api, tid, entry, token, f"10.0.2.{k}").status_code == 202
    body = {
        "name": unique("certified"),
        "settings": ONE_SUIT,
        "certified": True,
        "certify_seconds": 5,
        "closes_at": stamp(3600),
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin(), timeout=120)  # however long it waits
    assert r.status_code == 201 and r.json()["certified"], r.text
    stored = "SELECT count(*) AS n FROM analyses WHERE entry_id = ANY($1::bigint[])"
    then = (await fetch(limited.database_url, stored, mine))[0]["n"]
    assert then <= 2, f"{then} of the 6 analyses were done before the certification"

    for _ in range(300):  # then every one of them (the worker is free again)
        if (await fetch(limited.database_url, stored, mine))[0]["n"] == 6:
            break
        await asyncio.sleep(0.2)
    assert (await fetch(limited.database_url, stored, mine))[0]["n"] == 6
