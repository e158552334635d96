"""Server configuration, read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .limits import Limit, Network, parse_networks


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def server_url() -> str:
    """Where ``spidertour`` commands find a running server: $SPIDERTOUR_URL, else this machine at $PORT."""
    return (os.environ.get("SPIDERTOUR_URL") or f"http://127.0.0.1:{_int('PORT', 8000)}").rstrip("/")


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return default if raw in (None, "") else float(raw)


# Per client address. Defaults a crowd behind one school or office address does not meet: a class
# of 120 registering in the same minute goes straight through, and then one a second more; joins
# at twice that, since a whole crowd joins in the last minutes before a tournament that starts
# together. One person scripting accounts is held to 60 a minute instead of hundreds a second.
REGISTER_PER_MINUTE, REGISTER_BURST = 60.0, 120
JOIN_PER_MINUTE, JOIN_BURST = 120.0, 240


def _limits() -> dict[str, Limit]:
    return {
        "register": Limit(
            "register",
            _float("REGISTER_PER_MINUTE", REGISTER_PER_MINUTE),
            _int("REGISTER_BURST", REGISTER_BURST),
            "registrations",
        ),
        "join": Limit("join", _float("JOIN_PER_MINUTE", JOIN_PER_MINUTE), _int("JOIN_BURST", JOIN_BURST), "joins"),
    }


def _default_limits() -> dict[str, Limit]:
    return {
        "register": Limit("register", REGISTER_PER_MINUTE, REGISTER_BURST, "registrations"),
        "join": Limit("join", JOIN_PER_MINUTE, JOIN_BURST, "joins"),
    }


@dataclass(frozen=True, slots=True)
class Config:
    database_url: str | None = None  # None: start an embedded PostgreSQL
    redis_url: str | None = None  # None: start an embedded Valkey
    admin_token: str | None = None  # None: generate one and print it at start
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str = ".data"
    redis_prefix: str = "spidertour"  # every Redis key starts with this
    max_message_bytes: int = 4096  # larger play/watch messages are refused with an error
    rate_per_second: float = 30.0  # messages a second handled for one connection; faster ones wait
    rate_burst: int = 60  # handled at once before the rate applies
    flood_limit: int = 64  # messages waiting unanswered: past this the connection is cut off
    sweep_seconds: float = 0.5  # how often deadlines and tournament closings are checked
    pool_size: int = 10
    commits: int = 1  # move batches committing at once: while one commits, the next gathers moves
    commit_interval: float = 0.01  # seconds between the starts of two commits of moves (see server/batch.py)
    log_level: str = "info"  # debug, info, warning, error
    log_format: str = "text"  # text, or json: one JSON object a line
    solver_seconds: float = 10.0  # the solver's budget for a tournament's par, and per certification try
    certify_tries: int = 20  # deals tried at most when a certified deal is asked for
    limits: dict[str, Limit] = field(default_factory=_default_limits)  # per client address: register, join
    trusted_proxies: tuple[Network, ...] = ()  # peers whose X-Forwarded-For is believed
    address_key: str | None = None  # None: one drawn once and kept in PostgreSQL (server_secrets)
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> Config:
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            redis_url=os.environ.get("REDIS_URL") or None,
            admin_token=os.environ.get("ADMIN_TOKEN") or None,
            host=os.environ.get("HOST", "127.0.0.1"),
            port=_int("PORT", 8000),
            data_dir=os.environ.get("SPIDERTOUR_DATA", ".data"),
            redis_prefix=os.environ.get("REDIS_PREFIX", "spidertour"),
            pool_size=_int("DB_POOL_SIZE", 10),
            commits=max(1, _int("DB_COMMITS", 1)),
            commit_interval=max(0.0, float(os.environ.get("COMMIT_INTERVAL_MS", "10")) / 1000),
            rate_per_second=float(os.environ.get("RATE_PER_SECOND", "30")),
            rate_burst=_int("RATE_BURST", 60),
            log_level=os.environ.get("LOG_LEVEL", "info").lower(),
            log_format=os.environ.get("LOG_FORMAT", "text").lower(),
            solver_seconds=float(os.environ.get("SOLVER_SECONDS", "10")),
            certify_tries=_int("CERTIFY_TRIES", 20),
            limits=_limits(),
            trusted_proxies=parse_networks(os.environ.get("TRUSTED_PROXIES", "")),
            address_key=os.environ.get("ADDRESS_KEY") or None,
        )
