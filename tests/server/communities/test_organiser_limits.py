"""What one organiser may have: a revoked organiser's schedules make no more tournaments; running
schedules, clubs and series are limited per organiser (409 past the limit, nothing made; the owner
has no limit), concurrent creations included; and the clubs are listed a page at a time."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from spidertour.server.config import Config
from spidertour.server.storage.pool import create_pool
from spidertour.server.tournaments.pars import SolverPool
from spidertour.server.tournaments.schedules import create_scheduled
from tests.client import Api, bearer
from tests.conftest import server_env
from tests.server.helpers import assert_error, unique
from tests.serverproc import ServerProcess

from .kit import count, new_club, new_organiser

LIMIT = 2


def schedule_body(minutes_ahead: int = 2 * 24 * 60, ahead: int = 60) -> dict[str, Any]:
    first = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(minutes=minutes_ahead)
    return {
        "name": unique("weekly"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 60,
        "open_minutes": 30,
        "ahead_minutes": ahead,
        "settings": {"variant": "spider78", "suits": 1},
    }


@pytest.fixture(scope="module")
def limited(database_url: str, redis_url: str, admin_token: str, redis_prefix: str, server: Any) -> Iterator[Api]:
    """A server whose organisers may have two of each."""
    env = {
        **server_env(redis_prefix + "_limits"),
        "SCHEDULES_PER_ORGANISER": str(LIMIT),
        "CLUBS_PER_ORGANISER": str(LIMIT),
        "SERIES_PER_ORGANISER": str(LIMIT),
    }
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield Api(proc.url, admin_token)
    finally:
        proc.stop()


async def test_a_revoked_organiser_s_schedules_make_no_more_tournaments(api: Api, database_url: str) -> None:
    oid, token = new_organiser(api)
    r = api.http.post("/api/schedules", json=schedule_body(minutes_ahead=2, ahead=30), headers=bearer(token))
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert len(r.json()["tournaments"]) == 1  # the occurrence in two minutes

    assert api.http.delete(f"/api/organisers/{oid}", headers=api.admin()).status_code == 200
    listed = {s["id"]: s for s in api.http.get("/api/schedules", headers=api.admin()).json()}
    assert listed[sid]["active"] is False and listed[sid]["next_opens_at"] is None
    made = "SELECT count(*) FROM tournaments WHERE schedule_id = $1"
    assert await count(database_url, "SELECT count(*) FROM schedules WHERE id = $1 AND active", sid) == 0

    # Its next occurrences come due, and the schedule is marked running again (as one made at the
    # moment its organiser was revoked would be): no clock makes its tournaments.
    pool = await create_pool(database_url, 2)
    try:
        await pool.execute("UPDATE schedules SET ahead_minutes = 150, active = true WHERE id = $1", sid)
        assert await create_scheduled(pool, SolverPool(), Config(), sid) == []
    finally:
        await pool.close()
    assert await count(database_url, made, sid) == 1
    listed = {s["id"]: s for s in api.http.get("/api/schedules", headers=api.admin()).json()}
    assert listed[sid]["active"] is False
    # The owner manages what it made: its tournament stays.
    assert api.http.get(f"/api/tournaments/{listed[sid]['tournaments'][0]}").status_code == 200


async def test_each_organiser_has_at_most_so_many_of_each(limited: Api, database_url: str) -> None:
    api = limited
    oid, token = new_organiser(api)
    auth = bearer(token)
    clubs = [new_club(api, token) for _ in range(LIMIT)]
    assert_error(api.http.post("/api/clubs", json={"name": "one more"}, headers=auth), 409, f"at most {LIMIT} clubs")
    assert await count(database_url, "SELECT count(*) FROM club_organisers WHERE organiser_id = $1", oid) == LIMIT

    for _ in range(LIMIT):
        body = {"name": unique("season"), "points": "field"}
        assert api.http.post("/api/series", json=body, headers=auth).status_code == 201
    r = api.http.post("/api/series", json={"name": "one more", "points": "field"}, headers=auth)
    assert_error(r, 409, f"at most {LIMIT} series")
    assert await count(database_url, "SELECT count(*) FROM series WHERE organiser_id = $1", oid) == LIMIT

    ids = []
    for _ in range(LIMIT):
        r = api.http.post("/api/schedules", json=schedule_body(), headers=auth)
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    assert_error(api.http.post("/api/schedules", json=schedule_body(), headers=auth), 409, "stop one first")
    assert await count(database_url, "SELECT count(*) FROM schedules WHERE organiser_id = $1", oid) == LIMIT
    # A stopped schedule does not count.
    assert api.http.delete(f"/api/schedules/{ids[0]}", headers=auth).status_code == 200
    assert api.http.post("/api/schedules", json=schedule_body(), headers=auth).status_code == 201

    # Another organiser counts its own; the owner has no limit.
    _, other = new_organiser(api)
    assert new_club(api, other)["id"] not in {c["id"] for c in clubs}
    for _ in range(LIMIT + 1):
        assert api.http.post("/api/clubs", json={"name": unique("owner's")}, headers=api.admin()).status_code == 201
        assert api.http.post("/api/schedules", json=schedule_body(), headers=api.admin()).status_code == 201


@pytest.mark.parametrize("kind", ["clubs", "series", "schedules"])
async def test_concurrent_creations_stop_at_the_limit(limited: Api, database_url: str, kind: str) -> None:
    oid, token = new_organiser(api=limited)

    def body() -> dict[str, Any]:
        if kind == "schedules":
            return schedule_body()
        return {"name": unique(kind)} | ({"points": "field"} if kind == "series" else {})

    def create(_: int) -> int:
        with httpx.Client(base_url=limited.http.base_url, timeout=30) as http:
            return http.post(f"/api/{kind}", json=body(), headers=bearer(token)).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(create, range(8)))
    assert statuses == [201] * LIMIT + [409] * (8 - LIMIT), statuses
    table = {"clubs": "club_organisers"}.get(kind, kind)
    assert await count(database_url, f"SELECT count(*) FROM {table} WHERE organiser_id = $1", oid) == LIMIT


def test_clubs_are_listed_a_page_at_a_time(api: Api) -> None:
    _, token = new_organiser(api)
    made = sorted((new_club(api, token, f"page {i}") for i in range(3)), key=lambda c: (c["name"], c["id"]))
    auth = bearer(token)
    first = api.http.get("/api/clubs?limit=2", headers=auth)
    assert first.status_code == 200, first.text
    assert [c["id"] for c in first.json()] == [c["id"] for c in made[:2]]
    rest = api.http.get("/api/clubs?offset=2&limit=2", headers=auth).json()
    assert [c["id"] for c in rest] == [made[2]["id"]]
    assert [c["id"] for c in api.http.get("/api/clubs", headers=auth).json()] == [c["id"] for c in made]
    for query in ("limit=0", "limit=501", "offset=-1", "offset=1000001", "limit=x"):
        assert_error(api.http.get(f"/api/clubs?{query}", headers=auth), 400)
        # Without a token, or with one nobody holds, the token is what is wrong.
        assert_error(api.http.get(f"/api/clubs?{query}"), 401, "send a token")
        assert_error(api.http.get(f"/api/clubs?{query}", headers=bearer("nobody-holds-this")), 401)
