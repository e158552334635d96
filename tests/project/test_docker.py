"""The container files: the image installs the project with its migrations; compose wires the server."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess

import pytest
import yaml

from tests import paths

ROOT = paths.ROOT


def compose_command() -> list[str] | None:
    """``docker compose`` (the plugin) or ``docker-compose`` (the standalone tool), whichever is here."""
    plugin = ["docker", "compose"]
    if shutil.which("docker") and subprocess.run([*plugin, "version"], capture_output=True, timeout=30).returncode == 0:
        return plugin
    if shutil.which("docker-compose") is not None:
        return ["docker-compose"]
    return None


def test_the_dockerfile_installs_the_project_with_its_migrations() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "COPY schema schema" in text and "pip install" in text and "pip install -e" not in text
    pyproject = (ROOT / "pyproject.toml").read_text()
    # The migrations are package data of spidertour.schema (tests/server/test_wheel.py installs them).
    assert '"spidertour.schema" = "schema"' in pyproject and '"spidertour.schema" = ["*.sql", "*.json"]' in pyproject


def test_compose_wires_the_server_to_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    server = services["server"]
    assert server["build"] == "."
    env = server["environment"]
    assert env["DATABASE_URL"].startswith("postgresql://") and "@postgres:5432/" in env["DATABASE_URL"]
    assert env["REDIS_URL"].startswith("redis://redis:6379")
    assert env["HOST"] == "0.0.0.0" and "ADMIN_TOKEN" in env
    assert server["depends_on"] == {name: {"condition": "service_healthy"} for name in ("postgres", "redis")}
    for name in ("replica-a", "replica-b"):
        # The replicas sit behind the proxy, whose X-Forwarded-For names the client (per-address limits).
        replica = dict(services[name]["environment"])
        assert replica.pop("TRUSTED_PROXIES") and replica == env


def trusted_in_scale_profile(compose: dict[str, object]) -> None:
    """The replicas believe the X-Forwarded-For of the proxy the file starts, at its fixed address,
    and of nobody else: not a whole private network, where any client of a school's network could
    write its own header and escape every per-address limit."""
    services = compose["services"]
    networks = compose["networks"]
    assert isinstance(services, dict) and isinstance(networks, dict)
    (pool,) = networks["default"]["ipam"]["config"]
    subnet, dynamic = ipaddress.ip_network(pool["subnet"]), ipaddress.ip_network(pool["ip_range"])
    proxy = ipaddress.ip_address(services["proxy"]["networks"]["default"]["ipv4_address"])
    # Inside the network's subnet, outside the range other containers are given addresses from.
    assert proxy in subnet and dynamic.subnet_of(subnet) and proxy not in dynamic  # type: ignore[arg-type]
    for name in ("replica-a", "replica-b"):
        replica = services[name]
        (trusted,) = str(replica["environment"]["TRUSTED_PROXIES"]).split(",")
        assert ipaddress.ip_network(trusted.strip()) == ipaddress.ip_network(proxy), trusted
        assert "ports" not in replica  # reached only through the proxy
    assert "TRUSTED_PROXIES" not in services["server"]["environment"]


def test_the_scale_profile_trusts_only_its_own_proxy() -> None:
    trusted_in_scale_profile(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def test_nginx_closes_slow_clients_and_caps_connections_per_address() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    names = "client_header_timeout|client_body_timeout|limit_conn|limit_conn_zone"
    settings = dict(re.findall(rf"^\s*({names})\s+([^;]+);", conf, re.MULTILINE))
    assert settings["client_header_timeout"] == "10s" and settings["client_body_timeout"] == "30s"
    zone = re.fullmatch(r"\$binary_remote_addr zone=(\w+):\w+", settings["limit_conn_zone"])
    assert zone is not None
    name, count = settings["limit_conn"].split()
    assert name == zone.group(1) and int(count) > 0
    assert "X-Forwarded-For $proxy_add_x_forwarded_for" in conf


def test_the_image_runs_as_a_user_of_its_own_and_checks_its_health() -> None:
    text = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert users and users[-1] not in ("root", "0"), users
    # The last USER comes after every RUN (they need root to install) and before the command.
    assert text.rindex("\nRUN ") < text.rindex("\nUSER ") < text.rindex("\nCMD ")
    (check,) = re.findall(r"^HEALTHCHECK (?:.*\\\n)*.*", text, re.MULTILINE)
    # python:*-slim has no curl: the check is Python's, against the server's /health.
    assert "CMD python -c" in check and "/health" in check and "curl" not in check and "wget" not in check


def test_compose_has_no_default_admin_token_and_restarts_what_stops() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    # The server listens on every address: an admin token everyone can read would open it to all.
    token = services["server"]["environment"]["ADMIN_TOKEN"]
    assert re.fullmatch(r"\$\{ADMIN_TOKEN:\?[^}]+\}", token), token
    for name, service in services.items():
        assert service.get("restart") == "unless-stopped", name
    # pg_isready over TCP: the unix socket answers during first-time setup, before the real start.
    check = " ".join(services["postgres"]["healthcheck"]["test"])
    assert "pg_isready" in check and "-h 127.0.0.1" in check
    for name in ("server", "replica-a", "replica-b"):
        depends = services[name]["depends_on"]
        assert all(depends[d] == {"condition": "service_healthy"} for d in ("postgres", "redis")), name
    assert all(c == {"condition": "service_healthy"} for c in services["proxy"]["depends_on"].values())


@pytest.mark.skipif(compose_command() is None, reason="neither docker compose nor docker-compose is installed")
def test_docker_compose_config_accepts_the_file_and_requires_an_admin_token(tmp_path: object) -> None:
    command = compose_command()
    assert command is not None
    env = {k: v for k, v in os.environ.items() if k != "ADMIN_TOKEN"}
    for profile in ([], ["--profile", "scale"]):
        done = subprocess.run(
            [*command, *profile, "config"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**env, "ADMIN_TOKEN": "a-secret-of-ones-own"},
        )
        assert done.returncode == 0, done.stderr
    trusted_in_scale_profile(yaml.safe_load(done.stdout))  # as compose itself reads the file
    for unset in (env, {**env, "ADMIN_TOKEN": ""}):
        done = subprocess.run(
            [*command, "config", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=unset
        )
        assert done.returncode != 0 and "set ADMIN_TOKEN" in done.stderr, done.stderr
