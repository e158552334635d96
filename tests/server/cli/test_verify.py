"""``spidertour verify`` against a real server: a finished tournament agrees; tampered data does not."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from spidertour.server.cli.verify import fetch, verify, verify_data
from tests.client import Api, Player
from tests.serverproc import ROOT, free_port

SEED = "verify-seed"


def spidertour(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spidertour.server.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="module")
async def finished(api: Api, server: Any) -> dict[str, Any]:
    """A finished tournament: one game ended after a reveal (25), one ended at once (0), one never started."""
    tour = api.create_tournament(name="verify", seed=SEED, closes_in=2.0, variant="spider78", suits=2, time_limit=60)
    entries = {}
    for name in ("revealer", "quitter", "absentee"):
        _, token = api.register(name)
        entries[name] = (api.join(tour["id"], token), token)
    plays: list[tuple[str, list[dict[str, Any]]]] = [
        ("revealer", [{"type": "move", "from": 0, "count": 1, "to": 8}]),
        ("quitter", []),
    ]
    for name, moves in plays:
        entry, token = entries[name]
        player, _ = await Player.connect(server.ws_url, entry["id"], token)
        await player.start()
        for move in [*moves, {"type": "end"}]:
            assert (await player.play(move))["type"] == "result"
        assert (await player.recv())["type"] == "over"
        await player.close()
    deadline = time.monotonic() + 5
    while api.tournament(tour["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the tournament never finished"
        await asyncio.sleep(0.1)
    return {"tournament": api.tournament(tour["id"]), "entries": {n: e["id"] for n, (e, _) in entries.items()}}


def replays_of(api: Api, tournament_id: int) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/tournaments/{tournament_id}/replays")
    assert r.status_code == 200
    return [json.loads(line) for line in r.text.splitlines()]


def lines(games: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(g) + "\n" for g in games)


# ----------------------------------------------------------------------------- everything agrees


def test_verify_command_agrees_with_a_finished_tournament(server: Any, finished: dict[str, Any]) -> None:
    tid = finished["tournament"]["id"]
    done = spidertour("verify", "--server", server.url, str(tid))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK:" in done.stdout and "MISMATCH" not in done.stdout and "FAIL" not in done.stdout
    for name in finished["entries"]:
        assert name in done.stdout
    assert finished["tournament"]["commitment"] in done.stdout
    by_env = spidertour("verify", str(tid), env={"SPIDERTOUR_URL": server.url})
    assert by_env.returncode == 0 and "OK:" in by_env.stdout, by_env.stdout + by_env.stderr


def test_verify_function_rebuilds_every_game(server: Any, finished: dict[str, Any]) -> None:
    report = verify(server.url, finished["tournament"]["id"])
    assert report.ok, report.problems
    assert {c.name for c in report.checks} >= {"seed", "settings", "commitment", "replays", "standings", "ranking"}
    scores = {g.entry_id: (g.rank, g.published, g.recomputed, g.standing, g.status) for g in report.games}
    e = finished["entries"]
    assert scores == {
        e["revealer"]: (1, 25, 25, 25, "ended"),
        e["quitter"]: (2, 0, 0, 0, "ended"),  # ended with more time left than the absentee's 0
        e["absentee"]: (3, 0, 0, 0, "absent"),
    }


# ----------------------------------------------------------------------------- tampering is caught


def test_a_tampered_final_score_fails(api: Api, server: Any, finished: dict[str, Any], tmp_path: Path) -> None:
    tid = finished["tournament"]["id"]
    games = replays_of(api, tid)
    target = finished["entries"]["quitter"]
    for g in games:
        if g["entry_id"] == target:
            g["final_score"] = 700
    path = tmp_path / "replays.jsonl"
    path.write_text(lines(games))
    done = spidertour("verify", "--server", server.url, "--replays", str(path), str(tid))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "MISMATCH" in done.stdout and "FAILED" in done.stdout
    assert f"entry {target}: published final score 700, the replay gives 0" in done.stdout
    piped = spidertour("verify", "--server", server.url, "--replays", "-", str(tid), stdin=lines(games))
    assert piped.returncode == 1 and "published final score 700" in piped.stdout


def test_tampered_moves_fail(api: Api, server: Any, finished: dict[str, Any]) -> None:
    tid = finished["tournament"]["id"]
    games = replays_of(api, tid)
    target = finished["entries"]["revealer"]
    for g in games:
        if g["entry_id"] == target:
            g["moves"] = [m for m in g["moves"] if m["type"] != "move"]  # the reveal never happened
    report = verify(server.url, tid, replays=lines(games))
    assert not report.ok
    problems = " | ".join(report.problems)
    assert f"entry {target}: published final score 25, the replay gives 0" in problems
    assert f"entry {target}: the standings give 25, the replay gives 0" in problems


def test_a_replay_on_another_seed_or_settings_fails(api: Api, server: Any, finished: dict[str, Any]) -> None:
    tid = finished["tournament"]["id"]
    games = replays_of(api, tid)
    games[0]["seed"] = "another-seed"
    games[1]["time_limit"] = 6000
    report = verify(server.url, tid, replays=lines(games))
    problems = " | ".join(report.problems)
    assert not report.ok
    assert f"entry {games[0]['entry_id']}: its seed is not the revealed seed" in problems
    assert f"entry {games[1]['entry_id']}: its settings differ from the tournament's: time_limit" in problems


def test_a_missing_or_broken_game_fails(api: Api, server: Any, finished: dict[str, Any]) -> None:
    tid = finished["tournament"]["id"]
    games = replays_of(api, tid)
    dropped = games.pop()
    report = verify(server.url, tid, replays=lines(games) + "{not json\n")
    assert not report.ok
    problems = " | ".join(report.problems)
    assert f"standings: entries with no replay: [{dropped['entry_id']}]" in problems
    assert "replay line 3: not valid JSON" in problems
    assert "replays: 2 game(s) for 3 entrants" in problems


def test_a_replays_file_nested_too_deeply_fails_in_one_line(
    server: Any, finished: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "\n")
    done = spidertour("verify", "--server", server.url, "--replays", str(path), str(finished["tournament"]["id"]))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert "replay line 1: not valid JSON (nested too deeply)" in done.stdout


def test_a_wrong_commitment_or_standings_fail(server: Any, finished: dict[str, Any]) -> None:
    tour, replays, standings = fetch(server.url, finished["tournament"]["id"])
    assert verify_data(tour, replays, standings).ok
    forged = {**tour, "commitment": "0" * 64}
    report = verify_data(forged, replays, standings)
    assert [c.name for c in report.checks if not c.ok] == ["commitment"]
    swapped = [{**standings[1], "rank": 1}, {**standings[0], "rank": 2}, standings[2]]
    report = verify_data(tour, replays, swapped)
    assert [c.name for c in report.checks if not c.ok] == ["ranking"]
    rescored = [{**standings[0], "score": standings[0]["score"] + 1}, *standings[1:]]
    assert "the standings give 26, the replay gives 25" in " | ".join(verify_data(tour, replays, rescored).problems)


# ----------------------------------------------------------------------------- cannot verify: exit 2


def assert_bad_input(done: subprocess.CompletedProcess[str], needle: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert needle in done.stderr, done.stderr


def test_unknown_unfinished_or_unreachable_is_bad_input(api: Api, server: Any, tmp_path: Path) -> None:
    assert_bad_input(spidertour("verify", "--server", server.url, "987654321"), "no tournament 987654321")
    running = api.create_tournament(name="still open")
    assert_bad_input(spidertour("verify", "--server", server.url, str(running["id"])), "is open")
    assert_bad_input(spidertour("verify", "--server", f"http://127.0.0.1:{free_port()}", "1"), "cannot reach")
    assert_bad_input(spidertour("verify", "--server", "not a url", "1"), "not a server address: 'not a url'")
    assert_bad_input(
        spidertour("verify", "--server", server.url, "--replays", str(tmp_path / "none"), "1"), "cannot read"
    )
    usage = spidertour("verify", "--server", server.url, "seven")
    assert usage.returncode == 2 and "is not an id" in usage.stderr and "Traceback" not in usage.stderr
