"""Redis busy is not Redis down: with every pooled connection in use a command waits for one, and
past the wait the client raises PoolBusy, told apart from a Redis out of reach. And the sign-in
lockout does not depend on Redis at all: with Redis cut, failed sign-ins are still counted and a
locked handle stays locked, even for its right password."""

from __future__ import annotations

import asyncio
import secrets

import httpx
import pytest

from spidertour.server.storage.redis_client import REDIS_FAILURES, PoolBusy, connect
from tests.conftest import server_env
from tests.faults.proxy import TcpProxy
from tests.serverproc import ServerProcess, free_port
from tests.services import unique_name

PER_HANDLE = 3


async def test_a_busy_pool_waits_and_is_told_apart_from_an_outage(redis_url: str) -> None:
    redis = connect(redis_url, pool_size=4)
    channel = unique_name("busy")
    held = [redis.pubsub() for _ in range(4)]  # a subscription keeps its connection
    try:
        for pubsub in held:
            await pubsub.subscribe(channel)
        waiting = asyncio.ensure_future(redis.ping())
        await asyncio.sleep(0.3)
        assert not waiting.done()  # waiting for a connection, not failed
        await held.pop().aclose()  # one comes back: the command gets it
        assert await waiting is True
        held.append(redis.pubsub())
        await held[-1].subscribe(channel)
        with pytest.raises(PoolBusy):  # none comes back within POOL_WAIT
            await redis.ping()
    finally:
        for pubsub in held:
            await pubsub.aclose()
        await redis.aclose()
    down = connect(f"redis://127.0.0.1:{free_port()}/0", pool_size=4)  # nothing listens there
    try:
        with pytest.raises(REDIS_FAILURES) as refused:
            await down.ping()
        assert not isinstance(refused.value, PoolBusy)
    finally:
        await down.aclose()


def sign_in(proc: ServerProcess, handle: str, password: str) -> int:
    r = httpx.post(f"{proc.url}/api/sessions", json={"handle": handle, "password": password}, timeout=15)
    return r.status_code


def test_the_lockout_holds_while_redis_is_cut(database_url: str, redis_url: str, admin_token: str) -> None:
    env = {**server_env(unique_name("signin_cut")), "SIGNIN_FAILURES_PER_HANDLE": str(PER_HANDLE)}
    with TcpProxy.for_redis(redis_url) as proxy:
        proc = ServerProcess(database_url, proxy.url, admin_token, env=env).start()
        try:
            h = "r" + secrets.token_hex(5)
            made = httpx.post(
                f"{proc.url}/api/players", json={"name": "R", "handle": h, "password": "the right one"}, timeout=10
            )
            assert made.status_code == 201, made.text
            proxy.cut()
            assert [sign_in(proc, h, "a wrong one") for _ in range(PER_HANDLE + 1)] == [401] * PER_HANDLE + [429]
            assert sign_in(proc, h, "the right one") == 429
            proxy.restore()
            assert sign_in(proc, h, "the right one") == 429  # and still locked once Redis is back
        finally:
            proc.stop()
