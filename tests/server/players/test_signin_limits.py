"""Failed sign-ins are limited per handle and per client address: 429 with Retry-After, and while
a handle is locked even its right password waits."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

PER_HANDLE, PER_ADDRESS, WINDOW = 3, 6, 120


@pytest.fixture(scope="module")
def strict(database_url: str, redis_url: str, admin_token: str, server: ServerProcess) -> Iterator[ServerProcess]:
    """A server with low sign-in limits, trusting the tests (127.0.0.1) as its proxy, so that each
    test signs in from addresses of its own (``server``: the database is migrated)."""
    env = {
        **server_env(unique_name("signin")),
        "TRUSTED_PROXIES": "127.0.0.1/32",
        "SIGNIN_FAILURES_PER_HANDLE": str(PER_HANDLE),
        "SIGNIN_FAILURES_PER_ADDRESS": str(PER_ADDRESS),
        "SIGNIN_WINDOW_SECONDS": str(WINDOW),
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


def account(proc: ServerProcess, password: str) -> str:
    h = "l" + secrets.token_hex(5)
    r = httpx.post(f"{proc.url}/api/players", json={"name": "Lim", "handle": h, "password": password}, timeout=10)
    assert r.status_code == 201, r.text
    return h


def sign_in(proc: ServerProcess, address: str, handle: str, password: str) -> httpx.Response:
    return httpx.post(
        f"{proc.url}/api/sessions",
        json={"handle": handle, "password": password},
        headers={"x-forwarded-for": address},
        timeout=10,
    )


def assert_locked(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    seconds = int(r.headers["retry-after"])
    assert 0 < seconds <= WINDOW
    assert r.json()["detail"] == f"too many failed sign-ins: try again in {seconds} s"


def test_a_handle_is_locked_after_its_failures_even_for_the_right_password(strict: ServerProcess) -> None:
    h = account(strict, "the right one")
    other = account(strict, "the right one")
    # Failures from different addresses all count for the handle.
    codes = [sign_in(strict, f"198.51.100.{i}", h, "a wrong one").status_code for i in range(PER_HANDLE)]
    assert codes == [401] * PER_HANDLE
    assert_locked(sign_in(strict, "198.51.100.50", h, "the right one"))
    assert_locked(sign_in(strict, "198.51.100.51", h.upper(), "a wrong one"))  # the same handle, folded
    # Another handle, from the same addresses, is not locked.
    assert sign_in(strict, "198.51.100.0", other, "the right one").status_code == 201


def test_an_unknown_handle_is_locked_like_a_known_one(strict: ServerProcess) -> None:
    nobody = "n" + secrets.token_hex(5)
    codes = [sign_in(strict, f"198.51.101.{i}", nobody, "whatever it is").status_code for i in range(PER_HANDLE + 1)]
    assert codes == [401] * PER_HANDLE + [429]


def test_an_address_is_locked_after_its_failures(strict: ServerProcess) -> None:
    h = account(strict, "the right one")
    address = "203.0.113.9"
    for _ in range(PER_ADDRESS):  # a new handle each time: no handle reaches its own limit
        assert sign_in(strict, address, "g" + secrets.token_hex(5), "a guess, wrong").status_code == 401
    assert_locked(sign_in(strict, address, h, "the right one"))
    assert sign_in(strict, "203.0.113.10", h, "the right one").status_code == 201  # another address


def test_a_success_clears_the_handles_failures(strict: ServerProcess) -> None:
    h = account(strict, "the right one")
    for _ in range(2):
        for i in range(PER_HANDLE - 1):
            assert sign_in(strict, f"198.51.102.{i}", h, "a wrong one").status_code == 401
        assert sign_in(strict, "198.51.102.99", h, "the right one").status_code == 201
