"""The container files: the image installs the project with its migrations; compose wires the server."""

from __future__ import annotations

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
            [*command, *profile, "config", "--quiet"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**env, "ADMIN_TOKEN": "a-secret-of-ones-own"},
        )
        assert done.returncode == 0, done.stderr
    for unset in (env, {**env, "ADMIN_TOKEN": ""}):
        done = subprocess.run(
            [*command, "config", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=unset
        )
        assert done.returncode != 0 and "set ADMIN_TOKEN" in done.stderr, done.stderr
