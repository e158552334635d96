"""Sign-in limits under load: an attempt is counted before its password is checked, so parallel
guesses get no more checks than the limit; the lockout is kept in PostgreSQL, so a flood that keeps
every Redis connection busy does not open it. Also: the quota of sessions per player, a password
hashed only when nothing cheaper refuses the request, and handles that end in a newline."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.client import bearer
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

PER_HANDLE, WINDOW, SESSIONS = 10, 120, 3


@pytest.fixture(scope="module")
def crowded(database_url: str, redis_url: str, admin_token: str, server: ServerProcess) -> Iterator[ServerProcess]:
    """A small Redis pool, 10 failures a handle, 3 sessions a player; 127.0.0.1 trusted as the
    proxy, so that requests come from addresses of the test's choosing (``server``: the database is
    migrated)."""
    env = {
        **server_env(unique_name("crowded")),
        "TRUSTED_PROXIES": "127.0.0.1/32",
        "SIGNIN_FAILURES_PER_HANDLE": str(PER_HANDLE),
        "SIGNIN_FAILURES_PER_ADDRESS": "100000",
        "SIGNIN_WINDOW_SECONDS": str(WINDOW),
        "SESSIONS_PER_PLAYER": str(SESSIONS),
        "REDIS_POOL_SIZE": "4",
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


def account(proc: ServerProcess, password: str = "the right one") -> tuple[str, str]:
    """A new account: its handle and its first token."""
    h = "c" + secrets.token_hex(5)
    r = httpx.post(f"{proc.url}/api/players", json={"name": "Crowd", "handle": h, "password": password}, timeout=10)
    assert r.status_code == 201, r.text
    return h, r.json()["token"]


def guest(proc: ServerProcess) -> str:
    r = httpx.post(f"{proc.url}/api/players", json={"name": "Guest"}, timeout=10)
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


async def sign_in(client: httpx.AsyncClient, address: str, handle: str, password: str) -> httpx.Response:
    body = {"handle": handle, "password": password}
    return await client.post("/api/sessions", json=body, headers={"x-forwarded-for": address})


def client_of(proc: ServerProcess, connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=proc.url, timeout=60, limits=limits)


def hashes(proc: ServerProcess) -> dict[str, float]:
    """The process's argon2 operations so far, by kind (hash, verify)."""
    text = httpx.get(f"{proc.url}/metrics", timeout=10).text
    found = re.findall(r'^spidertour_password_hashes_total\{kind="(\w+)"\} ([0-9.e+]+)$', text, re.MULTILINE)
    assert found, "no spidertour_password_hashes_total in /metrics"
    return {kind: float(n) for kind, n in found}


async def test_forty_parallel_guesses_get_only_the_limit_checked(crowded: ServerProcess) -> None:
    h, _ = account(crowded)
    async with client_of(crowded, 40) as client:
        answers = await asyncio.gather(*(sign_in(client, f"198.51.100.{i}", h, "a wrong one") for i in range(40)))
        statuses = Counter(r.status_code for r in answers)
        assert statuses == {401: PER_HANDLE, 429: 40 - PER_HANDLE}
        locked = await sign_in(client, "198.51.100.200", h, "the right one")
    assert locked.status_code == 429, locked.text
    assert 0 < int(locked.headers["retry-after"]) <= WINDOW


async def test_a_locked_handle_stays_locked_amid_a_flood(crowded: ServerProcess) -> None:
    h, _ = account(crowded)
    async with client_of(crowded, 400) as client:
        for i in range(PER_HANDLE):
            assert (await sign_in(client, f"198.51.101.{i}", h, "a wrong one")).status_code == 401
        flood = [client.post("/api/players", json={"name": "flood"}) for _ in range(300)]
        right = [sign_in(client, f"198.51.102.{i}", h, "the right one") for i in range(10)]
        answers = await asyncio.gather(*flood, *right)
    assert [r.status_code for r in answers[300:]] == [429] * 10
    # The flood itself is served, or told the server is busy (its 4 Redis connections all in use
    # for the pool's wait, as on a machine short of CPU): never anything else.
    flooded = Counter(r.status_code for r in answers[:300])
    assert flooded[201] > 0 and set(flooded) <= {201, 503}, flooded
    assert all("busy" in r.json()["detail"] and r.headers["retry-after"] for r in answers[:300] if r.status_code == 503)


def test_a_player_keeps_its_newest_sessions_only(crowded: ServerProcess) -> None:
    h, first = account(crowded)
    tokens = [first]
    for _ in range(SESSIONS + 1):
        r = httpx.post(f"{crowded.url}/api/sessions", json={"handle": h, "password": "the right one"}, timeout=10)
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    me = [httpx.get(f"{crowded.url}/api/me", headers=bearer(t), timeout=10).status_code for t in tokens]
    assert me == [401] * (len(tokens) - SESSIONS) + [200] * SESSIONS


def test_a_taken_handle_or_an_account_is_refused_before_any_hashing(crowded: ServerProcess) -> None:
    taken, token = account(crowded)
    before = hashes(crowded)
    for _ in range(5):
        r = httpx.patch(
            f"{crowded.url}/api/me",
            json={"handle": taken, "password": "a password"},
            headers=bearer(guest(crowded)),
            timeout=10,
        )
        assert r.status_code == 409 and "is taken" in r.json()["detail"], r.text
        r = httpx.patch(
            f"{crowded.url}/api/me",
            json={"handle": "f" + secrets.token_hex(5), "password": "a password"},
            headers=bearer(token),
            timeout=10,
        )
        assert r.status_code == 409 and "an account already" in r.json()["detail"], r.text
    assert hashes(crowded) == before


async def test_one_guest_upgrading_in_parallel_is_hashed_a_few_times_only(crowded: ServerProcess) -> None:
    token = guest(crowded)
    before = hashes(crowded).get("hash", 0.0)
    bodies = [{"handle": "u" + secrets.token_hex(5), "password": "a password"} for _ in range(30)]
    async with client_of(crowded, 30) as client:
        answers = await asyncio.gather(*(client.patch("/api/me", json=b, headers=bearer(token)) for b in bodies))
    statuses = Counter(r.status_code for r in answers)
    assert statuses[200] == 1 and set(statuses) <= {200, 409, 429} and statuses[429] >= 20, statuses
    assert hashes(crowded).get("hash", 0.0) - before <= 30 - statuses[429]


@pytest.mark.parametrize("where", ["register", "upgrade", "sign in"])
def test_a_handle_ending_in_a_newline_is_refused(crowded: ServerProcess, where: str) -> None:
    handle = "n" + secrets.token_hex(4) + "\n"
    if where == "register":
        r = httpx.post(
            f"{crowded.url}/api/players", json={"name": "N", "handle": handle, "password": "a password"}, timeout=10
        )
    elif where == "upgrade":
        r = httpx.patch(
            f"{crowded.url}/api/me",
            json={"handle": handle, "password": "a password"},
            headers=bearer(guest(crowded)),
            timeout=10,
        )
    else:
        r = httpx.post(f"{crowded.url}/api/sessions", json={"handle": handle, "password": "a password"}, timeout=10)
    assert r.status_code == 400, r.text
    assert "handle" in r.text
