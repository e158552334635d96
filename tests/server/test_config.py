"""The configuration: one typed structure read from the environment; a bad value is one line naming
the variable, and exit status 2, whichever command reads it."""

from __future__ import annotations

import ipaddress
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from spidertour.server.config import VARIABLES, Config, ConfigError
from tests.paths import ROOT


def test_the_defaults() -> None:
    config = Config.from_env({})
    assert (config.port, config.host, config.log_level, config.log_format) == (8000, "127.0.0.1", "info", "text")
    assert config.commit_interval == 0.01 and config.commits == 1 and config.database_url is None
    assert config.db_timeout == 3.0
    assert config.limits["register"].burst == 120 and config.limits["join"].per_minute == 120.0
    assert (config.signin_failures_per_handle, config.signin_window_seconds) == (10, 900)
    assert config.external_jwt is None
    assert (config.header_timeout, config.body_timeout, config.websockets_per_address) == (10.0, 30.0, 500)


P384 = (
    ec.generate_private_key(ec.SECP384R1())
    .public_key()
    .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    .decode()
)


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"EXTERNAL_JWT_KEY": "short"}, "EXTERNAL_JWT_KEY: an HS256 secret must be at least 32 bytes"),
        ({"EXTERNAL_JWT_KEY": "-----BEGIN PUBLIC KEY-----\\nxx\\n-----END PUBLIC KEY-----"}, "not a PEM public key"),
        ({"EXTERNAL_JWT_ISSUER": "https://host.example"}, "needs EXTERNAL_JWT_KEY, _ISSUER and _AUDIENCE"),
        ({"EXTERNAL_JWT_KEY": P384}, "not a PEM public key \\(RSA or EC P-256\\)"),
        ({"SIGNIN_WINDOW_SECONDS": "0"}, "SIGNIN_WINDOW_SECONDS: expected"),
        ({"REDIS_POOL_SIZE": "3"}, "REDIS_POOL_SIZE: expected a whole number from 4 to 10000"),
        ({"SESSIONS_PER_PLAYER": "0"}, "SESSIONS_PER_PLAYER: expected"),
        ({"PLAY_PORT": "70000"}, "PLAY_PORT: expected a whole number from 1 to 65535, not PORT"),
        ({"PLAY_PORT": "8000"}, "PLAY_PORT: expected .*, not 8000 \\(PORT too\\)"),
    ],
)
def test_bad_sign_in_settings_are_named(env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        Config.from_env(env)


def test_every_variable_is_read() -> None:
    env = {
        "DATABASE_URL": "postgresql://u@h/db",
        "REDIS_URL": "redis://h:6379/0",
        "ADMIN_TOKEN": "secret",
        "HOST": "0.0.0.0",
        "PORT": "8123",
        "SPIDERTOUR_DATA": "/var/lib/st",
        "REDIS_PREFIX": "st2",
        "DB_POOL_SIZE": "20",
        "DB_COMMITS": "2",
        "DB_TIMEOUT": "1.5",
        "COMMIT_INTERVAL_MS": "20",
        "FEED_MS": "500",
        "RATE_PER_SECOND": "12.5",
        "RATE_BURST": "30",
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
        "SOLVER_SECONDS": "2.5",
        "CERTIFY_TRIES": "4",
        "ANALYSIS_SECONDS": "0.5",
        "ANALYSIS_TOTAL_SECONDS": "12",
        "REGISTER_PER_MINUTE": "30",
        "REGISTER_BURST": "10",
        "JOIN_PER_MINUTE": "90",
        "JOIN_BURST": "5",
        "ANALYSIS_PER_MINUTE": "1.5",
        "ANALYSIS_BURST": "4",
        "ANALYSIS_ADDRESS_PER_MINUTE": "6",
        "ANALYSIS_ADDRESS_BURST": "20",
        "TRUSTED_PROXIES": " 10.0.0.0/8, 127.0.0.1 ",
        "ADDRESS_KEY": "k",
        "SIGNIN_FAILURES_PER_HANDLE": "3",
        "SIGNIN_FAILURES_PER_ADDRESS": "7",
        "SIGNIN_WINDOW_SECONDS": "60",
        "REDIS_POOL_SIZE": "8",
        "SESSIONS_PER_PLAYER": "5",
        "EXTERNAL_JWT_KEY": "s" * 32,
        "EXTERNAL_JWT_ISSUER": "https://host.example",
        "EXTERNAL_JWT_AUDIENCE": "spidertour",
        "HEADER_TIMEOUT": "4",
        "BODY_TIMEOUT": "12.5",
        "WEBSOCKETS_PER_ADDRESS": "40",
        "SCHEDULES_PER_ORGANISER": "5",
        "CLUBS_PER_ORGANISER": "6",
        "SERIES_PER_ORGANISER": "7",
        "MATCH_FORMATS": '[{"name": "duel", "settings": {"variant": "spider", "suits": 1}, "seats": 2}]',
        "MATCH_BAND": "2.5",
        "MATCH_BAND_GROWTH": "0.5",
        "MATCH_START_SECONDS": "60",
        "MATCH_WAIT_SECONDS": "600",
        "MATCH_OPEN_PER_PLAYER": "2",
        "ORGANISERS_OPEN": "true",
        "PLAY_PORT": "8124",
        "MOVES_WAITING": "300",
        "LOOP_LAG_MS": "250",
        "STALL_LOG_MS": "40",
    }
    assert set(env) == set(VARIABLES)
    c = Config.from_env(env)
    assert (c.database_url, c.redis_url, c.admin_token, c.host, c.port) == (
        "postgresql://u@h/db",
        "redis://h:6379/0",
        "secret",
        "0.0.0.0",
        8123,
    )
    assert (c.data_dir, c.redis_prefix, c.pool_size, c.commits, c.commit_interval) == (
        "/var/lib/st",
        "st2",
        20,
        2,
        0.02,
    )
    assert (c.rate_per_second, c.rate_burst, c.log_level, c.log_format) == (12.5, 30, "warning", "json")
    assert c.play_port == 8124 and Config.from_env({}).play_port is None
    assert (c.feed_seconds, Config.from_env({}).feed_seconds) == (0.5, 0.25)
    assert c.moves_waiting == 300 and Config.from_env({}).moves_waiting == 2000
    assert c.loop_lag_ms == 250 and Config.from_env({}).loop_lag_ms == 100
    assert c.stall_log_ms == 40 and Config.from_env({}).stall_log_ms == 0
    assert (c.solver_seconds, c.certify_tries, c.address_key, c.db_timeout) == (2.5, 4, "k", 1.5)
    assert (c.analysis_seconds, c.analysis_total_seconds) == (0.5, 12.0)
    assert c.limits["register"].per_minute == 30 and c.limits["join"].burst == 5
    assert c.organisers_open is True and Config.from_env({}).organisers_open is False
    assert (c.limits["analysis"].per_minute, c.limits["analysis"].burst) == (1.5, 4)
    assert (c.limits["analysis_address"].per_minute, c.limits["analysis_address"].burst) == (6.0, 20)
    assert (c.signin_failures_per_handle, c.signin_failures_per_address, c.signin_window_seconds) == (3, 7, 60)
    assert (c.redis_pool_size, c.sessions_per_player) == (8, 5)
    assert c.external_jwt == ("s" * 32, "https://host.example", "spidertour")
    assert (c.schedules_per_organiser, c.clubs_per_organiser, c.series_per_organiser) == (5, 6, 7)
    assert [(f.name, f.seats, f.settings["variant"]) for f in c.match_formats] == [("duel", 2, "spider")]
    assert (c.match_band, c.match_band_growth, c.match_start_seconds) == (2.5, 0.5, 60)
    assert (c.match_wait_seconds, c.match_open_per_player) == (600, 2)
    assert c.proxies == (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("127.0.0.1/32"))
    assert (c.header_timeout, c.body_timeout, c.websockets_per_address) == (4.0, 12.5, 40)


def test_an_empty_variable_counts_as_unset() -> None:
    assert Config.from_env({"COMMIT_INTERVAL_MS": "", "PORT": " ", "LOG_LEVEL": ""}) == Config.from_env({})


@pytest.mark.parametrize(
    ("name", "value", "needle"),
    [
        ("PORT", "abc", "whole number from 1 to 65535"),
        ("PORT", "0", "whole number from 1 to 65535"),
        ("PORT", "70000", "whole number from 1 to 65535"),
        ("DB_POOL_SIZE", "0", "from 1 to 1000"),
        ("DB_COMMITS", "1.5", "whole number"),
        ("DB_TIMEOUT", "0", "seconds above 0, at most 3600"),
        ("DB_TIMEOUT", "-2", "seconds above 0, at most 3600"),
        ("DB_TIMEOUT", "4000", "seconds above 0, at most 3600"),
        ("DB_TIMEOUT", "nan", "seconds above 0, at most 3600"),
        ("DB_TIMEOUT", "soon", "seconds above 0, at most 3600"),
        ("COMMIT_INTERVAL_MS", "-1", "milliseconds"),
        ("COMMIT_INTERVAL_MS", "soon", "milliseconds"),
        ("FEED_MS", "10", "milliseconds from 50 to 10000"),
        ("FEED_MS", "a while", "milliseconds from 50 to 10000"),
        ("STALL_LOG_MS", "-5", "milliseconds from 0 (off) to 60000"),
        ("STALL_LOG_MS", "a while", "milliseconds from 0 (off) to 60000"),
        ("RATE_PER_SECOND", "0", "above 0"),
        ("RATE_PER_SECOND", "nan", "above 0"),
        ("RATE_PER_SECOND", "inf", "above 0"),
        ("LOG_LEVEL", "verbose", "debug, info, warning or error"),
        ("LOG_FORMAT", "xml", "text or json"),
        ("SOLVER_SECONDS", "0", "seconds"),
        ("JOIN_BURST", "many", "whole number"),
        ("TRUSTED_PROXIES", "10.0.0.0/8, nowhere", "'nowhere' is not an address or a network"),
        ("HEADER_TIMEOUT", "0", "seconds above 0, at most 3600"),
        ("BODY_TIMEOUT", "never", "seconds above 0, at most 3600"),
        ("WEBSOCKETS_PER_ADDRESS", "0", "whole number from 1"),
        ("HOST", "999.1.1.1", "an address to listen on"),
        ("HOST", "0.0.0.0:8000", "an address to listen on"),
        ("DATABASE_URL", "garbage", "a PostgreSQL URL"),
        ("DATABASE_URL", "mysql://u@h/d", "a PostgreSQL URL"),
        ("REDIS_URL", "garbage", "a Redis URL"),
        ("REDIS_URL", "localhost:6379", "a Redis URL"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable(name: str, value: str, needle: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_env({name: value})
    message = str(refused.value)
    assert message.startswith(f"{name}: ") and needle in message and "\n" not in message


@pytest.mark.parametrize(
    ("env", "args"),
    [
        ({"PORT": "abc"}, ["serve"]),
        ({"COMMIT_INTERVAL_MS": "x"}, ["serve"]),
        ({"DB_TIMEOUT": "0"}, ["migrate"]),
        ({"DATABASE_URL": "garbage"}, ["migrate"]),
        ({"LOG_LEVEL": "verbose"}, ["migrate"]),
        ({"LOG_FORMAT": "xml"}, ["serve"]),
        ({"PORT": "abc"}, ["verify", "1"]),
        ({"PORT": "abc"}, ["tournament", "close", "1", "--admin-token", "x"]),
        ({"SPIDERTOUR_URL": "localhost:8000"}, ["tournament", "close", "1", "--admin-token", "x"]),
        ({"SPIDERTOUR_URL": "http://[::1"}, ["schedule", "list", "--admin-token", "x"]),
        ({"SPIDERTOUR_URL": "ftp://x"}, ["verify", "1"]),
    ],
)
def test_every_command_stops_on_a_bad_setting_with_one_line_and_status_2(env: dict[str, str], args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spidertour.server.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", **env},
    )
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and next(iter(env)) in lines[0], done.stderr
