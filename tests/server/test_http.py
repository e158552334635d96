"""Every HTTP route against a real server process, real PostgreSQL and real Redis."""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import httpx
import pytest

from spidertour.engine import Settings
from tests.client import Api, Player, bearer


def assert_error(r: httpx.Response, status: int, *needles: str) -> dict[str, Any]:
    """An HTTP error: the right status, a JSON body with the same status and a reason naming the problem."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert body["status_code"] == status
    assert isinstance(body["detail"], str) and body["detail"]
    text = (body["detail"] + " " + json.dumps(body.get("extra"))).lower()
    for needle in needles:
        assert needle.lower() in text, (needle, body)
    return body  # type: ignore[no-any-return]


def canonical_commitment(seed: str, settings: dict[str, Any], salt: str | None = None) -> str:
    """The commitment as docs/protocol.md defines it, computed here without the server's code."""
    committed: dict[str, Any] = {"seed": seed, "settings": settings}
    if salt is not None:
        committed["salt"] = salt
    text = json.dumps(committed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(4)}"


def body_for(name: str, **fields: Any) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {
        "name": name,
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        **fields,
    }


async def count_tournaments(database_url: str, name: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM tournaments WHERE name = $1", name))
    finally:
        await conn.close()


def wait_status(api: Api, tournament_id: int, status: str, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        tour = api.tournament(tournament_id)
        if tour["status"] == status:
            return tour
        assert time.monotonic() < deadline, f"tournament {tournament_id} is {tour['status']}, never {status}"
        time.sleep(0.1)


# ----------------------------------------------------------------------------- players


async def test_register_shows_the_token_once_and_stores_only_its_hash(api: Api, database_url: str) -> None:
    r = api.http.post("/api/players", json={"name": "  Ann  "})
    assert r.status_code == 201 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"id", "name", "token"} and body["name"] == "Ann"
    token = body["token"]
    assert isinstance(token, str) and len(token) >= 32
    again = api.http.post("/api/players", json={"name": "Ann"}).json()
    assert again["token"] != token and again["id"] != body["id"]
    conn = await asyncpg.connect(database_url)
    try:
        row = await conn.fetchrow("SELECT * FROM players WHERE id = $1", body["id"])
        assert row is not None and row["name"] == "Ann"
        assert bytes(row["token_hash"]) == hashlib.sha256(token.encode()).digest()
        leaks = await conn.fetchval("SELECT count(*) FROM players p WHERE strpos(row_to_json(p)::text, $1) > 0", token)
    finally:
        await conn.close()
    assert leaks == 0
    assert token not in json.dumps(dict(row), default=str)
    mine = api.http.get("/api/me/entries", headers=bearer(token))
    assert mine.status_code == 200 and mine.json() == []


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "blank"),
        ({"name": "x" * 41}, "name"),
        ({"name": 7}, "name"),
        ({"name": "tab\there"}, "printable"),
        ({}, "name"),
        ({"name": "Ann", "admin": True}, "admin"),
        ([{"name": "Ann"}], "object"),
    ],
)
def test_register_refuses_bad_names(api: Api, body: Any, needle: str) -> None:
    assert_error(api.http.post("/api/players", json=body), 400, needle)


# ----------------------------------------------------------------------------- creating tournaments


async def test_creating_a_tournament_needs_the_admin_token(api: Api, database_url: str) -> None:
    _, player_token = api.register("not-an-organiser")
    name = unique("auth")
    refused = [
        ({}, 401, "bearer"),
        ({"authorization": api.admin_token}, 401, "bearer"),
        ({"authorization": f"Basic {api.admin_token}"}, 401, "bearer"),
        ({"authorization": "Bearer"}, 401, "bearer"),
        (bearer("wrong-" + api.admin_token), 403, "admin"),
        (bearer(api.admin_token + "x"), 403, "admin"),
        (bearer(player_token), 403, "admin"),
    ]
    for headers, status, needle in refused:
        assert_error(api.http.post("/api/tournaments", json=body_for(name), headers=headers), status, needle)
    # The token is checked before the body: no 400 (nor any hint about the body) without it.
    bad = {**body_for(name), "settings": {"suits": 4}}
    assert_error(api.http.post("/api/tournaments", json=bad), 401, "bearer")
    assert_error(api.http.post("/api/tournaments", json=bad, headers=bearer(player_token)), 403, "admin")
    assert_error(
        api.http.post("/api/tournaments", content=b"{oops", headers={"content-type": "application/json"}), 401, "bearer"
    )
    assert await count_tournaments(database_url, name) == 0
    created = api.http.post("/api/tournaments", json=body_for(name), headers=api.admin())
    assert created.status_code == 201, created.text
    assert await count_tournaments(database_url, name) == 1


@pytest.mark.parametrize(
    ("settings", "needles"),
    [
        ({"variant": "spider78", "suits": 4}, ("spider78", "suits", "4")),
        ({"variant": "curds_and_whey", "suits": 2}, ("curds_and_whey", "suits")),
        ({"variant": "tarantula"}, ("unknown variant", "tarantula")),
        ({"variant": 78}, ("variant",)),
        ({"time_limit": True}, ("settings.time_limit", "bool")),
        ({"suits": True}, ("settings.suits", "bool")),
        ({"undo": 1}, ("settings.undo", "bool")),
        ({"free_column": "yes"}, ("settings.free_column",)),
        ({"suits": "2"}, ("settings.suits", "str")),
        ({"time_limit": "600"}, ("settings.time_limit",)),
        ({"time_limit": 600.5}, ("settings.time_limit",)),
        ({"time_limit": 0}, ("time_limit", "between")),
        ({"time_limit": 10**30}, ("time_limit",)),
        ({"undo_limit": -1}, ("undo_limit",)),
        ({"colour": "red"}, ("unknown field", "colour")),
    ],
)
async def test_settings_are_validated(
    api: Api, database_url: str, settings: dict[str, Any], needles: tuple[str, ...]
) -> None:
    name = unique("bad-settings")
    r = api.http.post("/api/tournaments", json=body_for(name, settings=settings), headers=api.admin())
    assert_error(r, 400, *needles)
    assert await count_tournaments(database_url, name) == 0


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"opens_at": "2026-11-22T18:00:00", "closes_at": "2026-11-22T19:00:00"}, "time zone"),
        ({"opens_at": "tomorrow"}, "opens_at"),
        ({"opens_at": 1_700_000_000}, "opens_at"),
        ({"closes_at": "2000-01-01T00:00:00Z"}, "closes_at must come after opens_at"),
        ({"seed": ""}, "seed"),
        ({"seed": 42}, "seed"),
        ({"name": ""}, "name"),
        ({"owner": "me"}, "owner"),
        ({"settings": None}, "settings"),
    ],
)
async def test_tournament_body_is_validated(api: Api, database_url: str, change: dict[str, Any], needle: str) -> None:
    name = unique("bad-body")
    body = {**body_for(name), **change}
    assert_error(api.http.post("/api/tournaments", json=body, headers=api.admin()), 400, needle)
    assert await count_tournaments(database_url, name) == 0


async def salt_of(database_url: str, tournament_id: int) -> str:
    """The salt kept secret until the finish (read from the database, as no route shows it yet)."""
    conn = await asyncpg.connect(database_url)
    try:
        return str(await conn.fetchval("SELECT salt FROM tournaments WHERE id = $1", tournament_id))
    finally:
        await conn.close()


async def test_settings_are_filled_in_and_covered_by_the_commitment(api: Api, database_url: str) -> None:
    seed = unique("fill")
    r = api.http.post(
        "/api/tournaments",
        headers=api.admin(),
        json=body_for("defaults", seed=seed, settings={"variant": "spider", "time_limit": 300.0}),
    )
    assert r.status_code == 201, r.text
    tour = r.json()
    expected = Settings(variant="spider", time_limit=300).to_json()
    assert tour["settings"] == expected and expected["free_column"] is False and expected["suits"] in (1, 2, 4)
    assert set(expected) == {
        "variant",
        "suits",
        "free_column",
        "undo",
        "undo_limit",
        "reveals_final",
        "time_limit",
        "draw_pile_choice",
        "draw_pile_tops_up",
        "deal_variation",
    }
    salt = await salt_of(database_url, tour["id"])
    assert tour["commitment"] == canonical_commitment(seed, tour["settings"], salt)
    assert tour["commitment"] != canonical_commitment(seed, tour["settings"])  # the salt is covered
    default = api.http.post("/api/tournaments", headers=api.admin(), json={"name": "all defaults"})
    assert default.status_code == 201, default.text
    made = default.json()
    assert made["status"] == "open" and made["settings"]["variant"] == "spider78"
    assert made["settings"]["free_column"] is True and made["settings"]["time_limit"] == 600
    opens = datetime.fromisoformat(made["opens_at"])
    closes = datetime.fromisoformat(made["closes_at"])
    assert abs((datetime.now(UTC) - opens).total_seconds()) < 60
    assert closes - opens == timedelta(hours=1)


# ----------------------------------------------------------------------------- public views


async def test_public_views_show_the_commitment_and_never_the_seed(api: Api, server: Any, database_url: str) -> None:
    seed = "secret-" + secrets.token_hex(12)
    tour = api.create_tournament(name="no peeking", seed=seed, variant="spider78", suits=2)
    assert tour["seed"] is None and tour["salt"] is None and tour["status"] == "open"
    salt = await salt_of(database_url, tour["id"])
    assert tour["commitment"] == canonical_commitment(seed, tour["settings"], salt)
    assert len(tour["commitment"]) == 64 and int(tour["commitment"], 16) >= 0
    _, token = api.register("peeker")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    started = await player.start()
    assert started["type"] == "state" and started["status"] == "playing"
    await player.close()

    def tournament_views() -> list[dict[str, Any]]:
        one = api.http.get(f"/api/tournaments/{tour['id']}")
        everything = api.http.get("/api/tournaments")
        opened = api.http.get("/api/tournaments", params={"status": "open"})
        views = [one.json()]
        for listing in (everything, opened):
            assert listing.status_code == 200
            views += [t for t in listing.json() if t["id"] == tour["id"]]
        assert len(views) == 3
        return views

    for view in tournament_views():
        assert view["commitment"] == tour["commitment"] and view["seed"] is None and view["salt"] is None
        assert view["entrants"] == 1
    texts = [
        api.http.get(f"/api/tournaments/{tour['id']}").text,
        api.http.get("/api/tournaments").text,
        api.http.get("/api/tournaments", params={"status": "open"}).text,
        api.http.get(f"/api/tournaments/{tour['id']}/standings").text,
        api.http.get("/api/me/entries", headers=bearer(token)).text,
        api.http.get("/schema/openapi.json").text,
    ]
    for text in texts:
        assert seed not in text and salt not in text


def test_list_filters_by_status(api: Api) -> None:
    scheduled = api.create_tournament(name="later", opens_in=3600, closes_in=7200)
    opened = api.create_tournament(name="now")
    assert scheduled["status"] == "scheduled" and opened["status"] == "open"
    every = api.http.get("/api/tournaments")
    assert every.status_code == 200
    ids = [t["id"] for t in every.json()]
    assert scheduled["id"] in ids and opened["id"] in ids
    for status, present, absent in (("scheduled", scheduled, opened), ("open", opened, scheduled)):
        listed = api.http.get("/api/tournaments", params={"status": status})
        assert listed.status_code == 200
        assert all(t["status"] == status for t in listed.json())
        listed_ids = {t["id"] for t in listed.json()}
        assert present["id"] in listed_ids and absent["id"] not in listed_ids
    for status in ("closing", "finished"):
        listed = api.http.get("/api/tournaments", params={"status": status})
        assert listed.status_code == 200 and all(t["status"] == status for t in listed.json())
    assert_error(api.http.get("/api/tournaments", params={"status": "bogus"}), 400, "status")


def test_list_pages(api: Api) -> None:
    made = [api.create_tournament(name=f"paged-{i}")["id"] for i in range(3)]
    everything = [t["id"] for t in api.http.get("/api/tournaments", params={"limit": 500}).json()]
    assert [i for i in everything if i in made] == sorted(made, reverse=True)  # the newest first
    first = api.http.get("/api/tournaments", params={"limit": 2}).json()
    second = api.http.get("/api/tournaments", params={"limit": 2, "offset": 2}).json()
    assert len(first) == 2 and [t["id"] for t in first + second] == everything[: len(first) + len(second)]
    beyond = api.http.get("/api/tournaments", params={"offset": len(everything)})
    assert beyond.status_code == 200 and beyond.json() == []
    for params, word in (
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"offset": -1}, "offset"),
        ({"limit": "many"}, "limit"),
    ):
        assert_error(api.http.get("/api/tournaments", params=params), 400, word)


def test_the_web_client_is_served_fresh(api: Api) -> None:
    for path in ("/", "/js/main.js", "/css/app.css"):
        page = api.http.get(path)
        assert page.status_code == 200, path
        # never used from a cache unasked: a new version of the client shows at once
        assert page.headers["cache-control"] == "no-cache", path


def test_ids_beyond_the_database_range_are_unknown_tournaments(api: Api) -> None:
    _, token = api.register("far away")
    huge = 10**20
    for path in (
        f"/api/tournaments/{huge}",
        f"/api/tournaments/{huge}/standings",
        f"/api/tournaments/{huge}/replays",
        f"/api/tournaments/{2**63}",
    ):
        assert_error(api.http.get(path), 404, "no tournament")
    assert_error(api.http.post(f"/api/tournaments/{huge}/entries", headers=bearer(token)), 404, "no tournament")
    assert_error(api.http.get("/api/tournaments/0"), 404, "no tournament 0")


def test_get_one_tournament(api: Api) -> None:
    tour = api.create_tournament(name="single", variant="spider", suits=4, time_limit=120)
    r = api.http.get(f"/api/tournaments/{tour['id']}")
    assert r.status_code == 200 and r.json() == tour
    assert_error(api.http.get("/api/tournaments/987654321"), 404, "987654321")
    assert_error(api.http.get("/api/tournaments/abc"), 404)


# ----------------------------------------------------------------------------- entries


def test_joining(api: Api) -> None:
    tour = api.create_tournament(name="join")
    pid, token = api.register("joiner")
    path = f"/api/tournaments/{tour['id']}/entries"
    assert_error(api.http.post(path), 401, "bearer")
    assert_error(api.http.post(path, headers=bearer("no-such-token")), 401, "unknown player token")
    assert_error(api.http.post(path, headers=api.admin()), 401, "unknown player token")
    r = api.http.post(path, headers=bearer(token))
    assert r.status_code == 201, r.text
    assert token not in r.text
    entry = r.json()
    assert entry["tournament_id"] == tour["id"] and entry["player_id"] == pid and entry["player"] == "joiner"
    assert entry["status"] == "joined" and entry["score"] == 0 and entry["final_score"] is None
    assert entry["started_at"] is None and entry["deadline"] is None
    assert_error(api.http.post(path, headers=bearer(token)), 409, "already")
    assert api.tournament(tour["id"])["entrants"] == 1
    assert_error(api.http.post("/api/tournaments/987654321/entries", headers=bearer(token)), 404)


def test_joining_a_scheduled_tournament_is_refused(api: Api) -> None:
    tour = api.create_tournament(name="not yet", opens_in=3600, closes_in=7200)
    _, token = api.register("early")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(token)), 409, "scheduled")
    assert api.tournament(tour["id"])["entrants"] == 0


async def test_joining_a_closing_tournament_is_refused(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="closing soon", closes_in=1.5, time_limit=600)
    _, first = api.register("in-time")
    entry = api.join(tour["id"], first)
    player, _ = await Player.connect(server.ws_url, entry["id"], first)
    assert (await player.start())["status"] == "playing"
    await asyncio.to_thread(wait_status, api, tour["id"], "closing")
    _, late = api.register("too-late")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(late)), 409, "closing")
    assert api.tournament(tour["id"])["entrants"] == 1
    assert (await player.play({"type": "end"}))["type"] == "result"
    await player.close()
    finished = await asyncio.to_thread(wait_status, api, tour["id"], "finished")
    assert finished["seed"] is not None


def test_joining_a_finished_tournament_is_refused(api: Api) -> None:
    seed = unique("short")
    tour = api.create_tournament(name="over quickly", seed=seed, closes_in=0.3)
    finished = wait_status(api, tour["id"], "finished")
    assert finished["seed"] == seed and finished["finished_at"] is not None
    _, token = api.register("after")
    assert_error(api.http.post(f"/api/tournaments/{tour['id']}/entries", headers=bearer(token)), 409, "finished")
    r = api.http.get(f"/api/tournaments/{tour['id']}/replays")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert r.text == ""
    assert api.http.get(f"/api/tournaments/{tour['id']}/standings").json() == []


def test_my_entries_show_only_the_callers(api: Api) -> None:
    one = api.create_tournament(name="mine-1")
    two = api.create_tournament(name="mine-2")
    pid, token = api.register("me")
    qid, other = api.register("someone else")
    e1 = api.join(one["id"], token)
    e2 = api.join(two["id"], token)
    q1 = api.join(one["id"], other)
    mine = api.http.get("/api/me/entries", headers=bearer(token))
    assert mine.status_code == 200
    assert [e["id"] for e in mine.json()] == [e2["id"], e1["id"]]  # newest first
    assert [e["tournament"] for e in mine.json()] == ["mine-2", "mine-1"]  # named, for a list to show
    assert all(e["player_id"] == pid for e in mine.json())
    theirs = api.http.get("/api/me/entries", headers=bearer(other)).json()
    assert [e["id"] for e in theirs] == [q1["id"]] and theirs[0]["player_id"] == qid
    assert_error(api.http.get("/api/me/entries"), 401, "bearer")
    assert_error(api.http.get("/api/me/entries", headers=bearer("nobody")), 401, "unknown player token")


# ----------------------------------------------------------------------------- standings and replays


async def test_standings(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="standings", seed="standings-seed", variant="spider78", suits=2)
    _, idle = api.register("idle")
    idle_entry = api.join(tour["id"], idle)
    _, busy = api.register("busy")
    busy_entry = api.join(tour["id"], busy)
    player, _ = await Player.connect(server.ws_url, busy_entry["id"], busy)
    await player.start()
    answer = await player.play({"type": "move", "from": 0, "count": 1, "to": 8})  # onto the free column
    assert answer["type"] == "result" and answer["view"]["score"] == 25
    await player.close()
    r = api.http.get(f"/api/tournaments/{tour['id']}/standings")
    assert r.status_code == 200
    rows = r.json()
    assert [(s["rank"], s["entry_id"], s["score"], s["status"]) for s in rows] == [
        (1, busy_entry["id"], 25, "playing"),
        (2, idle_entry["id"], 0, "joined"),
    ]
    assert rows[0]["player"] == "busy" and rows[1]["player"] == "idle"
    page = api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"offset": 1, "limit": 1}).json()
    assert [s["entry_id"] for s in page] == [idle_entry["id"]]
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"limit": 0}), 400, "limit")
    assert_error(api.http.get(f"/api/tournaments/{tour['id']}/standings", params={"offset": -1}), 400, "offset")
    assert_error(api.http.get("/api/tournaments/987654321/standings"), 404)


def test_replays_are_refused_before_the_finish(api: Api) -> None:
    for tour in (
        api.create_tournament(name="replays open"),
        api.create_tournament(name="replays scheduled", opens_in=3600, closes_in=7200),
    ):
        assert_error(api.http.get(f"/api/tournaments/{tour['id']}/replays"), 403, "finished")
    assert_error(api.http.get("/api/tournaments/987654321/replays"), 404)


# ----------------------------------------------------------------------------- errors, health, OpenAPI


@pytest.mark.parametrize("path", ["/api/tournaments", "/api/players"])
@pytest.mark.parametrize("raw", [b'{"name": "x",', b"{not json}", b"\xff\xfe", b"", b"null"])
def test_malformed_json_body_is_a_json_400(api: Api, path: str, raw: bytes) -> None:
    r = api.http.post(path, content=raw, headers={**api.admin(), "content-type": "application/json"})
    assert_error(r, 400)


def test_unknown_routes_and_methods_get_json_errors(api: Api) -> None:
    assert_error(api.http.get("/no/such/route"), 404)
    assert_error(api.http.get("/api/tournaments/1/nothing"), 404)
    assert_error(api.http.delete("/api/tournaments"), 405)
    assert_error(api.http.get("/api/players"), 405)


def test_health(api: Api) -> None:
    r = api.http.get("/health")
    assert r.status_code == 200 and r.json() == {"status": "ok", "postgres": True, "redis": True}


def test_openapi_schema_is_served(api: Api) -> None:
    page = api.http.get("/schema")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    spec = api.http.get("/schema/openapi.json")
    assert spec.status_code == 200
    doc = spec.json()
    assert doc["info"]["title"] == "spidertour"
    for path in (
        "/api/tournaments",
        "/api/tournaments/{tournament_id}",
        "/api/players",
        "/api/tournaments/{tournament_id}/entries",
        "/api/me/entries",
        "/api/tournaments/{tournament_id}/standings",
        "/api/tournaments/{tournament_id}/replays",
        "/health",
    ):
        assert path in doc["paths"], path


def test_missing_body_says_a_body_is_needed(api: Api) -> None:
    r = api.http.post("/api/players")
    assert r.status_code == 400
    assert r.json()["extra"][0]["message"] == "a JSON body is required"
