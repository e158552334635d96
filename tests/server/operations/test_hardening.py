"""Hostile HTTP input gets a clear 4xx and changes nothing; pages carry security headers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.client import Api
from tests.server.helpers import assert_error, body_for, count_tournaments, unique

HUGE = str(2**64)


@pytest.mark.parametrize(
    "path",
    [
        f"/api/tournaments/{HUGE}/leaderboard",
        f"/api/tournaments/{2**63}/leaderboard",
        f"/api/tournaments/{HUGE}/leaderboard/around/1",
        f"/api/tournaments/1/leaderboard/around/{HUGE}",
        f"/api/tournaments/{HUGE}/standings",
        f"/api/tournaments/{HUGE}/replays",
    ],
)
def test_ids_past_the_bigint_range_are_not_found(api: Api, path: str) -> None:
    assert_error(api.http.get(path), 404)


def test_ids_past_the_bigint_range_on_rebuild_are_not_found(api: Api) -> None:
    assert_error(api.http.post(f"/api/tournaments/{HUGE}/leaderboard/rebuild", headers=api.admin()), 404)


def test_deeply_nested_json_is_refused(api: Api) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    r = api.http.post("/api/players", content=deep, headers={"content-type": "application/json"})
    assert_error(r, 400)
    nested = b'{"name": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    r = api.http.post("/api/players", content=nested, headers={"content-type": "application/json"})
    assert_error(r, 400)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"name": "nul\x00name"}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "\t\n"}, "name"),
        ({"seed": "seed\x00"}, "seed"),
        ({"opens_at": "9999-12-31T23:00:00Z"}, "closes_at must come after"),
        ({"opens_at": "9999-12-31T23:00:00Z", "closes_at": "9999-12-31T23:59:00Z"}, "days"),
        ({"closes_at": "9999-12-31T23:59:59Z"}, "days"),
        ({"opens_at": "9999-12-31T23:30:00Z", "closes_at": None}, "days"),
        ({"opens_at": "0001-01-01T00:00:00Z"}, "days"),
    ],
)
async def test_hostile_tournament_bodies_are_refused(
    api: Api, database_url: str, change: dict[str, Any], needle: str
) -> None:
    name = unique("hostile")
    body = {**body_for(name), **change}
    body = {k: v for k, v in body.items() if v is not None}
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert_error(r, 400, needle)
    assert await count_tournaments(database_url, name) == 0


@pytest.mark.parametrize(("path", "admin"), [("/api/players", False), ("/api/tournaments", True)])
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]
)
def test_json_bodies_need_the_json_content_type(api: Api, path: str, admin: bool, content_type: str | None) -> None:
    body = b'{"name": "' + unique("ct").encode() + b'"}'
    headers = {**(api.admin() if admin else {})}
    if content_type is not None:
        headers["content-type"] = content_type
    r = api.http.post(path, content=body, headers=headers)
    assert_error(r, 415, "application/json")


def test_json_content_type_with_a_charset_is_accepted(api: Api) -> None:
    r = api.http.post(
        "/api/players", content=b'{"name": "charset"}', headers={"content-type": "application/json; charset=utf-8"}
    )
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("path", ["/", "/index.html", "/api/tournaments", "/schema/swagger"])
def test_pages_carry_security_headers(api: Api, path: str) -> None:
    r = api.http.get(path)
    assert r.status_code == 200, r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    # The play socket's own port on the host asked (a websocket to another port is another origin).
    play_port = api.http.get("/api/play/socket").json()["port"]
    assert f"connect-src 'self' ws://127.0.0.1:{play_port} wss://127.0.0.1:{play_port};" in csp
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_times_near_the_end_of_the_calendar_are_refused_not_crashed(api: Api) -> None:
    now = datetime.now(UTC)
    body = body_for(unique("late"), opens_at=(now + timedelta(days=365)).isoformat())
    body.pop("closes_at")
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
