"""The server's configuration: every setting read once from the environment into one typed structure.

``VARIABLES`` is the table of what the server reads (docs/operating.md's configuration table lists the
same). An empty variable counts as unset. A bad value stops the server before anything starts,
with one line naming the variable, e.g. ``PORT: expected a whole number from 1 to 65535, not 'abc'``
(``spidertour serve`` prints it and exits with status 2).
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import msgspec
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from msgspec import Meta

from spidertour.engine import EngineError, Settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ConfigError(ValueError):
    """A setting the server cannot run with: the message names the variable."""


@dataclass(frozen=True, slots=True)
class Limit:
    """``burst`` requests at once from one client address, then ``per_minute`` a minute."""

    kind: str
    per_minute: float
    burst: int
    what: str  # what the refusal calls them ("registrations")


# Per client address. Defaults a crowd behind one school or office address does not meet: a class
# of 120 registering in the same minute goes straight through, and then one a second more; joins
# at twice that, since a whole crowd joins in the last minutes before a tournament that starts
# together. One person scripting accounts is held to 60 a minute instead of hundreds a second.
REGISTER_PER_MINUTE, REGISTER_BURST = 60.0, 120
JOIN_PER_MINUTE, JOIN_BURST = 120.0, 240
# Analyses started (each up to ANALYSIS_TOTAL_SECONDS of the solver's worker): per player, and per
# address for a whole class behind one school address reading the replays together.
ANALYSIS_PER_MINUTE, ANALYSIS_BURST = 2.0, 10
ANALYSIS_ADDRESS_PER_MINUTE, ANALYSIS_ADDRESS_BURST = 10.0, 60
# Failed sign-ins within the window: per handle (then even the right password waits), and per
# address (one school behind one address mistypes many codes, a guesser many handles).
SIGNIN_FAILURES_PER_HANDLE, SIGNIN_FAILURES_PER_ADDRESS, SIGNIN_WINDOW_SECONDS = 10, 100, 900
# Open sessions (signed-in devices) of one player: a new sign-in past it ends the oldest.
SESSIONS_PER_PLAYER = 50


class MatchFormat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A format matches are played in (docs/matches.md): its name, game settings (every field filled
    in, as a tournament's) and number of seats; ``rated``: false leaves its matches unrated."""

    name: Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
    settings: dict[str, Any]
    seats: Annotated[int, Meta(ge=2, le=8)] = 2
    rated: bool = True


def _format(name: str, variant: str, suits: int, minutes: int, seats: int = 2) -> MatchFormat:
    settings = Settings.from_json({"variant": variant, "suits": suits, "time_limit": minutes * 60}).to_json()
    return MatchFormat(name=name, settings=settings, seats=seats)


# The formats offered when MATCH_FORMATS is not set: few, so that players meet in numbers.
MATCH_FORMATS = (
    _format("spider78-1suit-5min", "spider78", 1, 5),
    _format("spider78-2suits-5min", "spider78", 2, 5),
    _format("spider78-2suits-5min-4players", "spider78", 2, 5, seats=4),
    _format("spider-1suit-10min", "spider", 1, 10),
    _format("spider-2suits-10min", "spider", 2, 10),
    _format("spider-4suits-10min", "spider", 4, 10),
)
MAX_MATCH_SECONDS = 86_400  # a format's time limit at most (one day, as a tournament's)

Port = Annotated[int, Meta(ge=1, le=65535)]
Positive = Annotated[float, Meta(gt=0, le=1e9)]


class Config(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None  # None: start an embedded PostgreSQL
    redis_url: str | None = None  # None: start an embedded Valkey
    admin_token: str | None = None  # None: generate one and print it at start
    host: str = "127.0.0.1"
    port: Port = 8000
    play_port: Port | None = None  # the play socket on a port of its own (server.play.sockets.fast); None: on PORT only
    data_dir: str = ".data"
    redis_prefix: str = "spidertour"  # every Redis key starts with this
    redis_pool_size: Annotated[int, Meta(ge=4, le=10_000)] = 100  # Redis connections per process
    pool_size: Annotated[int, Meta(ge=1, le=1000)] = 10
    # Seconds a PostgreSQL call may take (a statement, a connection's opening, a wait for one of the
    # pool's) before it gives up: a stalled database is an error, not a hang (see ``storage.pool``).
    db_timeout: Annotated[float, Meta(gt=0, le=3600)] = 3.0
    commits: Annotated[int, Meta(ge=1, le=100)] = 1  # move batches committing at once
    commit_interval_ms: Annotated[float, Meta(ge=0, le=10_000)] = 10.0  # between two commits' starts
    feed_ms: Annotated[float, Meta(ge=50, le=10_000)] = 250.0  # between two updates to a watcher
    moves_waiting: Annotated[int, Meta(ge=1, le=1_000_000)] = 2000  # moves waiting to commit; past it: busy
    loop_lag_ms: Annotated[float, Meta(ge=0, le=60_000)] = 100.0  # the event loop this late: busy (0: never)
    stall_log_ms: Annotated[float, Meta(ge=0, le=60_000)] = 0.0  # a stall this long logged with its stack (0: off)
    rate_per_second: Positive = 30.0  # messages a second handled for one connection; faster ones wait
    rate_burst: Annotated[int, Meta(ge=1, le=1_000_000)] = 60  # handled at once before the rate applies
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["text", "json"] = "text"
    solver_seconds: Annotated[float, Meta(gt=0, le=86_400)] = 10.0  # CPU seconds: a par's budget, a certification try's
    certify_tries: Annotated[int, Meta(ge=1, le=10_000)] = 20  # deals tried at most for a certified deal
    # A game's analysis (where the win was lost): CPU seconds of search per position, and in all.
    analysis_seconds: Annotated[float, Meta(gt=0, le=600)] = 1.0
    analysis_total_seconds: Annotated[float, Meta(gt=0, le=3_600)] = 30.0
    register_per_minute: Positive = REGISTER_PER_MINUTE
    register_burst: Annotated[int, Meta(ge=1, le=1_000_000_000)] = REGISTER_BURST
    join_per_minute: Positive = JOIN_PER_MINUTE
    join_burst: Annotated[int, Meta(ge=1, le=1_000_000_000)] = JOIN_BURST
    analysis_per_minute: Positive = ANALYSIS_PER_MINUTE
    analysis_burst: Annotated[int, Meta(ge=1, le=1_000_000_000)] = ANALYSIS_BURST
    analysis_address_per_minute: Positive = ANALYSIS_ADDRESS_PER_MINUTE
    analysis_address_burst: Annotated[int, Meta(ge=1, le=1_000_000_000)] = ANALYSIS_ADDRESS_BURST
    trusted_proxies: tuple[str, ...] = ()  # peers whose X-Forwarded-For is believed (addresses or networks)
    address_key: str | None = None  # None: one drawn once and kept in PostgreSQL (server_secrets)
    signin_failures_per_handle: Annotated[int, Meta(ge=1, le=1_000_000)] = SIGNIN_FAILURES_PER_HANDLE
    signin_failures_per_address: Annotated[int, Meta(ge=1, le=1_000_000_000)] = SIGNIN_FAILURES_PER_ADDRESS
    signin_window_seconds: Annotated[int, Meta(ge=1, le=86_400)] = SIGNIN_WINDOW_SECONDS
    sessions_per_player: Annotated[int, Meta(ge=1, le=10_000)] = SESSIONS_PER_PLAYER  # past it the oldest end
    # Sign-in from a host site (players.external): all three, or none (then no such sign-in).
    external_jwt_key: str | None = None  # an HS256 secret, or a PEM public key (RS256 or ES256)
    external_jwt_issuer: str | None = None
    external_jwt_audience: str | None = None
    # Slow and idle clients: seconds for a request's headers (from the connection's start, or from
    # the first byte of the next request on a kept-alive one) and between two chunks of its body;
    # past either the connection is closed (408). Websockets open at once from one client address on
    # one process (play and watch together); past it a new one is refused (close 4029).
    header_timeout: Annotated[float, Meta(gt=0, le=3600)] = 10.0
    body_timeout: Annotated[float, Meta(gt=0, le=3600)] = 30.0
    websockets_per_address: Annotated[int, Meta(ge=1, le=1_000_000_000)] = 500
    # What one organiser may have at once (the owner: no limit); past it, creating another is 409.
    schedules_per_organiser: Annotated[int, Meta(ge=1, le=1_000_000)] = 50  # running (not stopped) schedules
    clubs_per_organiser: Annotated[int, Meta(ge=1, le=1_000_000)] = 200  # clubs it organises
    series_per_organiser: Annotated[int, Meta(ge=1, le=1_000_000)] = 200
    organisers_open: bool = False  # any account may make itself an organiser (POST /api/me/organiser)
    # Matches (docs/matches.md): the formats offered; the rating band (ordinal points either way) and
    # its widening a minute waited; seconds to start a seat's game, and for a match to fill; matches
    # not over one player may hold.
    match_formats: tuple[MatchFormat, ...] = MATCH_FORMATS
    match_band: Annotated[float, Meta(ge=0, le=1_000)] = 5.0
    match_band_growth: Annotated[float, Meta(ge=0, le=1_000)] = 1.0
    match_start_seconds: Annotated[int, Meta(ge=1, le=604_800)] = 300
    match_wait_seconds: Annotated[int, Meta(ge=1, le=2_592_000)] = 86_400
    match_open_per_player: Annotated[int, Meta(ge=1, le=1_000)] = 3
    # Not read from the environment:
    max_message_bytes: int = 4096  # larger play/watch messages are refused with an error
    flood_limit: int = 64  # messages waiting unanswered: past this the connection is cut off
    sweep_seconds: float = 0.5  # how often deadlines and tournament closings are checked

    @property
    def feed_seconds(self) -> float:
        """Seconds between two updates of a tournament's watchers (``FEED_MS``)."""
        return self.feed_ms / 1000

    @property
    def commit_interval(self) -> float:
        """Seconds between the starts of two commits of moves (see ``server.lib.batch``)."""
        return self.commit_interval_ms / 1000

    @property
    def limits(self) -> dict[str, Limit]:
        """Per client address: registrations, joins and analyses; per player: analyses."""
        return {
            "register": Limit("register", self.register_per_minute, self.register_burst, "registrations"),
            "join": Limit("join", self.join_per_minute, self.join_burst, "joins"),
            "analysis": Limit("analysis", self.analysis_per_minute, self.analysis_burst, "analyses"),
            "analysis_address": Limit(
                "analysis_address", self.analysis_address_per_minute, self.analysis_address_burst, "analyses"
            ),
        }

    @property
    def proxies(self) -> tuple[Network, ...]:
        return tuple(ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, only: tuple[str, ...] | None = None) -> Config:
        """Every setting from the environment (``only``: these variables, the rest at their defaults);
        ConfigError naming the first bad variable."""
        env = os.environ if environ is None else environ
        raw: dict[str, Any] = {}
        for name, (fieldname, _) in VARIABLES.items():
            value = env.get(name, "").strip() if only is None or name in only else ""
            if value:
                raw[fieldname] = _normal(fieldname, value, name)
        given = [
            n for n in ("EXTERNAL_JWT_KEY", "EXTERNAL_JWT_ISSUER", "EXTERNAL_JWT_AUDIENCE") if VARIABLES[n][0] in raw
        ]
        if 0 < len(given) < 3:
            raise ConfigError(f"{given[0]}: sign-in from a host site needs EXTERNAL_JWT_KEY, _ISSUER and _AUDIENCE")
        try:
            config = msgspec.convert(raw, cls, strict=False)
        except msgspec.ValidationError as err:
            where = str(err).rpartition("`$.")[2].rstrip("`")
            name = next((n for n, (f, _) in VARIABLES.items() if f == where), where)
            raise ConfigError(f"{name}: expected {VARIABLES[name][1]}, not {env.get(name, '').strip()!r}") from None
        if config.play_port == config.port:
            raise ConfigError(f"PLAY_PORT: expected {VARIABLES['PLAY_PORT'][1]}, not {config.play_port} (PORT too)")
        return config

    @property
    def external_jwt(self) -> tuple[str, str, str] | None:
        """(key, issuer, audience) of sign-in from a host site, or None when it is not configured."""
        if self.external_jwt_key and self.external_jwt_issuer and self.external_jwt_audience:
            return self.external_jwt_key, self.external_jwt_issuer, self.external_jwt_audience
        return None


def _normal(fieldname: str, value: str, name: str) -> Any:
    """A variable's text as the structure takes it (lists split, words in lower case)."""
    if fieldname in ("log_level", "log_format"):
        return value.lower()
    if fieldname == "trusted_proxies":
        return tuple(_network(part.strip(), name) for part in value.split(",") if part.strip())
    if fieldname == "external_jwt_key":
        return _jwt_key(value.replace("\\n", "\n"), name)
    if fieldname == "match_formats":
        return _match_formats(value, name)
    if fieldname in _URL_SCHEMES:
        return _url(value, name, _URL_SCHEMES[fieldname])
    if fieldname == "host" and not _is_host(value):
        raise ConfigError(f"{name}: expected {VARIABLES[name][1]}, not {value!r}")
    return value


# What each server URL may start with (what asyncpg and redis-py take).
_URL_SCHEMES = {"database_url": ("postgresql", "postgres"), "redis_url": ("redis", "rediss", "unix")}
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def _url(value: str, name: str, schemes: tuple[str, ...]) -> str:
    """A server's URL, checked for its form only (whether the server answers is seen at start).
    The message does not repeat the value: it may hold a password."""
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in schemes or not (parts.netloc or parts.path or parts.query):
        raise ConfigError(f"{name}: expected {VARIABLES[name][1]}")
    return value


def _is_host(value: str) -> bool:
    """An IP address, or a host name (whose last part is not a number: 999.1.1.1 is no name)."""
    try:
        ipaddress.ip_address(value)
    except ValueError:
        labels = value.removesuffix(".").split(".")
        return len(value) <= 253 and all(_LABEL.fullmatch(part) for part in labels) and not labels[-1].isdigit()
    return True


def _jwt_key(value: str, name: str) -> str:
    """A PEM public key (its newlines may be written as \\n, as env files need) or a long secret."""
    if value.startswith("-----BEGIN"):
        try:
            key = load_pem_public_key(value.encode())
        except (ValueError, TypeError):
            key = None
        p256 = isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1)
        if not (isinstance(key, rsa.RSAPublicKey) or p256):
            raise ConfigError(f"{name}: not a PEM public key (RSA or EC P-256), nor an HS256 secret")
        return value
    if len(value.encode()) < 32:
        raise ConfigError(f"{name}: an HS256 secret must be at least 32 bytes (256 bits)")
    return value


def _match_formats(value: str, name: str) -> tuple[MatchFormat, ...]:
    """MATCH_FORMATS: a JSON list of formats, each with engine-checked settings, names unique."""
    try:
        formats = msgspec.json.decode(value, type=list[MatchFormat])
    except msgspec.DecodeError as err:
        raise ConfigError(f"{name}: expected {VARIABLES[name][1]}: {err}") from None
    if not formats:
        raise ConfigError(f"{name}: offer at least one format")
    done = []
    for given in formats:
        unknown = set(given.settings) - set(Settings.__dataclass_fields__)
        if unknown:
            raise ConfigError(f"{name}: format {given.name!r}: unknown settings {', '.join(sorted(unknown))}")
        try:
            settings = Settings.from_json(given.settings).to_json()
        except EngineError as err:
            raise ConfigError(f"{name}: format {given.name!r}: {err.reason}") from None
        if settings["time_limit"] > MAX_MATCH_SECONDS:
            raise ConfigError(f"{name}: format {given.name!r}: time_limit is at most {MAX_MATCH_SECONDS} seconds")
        done.append(msgspec.structs.replace(given, settings=settings))
    names = [f.name for f in done]
    if len(set(names)) != len(names):
        raise ConfigError(f"{name}: format names must differ")
    return tuple(done)


def _network(text: str, name: str) -> str:
    try:
        return str(ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise ConfigError(f"{name}: {text!r} is not an address or a network (e.g. 10.0.0.0/8, 127.0.0.1)") from None


_WHOLE = "a whole number"
# Every variable the server reads: (its field, what it must be).
VARIABLES: dict[str, tuple[str, str]] = {
    "DATABASE_URL": ("database_url", "a PostgreSQL URL such as postgresql://user:password@host:5432/spidertour"),
    "REDIS_URL": ("redis_url", "a Redis URL such as redis://host:6379/0"),
    "ADMIN_TOKEN": ("admin_token", "a token"),
    "HOST": ("host", "an address to listen on (an IP address such as 127.0.0.1 or 0.0.0.0, or a host name)"),
    "PORT": ("port", f"{_WHOLE} from 1 to 65535"),
    "PLAY_PORT": ("play_port", f"{_WHOLE} from 1 to 65535, not PORT"),
    "SPIDERTOUR_DATA": ("data_dir", "a folder"),
    "REDIS_PREFIX": ("redis_prefix", "a key prefix"),
    "REDIS_POOL_SIZE": ("redis_pool_size", f"{_WHOLE} from 4 to 10000"),
    "DB_POOL_SIZE": ("pool_size", f"{_WHOLE} from 1 to 1000"),
    "DB_TIMEOUT": ("db_timeout", "seconds above 0, at most 3600"),
    "DB_COMMITS": ("commits", f"{_WHOLE} from 1 to 100"),
    "COMMIT_INTERVAL_MS": ("commit_interval_ms", "milliseconds from 0 to 10000"),
    "FEED_MS": ("feed_ms", "milliseconds from 50 to 10000"),
    "MOVES_WAITING": ("moves_waiting", f"{_WHOLE} from 1 to 1000000"),
    "LOOP_LAG_MS": ("loop_lag_ms", "milliseconds from 0 (never busy) to 60000"),
    "STALL_LOG_MS": ("stall_log_ms", "milliseconds from 0 (off) to 60000"),
    "RATE_PER_SECOND": ("rate_per_second", "a number of messages a second above 0"),
    "RATE_BURST": ("rate_burst", f"{_WHOLE} of messages from 1"),
    "LOG_LEVEL": ("log_level", "debug, info, warning or error"),
    "LOG_FORMAT": ("log_format", "text or json"),
    "SOLVER_SECONDS": ("solver_seconds", "CPU seconds above 0, at most 86400"),
    "CERTIFY_TRIES": ("certify_tries", f"{_WHOLE} from 1 to 10000"),
    "ANALYSIS_SECONDS": ("analysis_seconds", "CPU seconds above 0, at most 600"),
    "ANALYSIS_TOTAL_SECONDS": ("analysis_total_seconds", "CPU seconds above 0, at most 3600"),
    "REGISTER_PER_MINUTE": ("register_per_minute", "a number a minute above 0"),
    "REGISTER_BURST": ("register_burst", f"{_WHOLE} from 1"),
    "JOIN_PER_MINUTE": ("join_per_minute", "a number a minute above 0"),
    "JOIN_BURST": ("join_burst", f"{_WHOLE} from 1"),
    "ANALYSIS_PER_MINUTE": ("analysis_per_minute", "a number a minute above 0"),
    "ANALYSIS_BURST": ("analysis_burst", f"{_WHOLE} from 1"),
    "ANALYSIS_ADDRESS_PER_MINUTE": ("analysis_address_per_minute", "a number a minute above 0"),
    "ANALYSIS_ADDRESS_BURST": ("analysis_address_burst", f"{_WHOLE} from 1"),
    "TRUSTED_PROXIES": ("trusted_proxies", "addresses or networks separated by commas"),
    "ADDRESS_KEY": ("address_key", "a secret key"),
    "SIGNIN_FAILURES_PER_HANDLE": ("signin_failures_per_handle", f"{_WHOLE} from 1"),
    "SIGNIN_FAILURES_PER_ADDRESS": ("signin_failures_per_address", f"{_WHOLE} from 1"),
    "SIGNIN_WINDOW_SECONDS": ("signin_window_seconds", f"{_WHOLE} of seconds from 1 to 86400"),
    "SESSIONS_PER_PLAYER": ("sessions_per_player", f"{_WHOLE} from 1 to 10000"),
    "EXTERNAL_JWT_KEY": ("external_jwt_key", "an HS256 secret or a PEM public key"),
    "EXTERNAL_JWT_ISSUER": ("external_jwt_issuer", "the host site's issuer (iss)"),
    "EXTERNAL_JWT_AUDIENCE": ("external_jwt_audience", "this server's audience (aud)"),
    "HEADER_TIMEOUT": ("header_timeout", "seconds above 0, at most 3600"),
    "BODY_TIMEOUT": ("body_timeout", "seconds above 0, at most 3600"),
    "WEBSOCKETS_PER_ADDRESS": ("websockets_per_address", f"{_WHOLE} from 1"),
    "SCHEDULES_PER_ORGANISER": ("schedules_per_organiser", f"{_WHOLE} from 1"),
    "CLUBS_PER_ORGANISER": ("clubs_per_organiser", f"{_WHOLE} from 1"),
    "SERIES_PER_ORGANISER": ("series_per_organiser", f"{_WHOLE} from 1"),
    "ORGANISERS_OPEN": ("organisers_open", "true or false"),
    "MATCH_FORMATS": (
        "match_formats",
        'a JSON list of formats such as [{"name": "spider78-1suit-5min", "settings": {"variant": "spider78", '
        '"suits": 1, "time_limit": 300}, "seats": 2}]',
    ),
    "MATCH_BAND": ("match_band", "rating points from 0 to 1000"),
    "MATCH_BAND_GROWTH": ("match_band_growth", "rating points a minute from 0 to 1000"),
    "MATCH_START_SECONDS": ("match_start_seconds", f"{_WHOLE} of seconds from 1 to 604800"),
    "MATCH_WAIT_SECONDS": ("match_wait_seconds", f"{_WHOLE} of seconds from 1 to 2592000"),
    "MATCH_OPEN_PER_PLAYER": ("match_open_per_player", f"{_WHOLE} from 1 to 1000"),
}
