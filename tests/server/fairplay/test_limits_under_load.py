"""The per-address limits hold under a crowd of concurrent requests: a Redis pool with every
connection in use makes a request wait for one, it never counts as Redis being down (which
would let the request through). The server here has a pool of 4 connections, so that a few
hundred requests at once keep it busy."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.client import Api, bearer
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

REGISTER_BURST, JOIN_BURST = 120, 40
CROWD = 300


@pytest.fixture(scope="module")
def busy(database_url: str, redis_url: str, admin_token: str, server: ServerProcess) -> Iterator[ServerProcess]:
    """Bursts of 120 registrations and 40 joins, then almost nothing (``server``: the database is migrated)."""
    env = {
        **server_env(unique_name("busy")),
        "REGISTER_PER_MINUTE": "0.01",
        "REGISTER_BURST": str(REGISTER_BURST),
        "JOIN_PER_MINUTE": "0.01",
        "JOIN_BURST": str(JOIN_BURST),
        "REDIS_POOL_SIZE": "4",
        "TRUSTED_PROXIES": "127.0.0.1/32",  # each test from an address of its own
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


async def at_once(
    url: str, address: str, count: int, path: str, body: dict[str, object], token: str | None = None
) -> Counter[int]:
    """``count`` POSTs from ``address`` sent together, each on a connection of its own: their
    statuses counted."""
    headers = {"x-forwarded-for": address, **(bearer(token) if token else {})}
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        answers = await asyncio.gather(*(client.post(path, json=body, headers=headers) for _ in range(count)))
    return Counter(r.status_code for r in answers)


async def test_a_crowd_of_registrations_meets_the_burst_exactly(busy: ServerProcess) -> None:
    statuses = await at_once(busy.url, "203.0.113.1", CROWD, "/api/players", {"name": "crowd"})
    assert statuses == {201: REGISTER_BURST, 429: CROWD - REGISTER_BURST}


async def test_a_crowd_of_wrong_entry_codes_is_checked_within_the_allowance(
    busy: ServerProcess, admin_token: str
) -> None:
    api = Api(busy.url, admin_token)
    token = api.register("guesser")[1]
    now = datetime.now(UTC)
    body = {
        "name": "coded",
        "settings": {"variant": "spider78", "suits": 1},
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        "entry_code": "the right one",
    }
    made = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert made.status_code == 201, made.text
    path = f"/api/tournaments/{made.json()['id']}/entries"
    statuses = await at_once(busy.url, "203.0.113.2", CROWD, path, {"entry_code": "wrong"}, token=token)
    # Each request takes a join from the allowance, a wrong code a second one: the code is
    # checked for JOIN_BURST of them at most (about half of that), the others answered 429.
    assert set(statuses) == {403, 429}, statuses
    assert statuses[403] <= JOIN_BURST
