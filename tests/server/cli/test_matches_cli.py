"""``spidertour matches formats|ask|show`` and ``spidertour bots --matches`` against a real server."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx

from tests.client import Player, seat_waiting
from tests.server.helpers import spidertour

FORMAT = "spider78-1suit-5min"


def _formats(server: Any) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in httpx.get(f"{server.url}/api/matches/formats").json()}


def test_formats_lists_what_the_server_offers_with_its_counts(server: Any) -> None:
    env = {"SPIDERTOUR_URL": server.url}
    listed = spidertour("matches", "formats", "--json", **env)
    assert listed.returncode == 0, listed.stderr
    assert {f["name"] for f in json.loads(listed.stdout)} == set(_formats(server))
    table = spidertour("matches", "formats", **env)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["format", "game", "seats", "waiting", "playing"]
    row = next(line for line in lines if line.startswith(FORMAT + " "))
    f = _formats(server)[FORMAT]
    assert row.split()[-3:] == [str(f["seats"]), str(f["waiting"]), str(f["playing"])]


async def test_two_players_ask_play_and_the_result_shows(server: Any) -> None:
    env = {"SPIDERTOUR_URL": server.url}
    seat_waiting(server.url, FORMAT)
    before = _formats(server)[FORMAT]["waiting"]
    host = spidertour("matches", "ask", FORMAT, "--name", "Ann from the terminal", **env)
    assert host.returncode == 0, host.stderr
    token = re.search(r"shown this once: (\S+)", host.stdout)
    match_id = re.search(r"^match (\d+) ", host.stdout, re.M)
    entry = re.search(r"entry (\d+): play it at (\S+)", host.stdout)
    assert token and match_id and entry, host.stdout
    assert entry.group(2) == f"{server.url}/#/play/{entry.group(1)}"
    assert "you host it" in host.stdout
    assert _formats(server)[FORMAT]["waiting"] == before + 1

    second = spidertour("matches", "ask", FORMAT, "--name", "Bob", "--json", **env)
    assert second.returncode == 0, second.stderr
    seat = json.loads(second.stdout)  # the server's answer, and the new guest's token
    assert seat["match"]["id"] == int(match_id.group(1))
    assert sorted(p["player"] for p in seat["match"]["players"]) == ["Ann from the terminal", "Bob"]
    shown = spidertour("matches", "show", match_id.group(1), **env)
    assert shown.returncode == 0, shown.stderr
    assert "Ann from the terminal" in shown.stdout and "Bob" in shown.stdout
    assert "rank" not in shown.stdout  # not over: no result columns

    for eid, tok in ((int(entry.group(1)), token.group(1)), (seat["entry"]["id"], seat["token"])):
        player, _ = await Player.connect(server.ws_url, eid, tok)
        await player.start()
        await player.play({"type": "end"})
        await player.close()
    deadline = time.monotonic() + 10
    while json.loads(spidertour("matches", "show", match_id.group(1), "--json", **env).stdout)["status"] != "over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.2)
    result = spidertour("matches", "show", match_id.group(1), **env)
    assert result.returncode == 0, result.stderr
    head = result.stdout.splitlines()[2].split()
    assert head[:4] == ["seat", "player", "status", "rating"] and "rank" in head and "score" in head
    assert "seed" in result.stdout


def test_refusals_are_one_line_and_change_nothing(server: Any) -> None:
    env = {"SPIDERTOUR_URL": server.url}
    before = _formats(server)
    nothing = spidertour("matches", "ask", FORMAT, **env)
    assert nothing.returncode == 2 and "--token" in nothing.stderr and "--name" in nothing.stderr
    unknown = spidertour("matches", "ask", "no-such-format", "--name", "Cy", **env)
    assert unknown.returncode == 1 and re.search(r"error 4\d\d: ", unknown.stderr), unknown.stderr
    assert "Traceback" not in unknown.stderr
    bad_token = spidertour("matches", "ask", FORMAT, "--token", "not-a-token", **env)
    assert bad_token.returncode == 1 and "error 401" in bad_token.stderr
    missing = spidertour("matches", "show", "987654321", **env)
    assert missing.returncode == 1 and "error 404" in missing.stderr
    not_an_id = spidertour("matches", "show", "abc", **env)
    assert not_an_id.returncode == 2 and "is not an id" in not_an_id.stderr
    assert {n: (f["waiting"], f["playing"]) for n, f in _formats(server).items()} == {
        n: (f["waiting"], f["playing"]) for n, f in before.items()
    }


def test_bots_fill_a_server_with_matches(server: Any, tmp_path: Path) -> None:
    figures = tmp_path / "figures.json"
    done = spidertour(
        "bots",
        "--server",
        server.url,
        "--matches",
        FORMAT,
        "--players",
        "4",
        "--pace",
        "8",
        "--duration",
        "2",
        "--end-early",
        "1",
        "--no-live",
        "--json",
        str(figures),
        "--seed",
        "3",
        "--connect-concurrency",
        "1",  # one ask at a time: two at once may both open a match (the second skips the first's locked row)
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(figures.read_text())
    assert got["match_format"] == FORMAT and got["players"] == 4
    assert got["matches"] == 2  # head to head: four bots of one band, asking in turn, two matches
    assert got["acknowledged_moves"] > 0 and got["error_count"] == 0, got
    deadline = time.monotonic() + 10
    while _formats(server)[FORMAT]["playing"] and time.monotonic() < deadline:
        time.sleep(0.2)  # every bot ended its game: the matches are over


def test_bots_refuse_matches_with_watchers_or_an_unknown_format(server: Any) -> None:
    watchers = spidertour("bots", "--server", server.url, "--matches", FORMAT, "--watchers", "2", "--no-live")
    assert watchers.returncode == 2 and "--watchers" in watchers.stderr
    both = spidertour("bots", "--server", server.url, "--matches", FORMAT, "--tournament", "1", "--no-live")
    assert both.returncode == 2 and "not both" in both.stderr
    unknown = spidertour("bots", "--server", server.url, "--matches", "nope", "--players", "1", "--no-live")
    assert unknown.returncode == 2 and FORMAT in unknown.stderr and "Traceback" not in unknown.stderr
