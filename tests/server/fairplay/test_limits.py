"""Registering and joining are limited per client address, by one bucket in Redis that every server
process shares; the forwarded address counts only behind a proxy the operator trusts."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import httpx
import pytest

from tests.client import Api, bearer
from tests.serverproc import ServerProcess
from tests.services import unique_name

# Tiny limits so that the test meets them at once: 4 registrations, then one every 10 s; 2 joins.
LIMITS = {"REGISTER_PER_MINUTE": "6", "REGISTER_BURST": "4", "JOIN_PER_MINUTE": "6", "JOIN_BURST": "2"}
CLIENT = "203.0.113.9"  # documentation addresses (RFC 5737), as a proxy would forward them
OTHER = "198.51.100.7"


@pytest.fixture(scope="module")
def two(database_url: str, redis_url: str, admin_token: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two processes on one PostgreSQL and one Redis: A trusts no proxy, B trusts 127.0.0.1 (the tests)."""
    env = {"REDIS_PREFIX": unique_name("fs_limits"), **LIMITS}
    a = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    b = ServerProcess(database_url, redis_url, admin_token, env={**env, "TRUSTED_PROXIES": "127.0.0.1/32"}).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def register(server: ServerProcess, name: str, forwarded: str | None = None) -> httpx.Response:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    return httpx.post(f"{server.url}/api/players", json={"name": name}, headers=headers, timeout=10)


def assert_limited(r: httpx.Response, what: str) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/json")
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= 10
    body = r.json()
    assert body["status_code"] == 429 and f"too many {what} from your address" in body["detail"]
    assert body["extra"]["retry_after"] == retry
    return body  # type: ignore[no-any-return]


async def test_the_limit_holds_across_two_processes(
    two: tuple[ServerProcess, ServerProcess], database_url: str
) -> None:
    a, b = two
    # 127.0.0.1 as itself on both: one bucket, whichever process answers.
    answers = [register(server, f"crowd-{i}").status_code for i, server in enumerate((a, b, a, b))]
    assert answers == [201, 201, 201, 201]
    assert_limited(register(a, "fifth"), "registrations")
    assert_limited(register(b, "fifth again"), "registrations")
    # A trusts no proxy: a forwarded address sent by the client itself changes nothing.
    assert_limited(register(a, "pretender", forwarded=CLIENT), "registrations")
    # B trusts 127.0.0.1 as a proxy: the address it forwards has a bucket of its own.
    made = register(b, "behind a proxy", forwarded=f"{OTHER}, {CLIENT}")
    assert made.status_code == 201, made.text

    conn = await asyncpg.connect(database_url)
    try:
        key = await conn.fetchval("SELECT value FROM server_secrets WHERE name = 'address_key'")
        stored = await conn.fetchval("SELECT address_hash FROM players WHERE id = $1", made.json()["id"])
        dump = await conn.fetchval("SELECT string_agg(p::text, ' ') FROM players p")
    finally:
        await conn.close()
    # The right-most untrusted forwarded address is the client's; only its keyed hash is kept.
    assert bytes(stored) == hmac.new(key, CLIENT.encode(), hashlib.sha256).digest()
    assert CLIENT not in dump and OTHER not in dump and "127.0.0.1" not in dump


async def test_joining_is_limited_per_address(two: tuple[ServerProcess, ServerProcess], admin_token: str) -> None:
    a, b = two
    api = Api(a.url, admin_token)
    tour = api.create_tournament(name="limited joins", variant="spider78", suits=2)
    tokens = []
    for i in range(3):  # registered from three addresses (through B's trusted proxy), so no registration limit
        r = register(b, f"joiner-{i}", forwarded=f"192.0.2.{10 + i}")
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    joined = [
        httpx.post(f"{server.url}/api/tournaments/{tour['id']}/entries", headers=bearer(token), timeout=10)
        for server, token in zip((a, b, a), tokens, strict=True)
    ]
    assert [r.status_code for r in joined[:2]] == [201, 201], [r.text for r in joined]
    assert_limited(joined[2], "joins")
    assert api.tournament(tour["id"])["entrants"] == 2  # the refused join changed nothing


async def test_a_wrong_entry_code_costs_an_extra_join(
    two: tuple[ServerProcess, ServerProcess], admin_token: str
) -> None:
    """A join with a wrong entry code takes two of the address's joins (guessing codes is slow):
    with a burst of 2, one wrong code leaves none, so even the right code waits."""
    _, b = two
    api = Api(b.url, admin_token)
    closes = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    body = {"name": "coded joins", "settings": {"variant": "spider78"}, "closes_at": closes, "entry_code": "frog-42"}
    created = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert created.status_code == 201, created.text
    tour = created.json()
    address = "192.0.2.99"  # an address of its own (through B's trusted proxy)
    token = register(b, "guesser", forwarded="192.0.2.98").json()["token"]
    headers = {**bearer(token), "x-forwarded-for": address}
    url = f"{b.url}/api/tournaments/{tour['id']}/entries"
    wrong = httpx.post(url, json={"entry_code": "toad-17"}, headers=headers, timeout=10)
    assert wrong.status_code == 403 and "wrong entry code" in wrong.json()["detail"]
    right = httpx.post(url, json={"entry_code": "frog-42"}, headers=headers, timeout=10)
    assert_limited(right, "joins")
    assert api.tournament(tour["id"])["entrants"] == 0
    # From another address the right code is let in at once.
    other = httpx.post(
        url, json={"entry_code": "frog-42"}, headers={**bearer(token), "x-forwarded-for": OTHER}, timeout=10
    )
    assert other.status_code == 201, other.text
