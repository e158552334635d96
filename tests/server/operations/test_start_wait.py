"""A server started before its PostgreSQL answers waits for it (a bounded while), then serves."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.conftest import server_env
from tests.faults.proxy import TcpProxy
from tests.serverproc import ServerProcess


def test_the_server_waits_for_a_postgresql_that_is_not_up_yet(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    proxy = TcpProxy.for_database(fresh_database_url)  # not listening yet: connections are refused
    proc = ServerProcess(proxy.url, redis_url, admin_token, env=server_env(redis_prefix))
    proc.log_path.unlink(missing_ok=True)
    with ThreadPoolExecutor(1) as pool:
        starting = pool.submit(proc.start, 60)
        try:
            deadline = time.monotonic() + 30
            while "PostgreSQL does not answer yet" not in (text := read(proc.log_path)):
                assert not starting.done(), f"the server gave up at once: {starting.exception()}"
                assert time.monotonic() < deadline, text
                time.sleep(0.1)
            proxy.start()  # PostgreSQL is up now
            starting.result()
            assert httpx.get(proc.url + "/health").status_code == 200
            assert proxy.connections > 0
            assert "Traceback" not in read(proc.log_path)
        finally:
            proc.stop()
            proxy.close()


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""
