"""The par at a stated human pace: its line replayed by the engine at that pace scores exactly the
par shown, in time or not; pars stored before the pace was stated stay readable."""

from __future__ import annotations

import asyncio
import shutil
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from spidertour.engine import Settings
from spidertour.engine.replay import replay_game
from spidertour.engine.solver import HUMAN_PACE, solve
from spidertour.server.storage.migrations import SCHEMA, migrate
from tests.client import Api


def finished_par(api: Api, time_limit: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A spider78 1-suit tournament on seed "abc" with ``time_limit``, once finished with its par:
    (the tournament, GET .../par)."""
    now = datetime.now(UTC)
    body = {
        "name": "pace",
        "settings": {"variant": "spider78", "suits": 1, "time_limit": time_limit},
        "seed": "abc",
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(seconds=2)).isoformat(),
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    return asyncio.run(wait_par(api, r.json()["id"]))


async def wait_par(api: Api, tid: int) -> tuple[dict[str, Any], dict[str, Any]]:
    deadline = time.monotonic() + 60
    while (tour := api.tournament(tid))["par"] is None or tour["status"] != "finished":
        assert time.monotonic() < deadline, f"no par: {tour}"
        await asyncio.sleep(0.2)
    r = api.http.get(f"/api/tournaments/{tid}/par")
    assert r.status_code == 200, r.text
    return tour, r.json()


def test_a_par_in_time_replays_at_its_pace_to_the_par_shown(api: Api) -> None:
    tour, game = finished_par(api, 600)
    par = tour["par"]
    assert par["pace"] == game["pace"] == HUMAN_PACE and par["in_time"] is True
    assert [m["t"] for m in game["moves"][:2]] == [HUMAN_PACE, 2 * HUMAN_PACE]
    out = replay_game(game)
    assert out["steps"][-1]["outcome"] == "won"
    assert out["final_score"] == par["final_score"] == game["final_score"]


def test_a_par_too_long_for_the_time_limit_is_what_its_line_reaches_when_time_runs_out(api: Api) -> None:
    tour, game = finished_par(api, 60)
    par = tour["par"]
    assert par["outcome"] == "won" and par["in_time"] is False and par["pace"] == HUMAN_PACE
    # The published line stops where the clock ends it: 29 moves at 2, 4, ..., 58 s, then the end at 60 s.
    assert game["line_moves"] == par["moves"] > 30 and len(game["moves"]) == 30
    assert game["moves"][-1] == {"type": "end", "t": 60}
    out = replay_game(game)
    assert out["steps"][-1]["outcome"] == "timed_out"
    assert out["final_score"] == par["final_score"] == game["final_score"]
    # Not the score of the whole line at some faster pace: what the engine scores at the stated one.
    whole = solve(Settings(variant="spider78", suits=1, time_limit=600), "abc", nodes=5_000, pace=HUMAN_PACE)
    assert whole.final_score is not None and par["final_score"] < whole.final_score


async def test_a_par_stored_before_the_pace_was_stated_stays_readable(fresh_database_url: str, tmp_path: Path) -> None:
    before = tmp_path / "schema"
    before.mkdir()
    for path in SCHEMA.iterdir():
        if path.name.endswith(".sql") and path.name < "007":
            shutil.copy(str(path), before / path.name)
    conn = await asyncpg.connect(fresh_database_url)
    try:
        await migrate(conn, before)
        for tid, limit, n in ((1, 600, 120), (2, 60, 120)):
            await conn.execute(
                """INSERT INTO tournaments (id, name, settings, seed, commitment, opens_at, closes_at)
                   VALUES ($1, 'old', $2::jsonb, 'abc', 'c', now(), now() + interval '1 hour')""",
                tid,
                f'{{"variant": "spider78", "suits": 1, "time_limit": {limit}}}',
            )
            await conn.execute(
                """INSERT INTO pars (tournament_id, outcome, moves, final_score, pace, nodes)
                   VALUES ($1, 'won', $2::jsonb, 100, 1.0, 1)""",
                tid,
                "[" + ",".join(['{"type": "deal"}'] * n) + "]",
            )
        assert (await migrate(conn))[0] == 7  # and every migration after it
        rows = await conn.fetch("SELECT tournament_id, pace, in_time FROM pars ORDER BY tournament_id")
    finally:
        await conn.close()
    assert [(r["tournament_id"], r["pace"], r["in_time"]) for r in rows] == [(1, 1.0, True), (2, 1.0, False)]
