"""``spidertour bracket``: an organiser creates, edits and shows a bracket, a player joins it, and the
organiser cancels it, all against a real server."""

from __future__ import annotations

import json

from tests.client import Api
from tests.server.helpers import spidertour, stamp
from tests.serverproc import ServerProcess

from .kit import players


def test_create_join_show_edit_and_cancel(bapi: Api, bracket_server: ServerProcess) -> None:
    url = bracket_server.url
    admin = {"ADMIN_TOKEN": bapi.admin_token}
    made = spidertour(
        "bracket", "create", "--server", url, "--name", "Spring cup", "--opens-at", stamp(600), "--suits", "1",
        "--time-limit", "300", "--break-seconds", "0", "--entry-code", "spring26", **admin,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    cup = json.loads(made.stdout)
    assert cup["status"] == "scheduled" and cup["settings"]["suits"] == 1 and cup["break_seconds"] == 0
    (_, token), (pid, other) = players(bapi, 2)
    refused = spidertour("bracket", "join", str(cup["id"]), "--server", url, "--token", token)
    assert refused.returncode != 0 and "entry code" in refused.stderr
    joined = spidertour(
        "bracket", "join", str(cup["id"]), "--server", url, "--token", token, "--entry-code", "spring26"
    )
    assert joined.returncode == 0 and f"joined bracket {cup['id']}" in joined.stdout, joined.stderr
    spidertour("bracket", "join", str(cup["id"]), "--server", url, "--token", other, "--entry-code", "spring26")
    edited = spidertour("bracket", "edit", str(cup["id"]), "--server", url, "--break-seconds", "30", **admin)
    assert edited.returncode == 0 and json.loads(edited.stdout)["break_seconds"] == 30, edited.stderr
    dq = spidertour("bracket", "disqualify", str(cup["id"]), str(pid), "--server", url, "--reason", "left", **admin)
    assert dq.returncode == 0 and f"player {pid} disqualified" in dq.stdout, dq.stderr
    shown = spidertour("bracket", "show", str(cup["id"]), "--server", url)
    assert shown.returncode == 0 and "'Spring cup': scheduled, 1 entrant(s)" in shown.stdout, shown.stdout
    cancelled = spidertour("bracket", "cancel", str(cup["id"]), "--server", url, **admin)
    assert cancelled.returncode == 0 and f"bracket {cup['id']} cancelled; its seed: " in cancelled.stdout
    again = spidertour("bracket", "cancel", str(cup["id"]), "--server", url, **admin)
    assert again.returncode != 0 and "cancelled" in again.stderr
    bad = spidertour("bracket", "create", "--server", url, "--name", "x", "--opens-at", stamp(600), "--break-seconds",
                     "-1", **admin)  # fmt: skip
    assert bad.returncode == 2 and "break_seconds" in bad.stderr
