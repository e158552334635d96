"""The container files: the image installs the project with its migrations; compose wires the server."""

from __future__ import annotations

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
    assert set(server["depends_on"]) == {"postgres", "redis"}
    for name in ("replica-a", "replica-b"):
        # The replicas sit behind the proxy, whose X-Forwarded-For names the client (per-address limits).
        replica = dict(services[name]["environment"])
        assert replica.pop("TRUSTED_PROXIES") and replica == env


@pytest.mark.skipif(compose_command() is None, reason="neither docker compose nor docker-compose is installed")
def test_docker_compose_config_accepts_the_file() -> None:
    command = compose_command()
    assert command is not None
    done = subprocess.run([*command, "config", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
