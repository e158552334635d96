"""Certified deals and the par: nothing the solver found shows before the finish, the par after it."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from spidertour.engine.replay import replay_game
from tests.client import Api
from tests.server.helpers import canonical_commitment, fetch


def create(api: Api, closes_in: float, **extra: Any) -> Any:
    now = datetime.now(UTC)
    body = {
        "name": "solver",
        "settings": {"variant": "spider78", "suits": 1, "time_limit": 600},
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(seconds=closes_in)).isoformat(),
        **extra,
    }
    return api.http.post("/api/tournaments", json=body, headers=api.admin(), timeout=120)


async def finished_with_par(api: Api, tid: int, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        tour = api.tournament(tid)
        if tour["status"] == "finished" and tour["par"] is not None:
            return tour
        assert time.monotonic() < deadline, f"no par: {tour}"
        await asyncio.sleep(0.2)


def public_text(api: Api, tid: int) -> str:
    """Everything anyone may read of a tournament before its finish."""
    parts = [
        api.http.get(f"/api/tournaments/{tid}").text,
        api.http.get("/api/tournaments").text,
        api.http.get(f"/api/tournaments/{tid}/standings").text,
        api.http.get(f"/api/tournaments/{tid}/par").text,
        api.http.get(f"/api/tournaments/{tid}/replays").text,
    ]
    return "\n".join(parts)


def check_par_line(api: Api, tour: dict[str, Any]) -> dict[str, Any]:
    r = api.http.get(f"/api/tournaments/{tour['id']}/par")
    assert r.status_code == 200, r.text
    game = r.json()
    assert game["seed"] == tour["seed"] and game["outcome"] == tour["par"]["outcome"] == "won"
    out = replay_game(game)  # the engine alone, from the revealed seed: the line wins
    assert out["steps"][-1]["outcome"] == "won"
    assert out["final_score"] == game["final_score"] == tour["par"]["final_score"]
    assert len(game["moves"]) == game["line_moves"] == tour["par"]["moves"]
    assert game["pace"] == tour["par"]["pace"] == 2 and game["in_time"] is tour["par"]["in_time"] is True
    return dict(game)


async def test_a_certified_deal_reveals_nothing_before_the_finish(api: Api, database_url: str) -> None:
    r = create(api, closes_in=4, certified=True, certify_seconds=3)
    assert r.status_code == 201, r.text
    tour = r.json()
    tid = tour["id"]
    assert tour["certified"] is True and tour["seed"] is None and tour["par"] is None
    (row,) = await fetch(database_url, "SELECT seed, salt, settings FROM tournaments WHERE id = $1", tid)
    seed = row["seed"]
    settings = json.loads(row["settings"]) if isinstance(row["settings"], str) else row["settings"]
    assert tour["commitment"] == canonical_commitment(seed, settings, row["salt"])
    # The certification's win is stored already, secretly.
    (par,) = await fetch(database_url, "SELECT outcome, moves FROM pars WHERE tournament_id = $1", tid)
    assert par["outcome"] == "won"
    first_move = json.dumps(json.loads(par["moves"])[0] if isinstance(par["moves"], str) else par["moves"][0])
    text = public_text(api, tid)
    assert seed not in text and first_move not in text
    listed = next(t for t in api.http.get("/api/tournaments").json() if t["id"] == tid)
    assert listed["certified"] is True and listed["par"] is None and listed["seed"] is None
    r = api.http.get(f"/api/tournaments/{tid}/par")
    assert r.status_code == 403 and "finished" in r.json()["detail"]

    done = await finished_with_par(api, tid)
    assert done["seed"] == seed and done["certified"] is True
    check_par_line(api, done)


async def test_the_par_appears_only_after_the_finish(api: Api) -> None:
    r = create(api, closes_in=3, seed="abc")
    assert r.status_code == 201, r.text
    tour = r.json()
    tid = tour["id"]
    assert tour["certified"] is False and tour["par"] is None
    assert api.http.get(f"/api/tournaments/{tid}/par").status_code == 403
    while (seen := api.tournament(tid))["status"] != "finished":
        assert seen["par"] is None
        par = api.http.get(f"/api/tournaments/{tid}/par")
        assert par.status_code == 403 or api.tournament(tid)["status"] == "finished"  # it may finish in between
        await asyncio.sleep(0.2)
    done = await finished_with_par(api, tid)
    game = check_par_line(api, done)
    # 30 cards turned, 6 sequences, one move every 2 s from 600 s, and the free-column bonus if unused.
    base = 750 + 600 + (600 - 2 * len(game["moves"]))
    assert game["pace"] == 2 and game["final_score"] in (base, base + 100)


async def test_a_certified_deal_that_cannot_be_found_is_refused_and_nothing_is_created(
    api: Api, database_url: str
) -> None:
    before = (await fetch(database_url, "SELECT count(*) AS n FROM tournaments"))[0]["n"]
    hard = {"variant": "spider", "suits": 4}
    now = datetime.now(UTC)
    body = {"name": "hard", "settings": hard, "closes_at": (now + timedelta(hours=1)).isoformat()}
    r = api.http.post(
        "/api/tournaments", json={**body, "certified": True, "certify_seconds": 0.1}, headers=api.admin(), timeout=60
    )
    assert r.status_code == 422 and "none of 3 deals" in r.json()["detail"]
    r = api.http.post(
        "/api/tournaments",
        json={**body, "seed": "x", "certified": True, "certify_seconds": 0.1},
        headers=api.admin(),
        timeout=60,
    )
    assert r.status_code == 422 and "given seed" in r.json()["detail"]
    r = api.http.post("/api/tournaments", json={**body, "certify_seconds": 1}, headers=api.admin())
    assert r.status_code == 400 and "certified" in r.json()["detail"]
    for bad in (0, -1, 1000, "1"):
        r = api.http.post(
            "/api/tournaments", json={**body, "certified": True, "certify_seconds": bad}, headers=api.admin()
        )
        assert r.status_code == 400
    after = (await fetch(database_url, "SELECT count(*) AS n FROM tournaments"))[0]["n"]
    assert after == before


async def test_the_migration_makes_the_pars_table(database_url: str) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        cols = {
            r["column_name"]
            for r in await conn.fetch("SELECT column_name FROM information_schema.columns WHERE table_name = 'pars'")
        }
    finally:
        await conn.close()
    assert {"tournament_id", "outcome", "moves", "final_score", "pace", "entry", "nodes"} <= cols


async def test_editing_a_certified_deal_certifies_the_new_one(api: Api, database_url: str) -> None:
    now = datetime.now(UTC)
    body = {
        "name": "edited",
        "settings": {"variant": "spider78", "suits": 1},
        "opens_at": (now + timedelta(hours=1)).isoformat(),
        "certified": True,
        "certify_seconds": 3,
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin(), timeout=60)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    sql = "SELECT t.seed, p.moves FROM tournaments t JOIN pars p ON p.tournament_id = t.id WHERE t.id = $1"
    (before,) = await fetch(database_url, sql, tid)
    # New settings: a new deal, certified again with a fresh seed and its own line.
    r = api.http.patch(
        f"/api/tournaments/{tid}", json={"settings": {"variant": "spider", "suits": 1}}, headers=api.admin(), timeout=60
    )
    assert r.status_code == 200, r.text
    assert r.json()["certified"] is True and r.json()["seed"] is None and r.json()["par"] is None
    (after,) = await fetch(database_url, sql, tid)
    assert after["seed"] != before["seed"] and after["moves"] != before["moves"]
    # The stored line wins the new deal.
    game = {"variant": "spider", "suits": 1, "seed": after["seed"], "moves": json.loads(after["moves"])}
    assert replay_game(game)["steps"][-1]["outcome"] == "won"
    # A seed whose deal the solver does not win is refused, and nothing changes (this 4-suit
    # deal is not won in 700,000 positions, over 20 s of CPU; most 4-suit deals are won within 5 s).
    r = api.http.patch(
        f"/api/tournaments/{tid}",
        json={"settings": {"variant": "spider", "suits": 4}, "seed": "hard-6"},
        headers=api.admin(),
        timeout=60,
    )
    assert r.status_code == 422
    (same,) = await fetch(database_url, sql, tid)
    assert same["seed"] == after["seed"]
    # Cancelled: the seed and the par are published.
    r = api.http.post(f"/api/tournaments/{tid}/cancel", headers=api.admin())
    assert r.status_code == 200, r.text
    par = api.http.get(f"/api/tournaments/{tid}/par")
    assert par.status_code == 200 and par.json()["seed"] == after["seed"]


async def test_a_certified_four_suit_tournament_works_end_to_end(api: Api) -> None:
    """Four suits: the deal is certified (a win found before creation), and after the finish its par
    is that win, which the engine alone replays to a win with the score shown."""
    r = create(
        api,
        closes_in=120,
        seed="bench-spider-4-11",  # won by the solver in a few CPU seconds (tests/engine/solver)
        certified=True,
        certify_seconds=30,
        settings={"variant": "spider", "suits": 4, "time_limit": 900},
    )
    assert r.status_code == 201, r.text
    tour = r.json()
    assert tour["certified"] is True and tour["seed"] is None and tour["settings"]["suits"] == 4
    closed = api.http.post(f"/api/tournaments/{tour['id']}/close", headers=api.admin())
    assert closed.status_code == 200, closed.text
    done = await finished_with_par(api, tour["id"])
    assert done["seed"] == "bench-spider-4-11" and done["par"]["outcome"] == "won"
    check_par_line(api, done)
