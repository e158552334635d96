"""``spidertour organiser create --handle`` and ``spidertour club codes|progress`` against a real
server, the organiser's commands run with a session of its account."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from tests.client import Api, bearer
from tests.server.communities.kit import signed_in
from tests.server.communities.test_pupils import code_sign_in, roster
from tests.server.helpers import spidertour


def test_an_account_organiser_runs_its_class_from_the_command_line(api: Api, server: Any, admin_token: str) -> None:
    owner = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    player_id, handle, session = signed_in(api, "Ms Smith")
    done = spidertour("organiser", "create", "--handle", handle, **owner)
    assert done.returncode == 0, done.stderr
    assert f"player {player_id}'s sessions carry its rights" in done.stdout and "token" not in done.stdout
    both = spidertour("organiser", "create", "x", "--handle", handle, **owner)
    assert both.returncode == 2 and "NAME" in both.stderr

    teacher = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": session}  # its session, not a token of its own
    done = spidertour("club", "create", "Class 4B", **teacher)
    assert done.returncode == 0, done.stderr
    club_id = json.loads(done.stdout)["id"]
    ann, bo = roster(api, session, club_id, "Ann Smith", "Bo Jones")
    done = spidertour("club", "codes", str(club_id), str(ann["player_id"]), **teacher)
    assert done.returncode == 0, done.stderr
    (slip,) = list(csv.DictReader(io.StringIO(done.stdout)))
    assert slip["name"] == "Ann Smith" and slip["club"] == "Class 4B" and slip["signin_url"].endswith("/#/account")
    assert code_sign_in(api, ann).status_code == 401 and code_sign_in(api, ann, slip["code"]).status_code == 201
    done = spidertour("club", "progress", str(club_id), **teacher)
    assert done.returncode == 0, done.stderr
    lines = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(x["name"], x["played"]) for x in lines] == [("Ann Smith", "0"), ("Bo Jones", "0")]
    assert lines[0]["last_seen"] != "" and lines[1]["last_seen"] == ""  # Ann signed in just now
    pupil = spidertour("club", "progress", str(club_id), SPIDERTOUR_URL=server.url, ADMIN_TOKEN=bo["code"])
    assert pupil.returncode == 1  # a code is no token: refused
    assert api.http.get(f"/api/clubs/{club_id}/members", headers=bearer(session)).status_code == 200
