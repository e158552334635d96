"""The organiser's integrity report: a scripted peek and a scripted scout are flagged with their evidence,
entries from one address are listed together, and no raw address is stored anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest
import redis

from spidertour.engine import Settings
from spidertour.server.fairplay.integrity import IDLE_SECONDS, scout
from tests.client import Api, Player, bearer
from tests.serverproc import ROOT

SEED = "integrity-seed"
REVEAL = {"type": "move", "from": 0, "count": 1, "to": 8}  # column 0's exposed card onto the free column


@pytest.fixture(scope="module")
async def played(api: Api, server: Any) -> dict[str, Any]:
    tour = api.create_tournament(name="integrity", seed=SEED, variant="spider78", suits=2, time_limit=600)
    entries: dict[str, Any] = {}
    for name in ("peeker", "scout", "honest"):
        _, token = api.register(name)
        entries[name] = api.join(tour["id"], token)
        player, _ = await Player.connect(server.ws_url, entries[name]["id"], token)
        await player.start()
        if name == "peeker":  # look under column 0, then take it back
            assert (await player.play(REVEAL))["revealed"] == 1
            undone = await player.play({"type": "undo"})
            assert undone["type"] == "result" and undone["view"]["score"] == 0
        elif name == "scout":  # deal three of the five piles at once, then leave
            for pile in (0, 1, 2):
                assert (await player.play({"type": "deal", "pile": pile}))["type"] == "result"
            assert (await player.play({"type": "end"}))["type"] == "result"
        else:
            assert (await player.play(REVEAL))["revealed"] == 1
        await player.close()
    return {"tournament": tour, "entries": entries}


def flags_of(report: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in report["flags"] if f["type"] == kind]


def test_the_report_needs_the_admin_token(api: Api, played: dict[str, Any]) -> None:
    tid = played["tournament"]["id"]
    assert api.http.get(f"/api/tournaments/{tid}/integrity").status_code == 401
    _, token = api.register("curious")
    assert api.http.get(f"/api/tournaments/{tid}/integrity", headers=bearer(token)).status_code == 403
    assert api.http.get("/api/tournaments/999999/integrity", headers=api.admin()).status_code == 404


def test_a_peek_and_a_scout_are_flagged_with_their_evidence(api: Api, played: dict[str, Any]) -> None:
    tid = played["tournament"]["id"]
    ids = {name: e["id"] for name, e in played["entries"].items()}
    r = api.http.get(f"/api/tournaments/{tid}/integrity", headers=api.admin())
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["entries"] == 3 and report["thresholds"]["scout_deals"] == 3

    peeks = flags_of(report, "undo_peek")
    assert [f["entry"]["entry_id"] for f in peeks] == [ids["peeker"]]
    [peek] = peeks[0]["peeks"]
    assert (peek["move"], peek["undo_move"], peek["column"]) == (1, 2, 0)
    assert 0 <= peek["t"] <= peek["undo_t"] and peek["seconds"] <= report["thresholds"]["peek_seconds"]
    assert "move 1 undone by move 2" in peeks[0]["summary"]

    scouts = flags_of(report, "scout")
    assert [f["entry"]["entry_id"] for f in scouts] == [ids["scout"]]
    flag = scouts[0]
    assert [(d["move"], d["pile"]) for d in flag["deals"]] == [(1, 0), (2, 1), (3, 2)]
    assert flag["then"] == "ended" and flag["then_move"] == 4 and flag["entry"]["status"] == "ended"
    assert "dealt 3 of 5 piles" in flag["summary"]

    # Everybody here came from 127.0.0.1: one flag per kind of request, with every entry.
    shared = {f["seen_at"]: f for f in flags_of(report, "shared_address")}
    assert set(shared) == {"registration", "join", "play"}
    for flag in shared.values():
        assert {e["entry_id"] for e in flag["entries"]} == set(ids.values())
    assert len({f["address"] for f in shared.values()}) == 1  # one address, one name
    assert "127.0.0.1" not in r.text


async def test_no_raw_address_is_stored(
    api: Api, played: dict[str, Any], database_url: str, redis_url: str, redis_prefix: str
) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        dumps = [
            await conn.fetchval(f"SELECT coalesce(string_agg(x::text, ' '), '') FROM {table} x")
            for table in ("players", "entries", "moves", "tournaments")
        ]
        hashes = await conn.fetch(
            "SELECT address_hash, play_address_hash FROM entries WHERE tournament_id = $1", played["tournament"]["id"]
        )
    finally:
        await conn.close()
    assert all("127.0.0.1" not in d for d in dumps)
    assert all(
        len(bytes(r["address_hash"])) == 32 and bytes(r["play_address_hash"]) == bytes(r["address_hash"])
        for r in hashes
    )
    client = redis.Redis.from_url(redis_url)
    try:
        keys = [k.decode() for k in client.scan_iter(match=f"{redis_prefix}:limit:*")]
    finally:
        client.close()
    assert keys and all("127.0.0.1" not in k for k in keys)


def test_the_integrity_command(api: Api, played: dict[str, Any], server: Any, admin_token: str) -> None:
    tid = played["tournament"]["id"]
    run = subprocess.run(
        [sys.executable, "-m", "spidertour.server.cli", "integrity", str(tid), "--server", server.url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "ADMIN_TOKEN": admin_token},
    )
    assert run.returncode == 0, run.stderr
    assert "undo_peek" in run.stdout and "scout" in run.stdout and "shared_address" in run.stdout
    assert "move 1 at" in run.stdout and "undone by move 2" in run.stdout
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "spidertour.server.cli",
            "integrity",
            str(tid),
            "--server",
            server.url,
            "--admin-token",
            "wrong",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and "403" in refused.stderr


def test_a_scout_that_idles_is_flagged_too() -> None:
    """The idle branch without waiting a minute: the report's rule on a game's recorded moves."""
    settings = Settings(variant="spider78", suits=2)
    row: dict[str, Any] = {
        "entry_id": 7,
        "ordinal": 2,
        "player_id": 3,
        "player": "idler",
        "status": "timed_out",
        "score": 0,
        "final_score": 0,
        "started_at": datetime.now(UTC) - timedelta(minutes=10),
        "moves": [{"type": "deal", "pile": p, "t": 2.0 + p} for p in range(4)]
        + [{"type": "move", "from": 0, "count": 1, "to": 8, "t": 200.0}],
    }
    flag = scout(settings, row, elapsed=600.0)
    assert flag is not None and flag.then == "idled"
    assert flag.then_move == 4 and flag.then_t == 5.0 and flag.idle_seconds == 195.0 >= IDLE_SECONDS
    busy = {**row, "moves": [*row["moves"][:4], {"type": "move", "from": 0, "count": 1, "to": 8, "t": 30.0}]}
    assert scout(settings, busy, elapsed=40.0) is None  # still playing: no pause yet
    slow = {**row, "moves": [{"type": "deal", "pile": p, "t": 100.0 + p} for p in range(4)]}
    assert scout(settings, slow, elapsed=600.0) is None  # the deals came late: not scouting
