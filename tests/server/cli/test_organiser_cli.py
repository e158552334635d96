"""``spidertour tournament edit|close|cancel|entries|disqualify`` and ``spidertour schedule`` against a real server."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from spidertour.server.cli.schedules import first_occurrence
from tests.client import Api
from tests.server.helpers import spidertour, stamp, unique


def test_commands_find_the_server_by_port(api: Api, server: Any, admin_token: str) -> None:
    """PORT alone points every command at this machine's server, as `spidertour serve` listens."""
    tid = api.create_tournament(name=unique("cli-port"), opens_in=600, closes_in=1200)["id"]
    done = spidertour(
        "tournament", "edit", str(tid), "--name", "By port", PORT=str(server.port), ADMIN_TOKEN=admin_token
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["name"] == "By port" and api.tournament(tid)["name"] == "By port"
    via_url = spidertour(
        "tournament",
        "edit",
        str(tid),
        "--closes-at",
        stamp(3600),
        PORT="1",
        SPIDERTOUR_URL=server.url,
        ADMIN_TOKEN=admin_token,
    )
    assert via_url.returncode == 0, via_url.stderr


def test_edit_close_cancel_entries_disqualify(api: Api, server: Any, admin_token: str) -> None:
    env = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    tid = api.create_tournament(name=unique("cli-org"))["id"]
    _, token = api.register("cli-entrant")
    entry = api.join(tid, token)

    listed = spidertour("tournament", "entries", str(tid), "--json", **env)
    assert listed.returncode == 0, listed.stderr
    assert [(e["id"], e["status"]) for e in json.loads(listed.stdout)] == [(entry["id"], "joined")]
    table = spidertour("tournament", "entries", str(tid), **env)
    assert table.returncode == 0 and "cli-entrant" in table.stdout

    dq = spidertour("tournament", "disqualify", str(tid), str(entry["id"]), "--reason", "shared account", **env)
    assert dq.returncode == 0, dq.stderr
    assert "shared account" in dq.stdout
    again = spidertour("tournament", "disqualify", str(tid), str(entry["id"]), "--reason", "again", **env)
    assert again.returncode == 1 and "already" in again.stderr

    assert spidertour("tournament", "edit", str(tid), "--name", "late", **env).returncode == 1  # open: no edits
    closed = spidertour("tournament", "close", str(tid), **env)
    assert closed.returncode == 0 and "entries closed" in closed.stdout, closed.stderr
    tid = api.create_tournament(name=unique("cli-cancel"))["id"]  # the closed one finishes at once: no game runs
    cancelled = spidertour("tournament", "cancel", str(tid), **env)
    assert cancelled.returncode == 0, cancelled.stderr
    assert api.tournament(tid)["status"] == "cancelled" and api.tournament(tid)["seed"] in cancelled.stdout
    no_token = spidertour("tournament", "cancel", str(tid), SPIDERTOUR_URL=server.url)
    assert no_token.returncode == 2 and "ADMIN_TOKEN" in no_token.stderr
    nothing = spidertour("tournament", "edit", str(tid), **env)
    assert nothing.returncode == 2 and "nothing to change" in nothing.stderr


def test_schedule_commands(api: Api, server: Any, admin_token: str) -> None:
    env = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    name = unique("cli-daily")
    made = spidertour(
        "schedule",
        "create",
        "--name",
        name,
        "--every",
        "day",
        "--at",
        "23:59",
        "--ahead-minutes",
        "1440",
        "--suits",
        "1",
        **env,
    )
    assert made.returncode == 0, made.stderr
    schedule = json.loads(made.stdout)
    assert schedule["every_minutes"] == 1440 and len(schedule["tournaments"]) == 1
    tour = api.tournament(schedule["tournaments"][0])
    opens = datetime.fromisoformat(tour["opens_at"])
    assert (opens.hour, opens.minute) == (23, 59) and tour["name"].startswith(name)
    listed = spidertour("schedule", "list", **env)
    assert schedule["id"] in [s["id"] for s in json.loads(listed.stdout)]
    stopped = spidertour("schedule", "stop", str(schedule["id"]), **env)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    bad = spidertour("schedule", "create", "--name", "x", "--every", "fortnightly", **env)
    assert bad.returncode == 2 and "--every" in bad.stderr


def test_first_occurrence() -> None:
    now = datetime(2026, 11, 23, 20, 30, tzinfo=UTC)
    assert first_occurrence("20:00", 1440, now) == datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    assert first_occurrence("21:15", 1440, now) == datetime(2026, 11, 23, 21, 15, tzinfo=UTC)
    assert first_occurrence("00:45", 60, now) == datetime(2026, 11, 23, 20, 45, tzinfo=UTC)
    assert first_occurrence("00:10", 60, now) == now.replace(minute=10) + timedelta(hours=1)
