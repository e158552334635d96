"""What the per-address limits count: an IPv6 client by its /64 (one host commonly holds a whole
/64), an IPv4-mapped address as its IPv4 one, and a forwarded value that is no address as the peer's
own, so junk in X-Forwarded-For makes no bucket of its own."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import redis

from tests.serverproc import ServerProcess
from tests.services import unique_name

BURST = 4
LIMITS = {"REGISTER_PER_MINUTE": "6", "REGISTER_BURST": str(BURST), "JOIN_PER_MINUTE": "6", "JOIN_BURST": "2"}


@pytest.fixture
def behind_proxy(database_url: str, redis_url: str, admin_token: str) -> Iterator[tuple[ServerProcess, str]]:
    """A server that trusts 127.0.0.1 (the tests) as its proxy, with a Redis prefix of its own."""
    prefix = unique_name("fs_buckets")
    env = {"REDIS_PREFIX": prefix, "TRUSTED_PROXIES": "127.0.0.1/32", **LIMITS}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc, prefix
    finally:
        proc.stop()


def register(proc: ServerProcess, forwarded: str) -> int:
    r = httpx.post(
        f"{proc.url}/api/players", json={"name": "bucket"}, headers={"x-forwarded-for": forwarded}, timeout=10
    )
    assert r.status_code in (201, 429), r.text
    return r.status_code


def buckets(redis_url: str, prefix: str) -> int:
    client = redis.Redis.from_url(redis_url)
    try:
        return len(list(client.scan_iter(f"{prefix}:limit:register:*")))
    finally:
        client.close()


def test_an_ipv6_client_is_counted_by_its_64(behind_proxy: tuple[ServerProcess, str], redis_url: str) -> None:
    proc, prefix = behind_proxy
    same_64 = [f"2001:db8:1:2::{i:x}" for i in range(1, BURST + 1)] + ["2001:db8:1:2:ffff:ffff:ffff:ffff"]
    assert [register(proc, a) for a in same_64] == [201] * BURST + [429]
    assert register(proc, "2001:db8:1:3::1") == 201  # the next /64 is someone else
    assert buckets(redis_url, prefix) == 2
    # An IPv4 address and the same address mapped into IPv6 are one client.
    v4 = "203.0.113.77"
    assert [register(proc, a) for a in [v4, f"::ffff:{v4}"] * 2] == [201] * BURST
    assert register(proc, f"::ffff:{v4}") == 429
    assert buckets(redis_url, prefix) == 3


def test_junk_forwarded_values_make_no_buckets(behind_proxy: tuple[ServerProcess, str], redis_url: str) -> None:
    proc, prefix = behind_proxy
    junk = ["junk-1", "not an address", "1.2.3.4.5", "[::1]:80", "999.1.1.1", "0x7f.1", "203.0.113.5:8080"]
    answers = [register(proc, j) for j in junk]
    # Every one is the peer's (the proxy's) own address: one bucket, the burst, then refusals.
    assert answers == [201] * BURST + [429] * (len(junk) - BURST)
    assert buckets(redis_url, prefix) == 1
    assert register(proc, "198.51.100.8") == 201  # a real forwarded address still has its own
    assert buckets(redis_url, prefix) == 2
