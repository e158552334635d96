"""Creating, listing and reading tournaments over HTTP, against a real server, PostgreSQL and Redis."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from spidertour.engine import Settings
from tests.client import Api, Player, bearer
from tests.server.helpers import assert_error, body_for, canonical_commitment, count_tournaments, unique

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


def ago(seconds: int) -> str:
    return (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat()


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"opens_at": "2026-11-22T18:00:00", "closes_at": "2026-11-22T19:00:00"}, "time zone"),
        ({"opens_at": "tomorrow"}, "opens_at"),
        ({"opens_at": 1_700_000_000}, "opens_at"),
        ({"closes_at": "2000-01-01T00:00:00Z"}, "closes_at must come after opens_at"),
        ({"opens_at": ago(7200), "closes_at": ago(3600)}, "closes_at is already past"),
        ({"opens_at": ago(7200), "closes_at": None}, "closes_at is already past"),
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
