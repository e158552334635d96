"""The organiser's actions over HTTP, against a real server, PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from spidertour.server.cli.verify import verify
from spidertour.server.config import Config
from spidertour.server.tournaments.pars import SolverPool
from spidertour.server.tournaments.schedules import create_scheduled, occurrences
from tests.client import Api, Player, bearer
from tests.server.helpers import FREE, assert_error, new_player, next_update, reveal_move, unique, watcher

SEED = "organiser-seed"


def iso(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def wait_for(check: Any, timeout: float = 8.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_organiser_routes_need_the_admin_token(api: Api) -> None:
    tid = api.create_tournament(name=unique("guarded"))["id"]
    _, player = api.register("not-admin")
    for method, path in [
        ("PATCH", f"/api/tournaments/{tid}"),
        ("POST", f"/api/tournaments/{tid}/close"),
        ("POST", f"/api/tournaments/{tid}/cancel"),
        ("GET", f"/api/tournaments/{tid}/entries"),
        ("POST", f"/api/tournaments/{tid}/entries/1/disqualify"),
        ("GET", "/api/schedules"),
        ("POST", "/api/schedules"),
        ("DELETE", "/api/schedules/1"),
    ]:
        assert_error(api.http.request(method, path), 401)
        assert_error(api.http.request(method, path, headers=bearer(player)), 403)
    assert api.tournament(tid)["status"] == "open"


async def test_editing_before_opening_only(api: Api, database_url: str) -> None:
    tour = api.create_tournament(name=unique("edit"), seed=SEED, opens_in=600, closes_in=1200)
    tid = tour["id"]
    r = api.http.patch(
        f"/api/tournaments/{tid}",
        headers=api.admin(),
        json={
            "name": "  Renamed cup ",
            "settings": {"variant": "spider78", "suits": 1, "time_limit": 300},
            "opens_at": iso(900),
            "closes_at": iso(4500),
        },
    )
    assert r.status_code == 200, r.text
    edited = r.json()
    assert edited["name"] == "Renamed cup" and edited["settings"]["suits"] == 1
    assert edited["settings"]["time_limit"] == 300 and edited["commitment"] != tour["commitment"]
    assert edited["status"] == "scheduled" and edited["seed"] is None
    for bad, needle in [
        ({"name": " "}, "name"),
        ({"closes_at": iso(60)}, "closes_at"),
        ({"settings": {"suits": 3}}, "suits"),
        ({"opens_at": "9999-01-01T00:00:00Z"}, ""),
    ]:
        assert_error(api.http.patch(f"/api/tournaments/{tid}", headers=api.admin(), json=bad), 400, needle)
    assert api.tournament(tid) == edited  # nothing changed
    open_now = api.create_tournament(name=unique("edit-open"))
    assert_error(
        api.http.patch(f"/api/tournaments/{open_now['id']}", headers=api.admin(), json={"name": "x"}), 409, "open"
    )
    assert_error(api.http.patch(f"/api/tournaments/{2**64}", headers=api.admin(), json={"name": "x"}), 404)


async def test_closing_entries_early(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("close"), seed=SEED)["id"]
    _, token = api.register("early")
    entry = api.join(tid, token)
    # A game in progress keeps the tournament closing (with none, the clock may finish it at once).
    busy, _ = await new_player(api, server.ws_url, tid, "busy")
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=api.admin())
    assert r.status_code == 200 and r.json()["status"] == "closing", r.text
    _, late = api.register("late")
    assert_error(api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(late)), 409)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    refused = await player.start()
    assert refused["type"] == "error" and refused["code"] == "not_open"
    await player.close()
    await busy.close()
    assert_error(api.http.post(f"/api/tournaments/{tid}/close", headers=api.admin()), 409)
    scheduled = api.create_tournament(name=unique("close-sched"), opens_in=600, closes_in=1200)
    assert_error(api.http.post(f"/api/tournaments/{scheduled['id']}/close", headers=api.admin()), 409, "scheduled")
    # Closed with no game running, a tournament finishes at the clock's next tick: too late to cancel.
    idle = api.create_tournament(name=unique("close-idle"), seed=SEED)["id"]
    assert api.http.post(f"/api/tournaments/{idle}/close", headers=api.admin()).status_code == 200
    wait_for(lambda: api.tournament(idle)["status"] == "finished")
    assert_error(api.http.post(f"/api/tournaments/{idle}/cancel", headers=api.admin()), 409, "finished")


async def test_cancelling_ends_games_reveals_the_seed_and_ranks_nothing(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("cancel"), seed=SEED, variant="spider78", suits=2)["id"]
    playing, entry = await new_player(api, server.ws_url, tid, "plays")
    assert (await playing.play(reveal_move(SEED)))["view"]["score"] == 25
    _, idle_token = api.register("idle")
    idle = api.join(tid, idle_token)
    ws, first = await watcher(server.ws_url, tid)
    assert first["status"] == "open"

    r = api.http.post(f"/api/tournaments/{tid}/cancel", headers=api.admin())
    assert r.status_code == 200, r.text
    tour = r.json()
    assert tour["status"] == "cancelled" and tour["seed"] == SEED and tour["cancelled_at"]
    stopped = await playing.recv()
    assert stopped["type"] == "error" and stopped["code"] == "stopped" and "cancelled" in stopped["reason"]
    state = await playing.recv()
    assert state["type"] == "state" and state["status"] == "ended" and state["view"]["over"]
    after = await playing.play({"type": "move", "from": 1, "count": 1, "to": FREE})
    assert after["type"] == "error" and after["code"] == "game_over"
    await playing.close()
    update = await next_update(ws)
    while update.get("status") is None:
        update = await next_update(ws)
    assert update["status"] == "cancelled"
    await ws.close()

    assert api.http.get(f"/api/tournaments/{tid}/standings").json() == []
    board = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()
    assert board["status"] == "cancelled" and board["rows"] == [] and board["entrants"] == 0
    entries = {e["id"]: e for e in api.http.get(f"/api/tournaments/{tid}/entries", headers=api.admin()).json()}
    assert entries[entry["id"]]["status"] == "ended" and entries[entry["id"]]["moves"] == 2
    assert entries[idle["id"]]["status"] == "absent" and entries[idle["id"]]["time_left"] == 0
    replays = [json.loads(line) for line in api.http.get(f"/api/tournaments/{tid}/replays").text.splitlines()]
    assert {g["entry_id"] for g in replays} == {entry["id"], idle["id"]}
    assert_error(api.http.post(f"/api/tournaments/{tid}/cancel", headers=api.admin()), 409, "cancelled")
    _, late = api.register("late")
    assert_error(api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(late)), 409, "cancelled")
    listed = api.http.get("/api/tournaments", params={"status": "cancelled"}).json()
    assert tid in [t["id"] for t in listed]


async def test_the_entries_list(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("entries"), seed=SEED, variant="spider78", suits=2)["id"]
    player, entry = await new_player(api, server.ws_url, tid, "lister")
    await player.play(reveal_move(SEED))
    _, token = api.register("waiting")
    waiting = api.join(tid, token)
    rows = api.http.get(f"/api/tournaments/{tid}/entries", headers=api.admin()).json()
    assert [r["id"] for r in rows] == [entry["id"], waiting["id"]]
    first, second = rows
    assert first["player"] == "lister" and first["status"] == "playing" and first["moves"] == 1
    assert first["score"] == 25 and 0 < first["time_left"] <= 600 and first["started_at"]
    assert first["disqualified"] is None
    assert second["status"] == "joined" and second["started_at"] is None and second["moves"] == 0
    page = api.http.get(f"/api/tournaments/{tid}/entries", headers=api.admin(), params={"offset": 1, "limit": 1})
    assert [r["id"] for r in page.json()] == [waiting["id"]]
    await player.close()


async def test_disqualifying_takes_an_entry_out_of_every_ranking(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("dq"), seed=SEED, variant="spider78", suits=2, time_limit=60, closes_in=4)[
        "id"
    ]
    cheat, cheat_entry = await new_player(api, server.ws_url, tid, "cheat")
    honest, honest_entry = await new_player(api, server.ws_url, tid, "honest")
    assert (await cheat.play(reveal_move(SEED)))["view"]["score"] == 25
    board = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()
    assert board["rows"][0]["entry_id"] == cheat_entry["id"]

    path = f"/api/tournaments/{tid}/entries/{cheat_entry['id']}/disqualify"
    for bad in ({"reason": ""}, {"reason": "  "}, {}, {"reason": "x\x00"}):
        assert_error(api.http.post(path, headers=api.admin(), json=bad), 400)
    assert_error(
        api.http.post(f"/api/tournaments/{tid}/entries/{2**64}/disqualify", headers=api.admin(), json={"reason": "x"}),
        404,
    )
    r = api.http.post(path, headers=api.admin(), json={"reason": "two accounts"})
    assert r.status_code == 200, r.text
    assert r.json()["disqualified"] == "two accounts" and r.json()["status"] == "ended"
    assert_error(api.http.post(path, headers=api.admin(), json={"reason": "again"}), 409, "already")
    stopped = await cheat.recv()
    assert stopped["code"] == "stopped" and "two accounts" in stopped["reason"]
    await cheat.close()

    live = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()
    assert [row["entry_id"] for row in live["rows"]] == [honest_entry["id"]] and live["entrants"] == 1
    await honest.play({"type": "end"})
    await honest.close()
    wait_for(lambda: api.tournament(tid)["status"] == "finished")
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [s["entry_id"] for s in standings] == [honest_entry["id"]]
    shown = api.http.get(f"/api/tournaments/{tid}/disqualified").json()
    assert [(d["entry_id"], d["player"], d["reason"]) for d in shown] == [(cheat_entry["id"], "cheat", "two accounts")]
    replays = {
        json.loads(line)["entry_id"]: json.loads(line)
        for line in api.http.get(f"/api/tournaments/{tid}/replays").text.splitlines()
    }
    assert replays[cheat_entry["id"]]["disqualified"] == "two accounts"
    assert "disqualified" not in replays[honest_entry["id"]]
    report = verify(server.url, tid)
    assert report.ok, report.problems
    by_entry = {g.entry_id: g for g in report.games}
    assert by_entry[cheat_entry["id"]].disqualified == "two accounts" and by_entry[cheat_entry["id"]].rank is None


async def test_disqualifying_after_the_finish_ranks_again(api: Api, server: Any) -> None:
    tid = api.create_tournament(name=unique("dq-late"), seed=SEED, variant="spider78", suits=2, closes_in=3)["id"]
    first, first_entry = await new_player(api, server.ws_url, tid, "first")
    await first.play(reveal_move(SEED))
    await first.play({"type": "end"})
    second, second_entry = await new_player(api, server.ws_url, tid, "second")
    await second.play({"type": "end"})
    await first.close()
    await second.close()
    wait_for(lambda: api.tournament(tid)["status"] == "finished")
    before = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [s["entry_id"] for s in before] == [first_entry["id"], second_entry["id"]]
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{first_entry['id']}/disqualify",
        headers=api.admin(),
        json={"reason": "found later"},
    )
    assert r.status_code == 200, r.text
    after = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert [(s["rank"], s["entry_id"]) for s in after] == [(1, second_entry["id"])]
    ws, snap = await watcher(server.ws_url, tid)
    assert [row["entry_id"] for row in snap["top"]] == [second_entry["id"]] and snap["entrants"] == 1
    await ws.close()


async def test_a_schedule_creates_each_tournament_once(api: Api, database_url: str) -> None:
    first = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=2)
    body: dict[str, Any] = {
        "name": unique("nightly"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 60,
        "open_minutes": 30,
        "ahead_minutes": 150,
        "settings": {"variant": "spider78", "suits": 1},
    }
    bads: list[tuple[dict[str, Any], str]] = [
        ({"every_minutes": 1}, "every_minutes"),
        ({"open_minutes": 61}, "open_minutes"),
        ({"first_opens_at": "2026-01-01T00:00:00"}, "time zone"),
        ({"name": " "}, "name"),
        ({"settings": {"suits": 5}}, "suits"),
    ]
    for bad, needle in bads:
        assert_error(api.http.post("/api/schedules", headers=api.admin(), json={**body, **bad}), 400, needle)
    r = api.http.post("/api/schedules", headers=api.admin(), json=body)
    assert r.status_code == 201, r.text
    schedule = r.json()
    # ahead 150 minutes: the occurrences at +2, +62 and +122 minutes exist at once.
    assert len(schedule["tournaments"]) == 3 and schedule["active"]
    tours = [api.tournament(t) for t in sorted(schedule["tournaments"])]
    assert [datetime.fromisoformat(t["opens_at"]) for t in tours] == [first + timedelta(hours=k) for k in range(3)]
    assert all(t["status"] == "scheduled" and t["schedule_id"] == schedule["id"] for t in tours)
    assert all(t["settings"]["suits"] == 1 for t in tours)
    assert datetime.fromisoformat(tours[0]["closes_at"]) == first + timedelta(minutes=30)

    # Many processes at once: the database keeps one tournament per occurrence.
    conn = await asyncpg.connect(database_url)
    try:
        pools = [await asyncpg.create_pool(database_url, min_size=1, max_size=2, init=_codec) for _ in range(4)]
        try:
            made = await asyncio.gather(
                *(create_scheduled(pool, SolverPool(), Config(), schedule["id"]) for pool in pools)
            )
        finally:
            for pool in pools:
                await pool.close()
        assert made == [[], [], [], []]
        counts = await conn.fetch(
            "SELECT occurrence, count(*) AS n FROM tournaments WHERE schedule_id = $1 GROUP BY 1", schedule["id"]
        )
        assert len(counts) == 3 and all(c["n"] == 1 for c in counts)
        # Even if the rows are inserted from scratch by two sessions at once, one wins.
        await conn.execute(
            "DELETE FROM tournaments WHERE schedule_id = $1 AND occurrence = $2",
            schedule["id"],
            first + timedelta(hours=2),
        )
        pools = [await asyncpg.create_pool(database_url, min_size=1, max_size=2, init=_codec) for _ in range(4)]
        try:
            made = await asyncio.gather(
                *(create_scheduled(pool, SolverPool(), Config(), schedule["id"]) for pool in pools)
            )
        finally:
            for pool in pools:
                await pool.close()
        # One of the four made it, or the server's own scheduler (which looks every few seconds) did
        # between the delete and now; either way exactly one row came back.
        assert sorted(len(m) for m in made) in ([0, 0, 0, 1], [0, 0, 0, 0])
        assert await conn.fetchval("SELECT count(*) FROM tournaments WHERE schedule_id = $1", schedule["id"]) == 3
    finally:
        await conn.close()

    listed = api.http.get("/api/schedules", headers=api.admin()).json()
    assert schedule["id"] in [s["id"] for s in listed]
    stopped = api.http.delete(f"/api/schedules/{schedule['id']}", headers=api.admin())
    assert stopped.status_code == 200 and stopped.json()["active"] is False and stopped.json()["next_opens_at"] is None
    assert_error(api.http.delete(f"/api/schedules/{2**64}", headers=api.admin()), 404)


async def _codec(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


@pytest.mark.parametrize("now_minute", [0, 29, 30, 59, 60, 61, 600])
def test_occurrences(now_minute: int) -> None:
    first = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
    now = first + timedelta(minutes=now_minute)
    due = occurrences(first, every=60, open_for=30, ahead=60, now=now)
    assert all(at + timedelta(minutes=30) > now and at <= now + timedelta(minutes=60) for at in due)
    assert all((at - first) % timedelta(minutes=60) == timedelta(0) for at in due)
    expected = [
        first + timedelta(hours=k)
        for k in range(20)
        if first + timedelta(hours=k, minutes=30) > now and first + timedelta(hours=k) <= now + timedelta(minutes=60)
    ]
    assert due == expected


async def test_two_server_processes_create_a_scheduled_tournament_once(
    server: Any, database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    """A schedule written straight into the database: both processes' clocks find it; one tournament each time."""
    from tests.serverproc import ServerProcess

    first = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=1)
    conn = await asyncpg.connect(database_url)
    try:
        await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
        sid = await conn.fetchval(
            """INSERT INTO schedules (name, template, first_opens_at, every_minutes, open_minutes, ahead_minutes)
               VALUES ($1, $2, $3, 30, 20, 90) RETURNING id""",
            unique("two-procs"),
            {"settings": {"variant": "spider78", "suits": 1}},
            first,
        )
        other = ServerProcess(database_url, redis_url, admin_token, env={"REDIS_PREFIX": redis_prefix}).start()
        try:

            async def created() -> list[asyncpg.Record]:
                return await conn.fetch(
                    "SELECT occurrence, count(*) AS n FROM tournaments WHERE schedule_id = $1 GROUP BY 1", sid
                )

            deadline = time.monotonic() + 15
            while len(await created()) < 3:  # +1, +31 and +61 minutes lie within 90 minutes
                assert time.monotonic() < deadline, await created()
                await asyncio.sleep(0.3)
            await asyncio.sleep(6)  # both clocks have looked again since
            rows = await created()
        finally:
            other.stop()
    finally:
        await conn.close()
    assert sorted(r["occurrence"] for r in rows) == [first + timedelta(minutes=30 * k) for k in range(3)]
    assert all(r["n"] == 1 for r in rows)
