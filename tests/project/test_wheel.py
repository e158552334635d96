"""The built wheel holds everything: installed into a fresh virtual environment it migrates a fresh database."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import asyncpg
import pytest

from tests import paths

ROOT = paths.ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("spidertour-*.whl")
    return built


def test_the_wheel_holds_every_file_under_one_name(wheel: Path) -> None:
    """engine/, server/ and schema/ go in as spidertour/engine, spidertour/server, spidertour/schema:
    every module, web file and migration, and no other top-level name."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("engine", "server", "schema"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert "spidertour/" + path.relative_to(ROOT).as_posix() in names, path
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"spidertour"}, tops


async def test_the_installed_wheel_migrates_a_fresh_database(
    wheel: Path, fresh_database_url: str, tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    # The project's own dependencies are already installed here: the fresh environment sees them,
    # and the wheel itself goes into it, so `spidertour` runs from the wheel, not from this tree.
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    pth = next((env_dir / "lib").glob("python3*/site-packages"))
    (pth / "project-deps.pth").write_text(site + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--force-reinstall",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    spidertour = env_dir / "bin" / "spidertour"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["DATABASE_URL"] = fresh_database_url
    where = subprocess.run(
        [str(python), "-c", "from spidertour.server.storage import migrations; print(migrations.SCHEMA)"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where  # the installed copy, not this source tree
    run = subprocess.run(
        [str(spidertour), "migrate"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    versions = sorted(int(p.name[:3]) for p in (ROOT / "schema").glob("[0-9][0-9][0-9]_*.sql"))
    assert "applied: " + ", ".join(f"{v:03d}" for v in versions) in run.stdout
    conn = await asyncpg.connect(fresh_database_url)
    try:
        assert [r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations ORDER BY 1")] == versions
        assert await conn.fetchval("SELECT count(*) FROM tournaments") == 0
    finally:
        await conn.close()
    again = subprocess.run(
        [str(spidertour), "migrate"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0 and "up to date" in again.stdout
