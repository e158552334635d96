"""Every HTTP error is JSON; health; the OpenAPI document is served."""

from __future__ import annotations

import pytest

from tests.client import Api
from tests.server.helpers import assert_error

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
