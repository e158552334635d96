"""The ``spidertour`` command line: tournament create, migrate, schema, deal."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import subprocess
import sys
from datetime import datetime, timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from spidertour.server.cli.main import main, parser
from spidertour.server.storage.migrations import migrations
from tests import paths
from tests.client import Api
from tests.server.helpers import spidertour, stamp
from tests.serverproc import ROOT, free_port

VECTORS = json.loads((paths.VECTORS / "deal-vectors.json").read_text())


def in_process(*args: str) -> int:
    """``spidertour ARGS`` in this process: its exit status (argparse's own errors exit 2)."""
    try:
        return main(list(args))
    except SystemExit as stop:
        return int(stop.code or 0)


async def query(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


def test_the_installed_command_lists_every_subcommand() -> None:
    script = Path(sys.executable).parent / "spidertour"
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for command in ("serve", "migrate", "schema", "tournament", "deal", "replay", "verify"):
        assert command in done.stdout


def test_every_option_of_every_command_says_what_it_is_for() -> None:
    """``spidertour X --help`` explains each option, not just its name."""
    bare: list[str] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")
            elif action.option_strings and not action.help:
                bare.append(f"{path} {action.option_strings[0]}")

    walk(parser(), "spidertour")
    assert bare == []


def test_the_command_line_starts_without_the_server_s_weight() -> None:
    """Parsing a command loads neither the web framework, nor the database and Redis clients, nor
    makes an argon2 hash: a command that needs them imports them when it runs."""
    heavy = ("litestar", "asyncpg", "redis", "argon2", "uvicorn")
    probe = (
        f"import sys, spidertour.server.cli.main as m; m.parser(); print(*[n for n in {heavy!r} if n in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


@pytest.mark.parametrize("module", ["spidertour.server.cli", "spidertour.engine"])
def test_a_reader_gone_before_the_output_ends_it_quietly(module: str) -> None:
    """``spidertour deal ... | head -c 5``: the command stops when its reader is gone, with the status a
    shell gives a tool that SIGPIPE ended, and no traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line
    try:
        done = subprocess.run(
            [sys.executable, "-m", module, "deal", "--variant", "spider", "--suits", "4", "--seed", "x"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_version() -> None:
    script = Path(sys.executable).parent / "spidertour"
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"spidertour {version('spidertour')}", done
    assert re.fullmatch(r"spidertour \d+\.\d+\.\d+\S*", done.stdout.strip())


def test_the_engine_command_runs_as_a_module_of_the_one_name() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spidertour.engine", "deal", "--variant", "spider", "--suits", "1", "--seed", "x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["seed"] == "x", done.stderr


# ----------------------------------------------------------------------------- tournament create


async def test_tournament_create(api: Api, server: Any, admin_token: str, database_url: str) -> None:
    seed = "cli-" + secrets.token_hex(4)
    done = spidertour(
        "tournament",
        "create",
        "--name",
        "from the command line",
        "--variant",
        "spider",
        "--suits",
        "2",
        "--time-limit",
        "300",
        "--undo",
        "off",
        "--undo-limit",
        "3",
        "--reveals-final",
        "on",
        "--deal-variation",
        "on",
        "--opens-at",
        stamp(-60),
        "--closes-at",
        stamp(7200),
        "--seed",
        seed,
        "--server",
        server.url,
        "--admin-token",
        admin_token,
    )
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    assert made["seed"] is None and made["salt"] is None and seed not in done.stdout and made["start"] == "own"
    assert made["settings"] == {
        "variant": "spider",
        "suits": 2,
        "free_column": False,
        "undo": False,
        "undo_limit": 3,
        "reveals_final": True,
        "time_limit": 300,
        "draw_pile_choice": True,
        "draw_pile_tops_up": True,
        "deal_variation": True,
    }
    conn = await asyncpg.connect(database_url)
    try:
        salt = await conn.fetchval("SELECT salt FROM tournaments WHERE id = $1", made["id"])
    finally:
        await conn.close()
    canonical = json.dumps(
        {"salt": salt, "seed": seed, "settings": made["settings"]}, sort_keys=True, separators=(",", ":")
    )
    assert made["commitment"] == hashlib.sha256(canonical.encode()).hexdigest()
    assert api.tournament(made["id"]) == made
    by_env = spidertour(
        "tournament", "create", "--name", "by environment", ADMIN_TOKEN=admin_token, SPIDERTOUR_URL=server.url
    )
    assert by_env.returncode == 0, by_env.stderr
    assert api.tournament(json.loads(by_env.stdout)["id"])["settings"]["variant"] == "spider78"
    together = spidertour(
        "tournament",
        "create",
        "--name",
        "together",
        "--start",
        "together",
        "--opens-at",
        stamp(600),
        "--time-limit",
        "120",
        ADMIN_TOKEN=admin_token,
        SPIDERTOUR_URL=server.url,
    )
    assert together.returncode == 0, together.stderr
    sitting = json.loads(together.stdout)
    assert sitting["start"] == "together" and sitting["status"] == "scheduled"
    assert datetime.fromisoformat(sitting["closes_at"]) - datetime.fromisoformat(sitting["opens_at"]) == timedelta(
        seconds=120
    )


@pytest.mark.parametrize(
    ("args", "token", "code", "needle"),
    [
        ((), None, 2, "ADMIN_TOKEN"),
        ((), "wrong", 1, "403"),
        (("--variant", "spider78", "--suits", "4"), "admin", 1, "suits, not 4"),
        (("--variant", "tarantula"), "admin", 1, "unknown variant"),
        (("--time-limit", "0"), "admin", 1, "time_limit"),
        (("--opens-at", "2026-01-01T10:00:00Z", "--closes-at", "2026-01-01T09:00:00Z"), "admin", 1, "closes_at"),
        (("--opens-at", "next tuesday"), "admin", 2, "opens_at"),
        (("--suits", "two"), "admin", 2, "invalid int"),
        (("--undo", "maybe"), "admin", 2, "on or off"),
    ],
)
async def test_tournament_create_is_refused_clearly(
    server: Any,
    admin_token: str,
    database_url: str,
    args: tuple[str, ...],
    token: str | None,
    code: int,
    needle: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ADMIN_TOKEN", raising=False)
    name = "refused-" + secrets.token_hex(4)
    flags = () if token is None else ("--admin-token", admin_token if token == "admin" else token)
    assert in_process("tournament", "create", "--name", name, *args, "--server", server.url, *flags) == code
    out, err = capsys.readouterr()
    assert out == "" and needle in err
    assert await query(database_url, "SELECT id FROM tournaments WHERE name = $1", name) == []


def test_tournament_create_with_no_server_is_an_error(admin_token: str) -> None:
    done = spidertour(
        "tournament",
        "create",
        "--name",
        "nowhere",
        "--server",
        f"http://127.0.0.1:{free_port()}",
        "--admin-token",
        admin_token,
    )
    assert done.returncode == 1 and "cannot reach" in done.stderr and "Traceback" not in done.stderr


# ----------------------------------------------------------------------------- migrate


async def test_migrate_applies_each_migration_once(fresh_database_url: str) -> None:
    expected = [version for version, _, _ in migrations()]
    assert expected[0] == 1
    first = spidertour("migrate", DATABASE_URL=fresh_database_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "applied: " + ", ".join(f"{v:03d}" for v in expected)
    rows = await query(fresh_database_url, "SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
    assert [r["version"] for r in rows] == expected and rows[0]["name"] == "init"
    tables = {
        r["table_name"]
        for r in await query(
            fresh_database_url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    }
    assert tables >= {"tournaments", "players", "entries", "moves", "standings", "schema_migrations"}
    second = spidertour("migrate", DATABASE_URL=fresh_database_url)
    assert second.returncode == 0, second.stderr
    assert "nothing" in second.stdout
    again = await query(fresh_database_url, "SELECT version, applied_at FROM schema_migrations ORDER BY version")
    assert [(r["version"], r["applied_at"]) for r in again] == [(r["version"], r["applied_at"]) for r in rows]


# ----------------------------------------------------------------------------- schema


def test_schema_check_passes_and_notices_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = spidertour("schema", "--check")
    assert done.returncode == 0, done.stderr
    fresh = tmp_path / "protocol.json"
    assert in_process("schema", "--output", str(fresh)) == 0
    assert fresh.read_text() == (ROOT / "schema" / "protocol.json").read_text()
    schema = json.loads(fresh.read_text())
    for name in ("Auth", "PlayMove", "State", "Result", "Over", "Error", "Tournament", "Entry"):
        assert name in schema["$defs"]
    stale = tmp_path / "stale.json"
    stale.write_text("{}\n")
    capsys.readouterr()
    assert in_process("schema", "--check", "--output", str(stale)) == 1
    assert "out of date" in capsys.readouterr().err
    assert stale.read_text() == "{}\n"  # --check never writes


# ----------------------------------------------------------------------------- deal


def test_deal_prints_the_vectors_json() -> None:
    vector = next(v for v in VECTORS if v["variant"] == "spider78" and v["suits"] == 2)
    done = spidertour("deal", "--variant", vector["variant"], "--suits", str(vector["suits"]), "--seed", vector["seed"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == vector


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['variant']}-{v['suits']}-{v['seed'][:12]}")
def test_deal_matches_every_vector(vector: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["deal", "--variant", vector["variant"], "--suits", str(vector["suits"]), "--seed", vector["seed"]]) == 0
    )
    assert json.loads(capsys.readouterr().out) == vector


def test_deal_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert in_process("deal", "--variant", "spider78", "--suits", "4", "--seed", "x") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "suits" in err
