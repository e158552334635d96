"""``spidertour organiser`` and ``spidertour club`` against a real server."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from tests.client import Api, bearer
from tests.server.helpers import spidertour, unique


def test_organiser_and_club_commands(api: Api, server: Any, admin_token: str, tmp_path: Path) -> None:
    owner = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    name = unique("cli organiser")
    done = spidertour("organiser", "create", name, **owner)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip().splitlines()[-1]
    listed = json.loads(spidertour("organiser", "list", **owner).stdout)
    (mine,) = [o for o in listed if o["name"] == name]

    as_organiser = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": token}
    done = spidertour("club", "create", unique("cli club"), **as_organiser)
    assert done.returncode == 0, done.stderr
    club = json.loads(done.stdout)
    assert club["organisers"][0]["id"] == mine["id"]
    roster = tmp_path / "roster.csv"
    roster.write_text("name,handle\nAnn,\nBo,\n", encoding="utf-8")
    done = spidertour("club", "roster", str(club["id"]), str(roster), **as_organiser)
    assert done.returncode == 0, done.stderr
    sheet = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [s["name"] for s in sheet] == ["Ann", "Bo"] and all(len(s["code"]) == 10 for s in sheet)
    members = json.loads(spidertour("club", "members", str(club["id"]), **as_organiser).stdout)
    assert sorted(m["name"] for m in members) == ["Ann", "Bo"]
    invite = spidertour("club", "invite", str(club["id"]), **as_organiser).stdout.strip()
    assert invite == api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(token)).json()["invite"]
    bad = tmp_path / "bad.csv"
    bad.write_text("name\nAnn\n\n", encoding="utf-8")
    done = spidertour("club", "roster", str(club["id"]), str(bad), **as_organiser)
    assert done.returncode == 1 and "line 2" in done.stderr
    missing = spidertour("club", "roster", str(club["id"]), str(tmp_path / "none.csv"), **as_organiser)
    assert missing.returncode == 2 and "cannot read" in missing.stderr

    done = spidertour(
        "tournament",
        "create",
        "--name",
        unique("4B"),
        "--club",
        str(club["id"]),
        "--entry-code",
        "heron",
        **as_organiser,
    )
    assert done.returncode == 0, done.stderr
    tour = json.loads(done.stdout)
    assert tour["club"]["id"] == club["id"] and tour["entry_code"] == "heron" and tour["listed"] is False
    assert tour["organiser"]["id"] == mine["id"]

    done = spidertour("organiser", "revoke", str(mine["id"]), **owner)
    assert done.returncode == 0, done.stderr
    refused = spidertour("club", "members", str(club["id"]), **as_organiser)
    assert refused.returncode == 1 and "403" in refused.stderr
