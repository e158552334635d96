"""The OpenAPI document: bearer schemes on the routes that need them, the errors each route gives documented."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client import Api, bearer

ADMIN_ROUTES = {
    ("post", "/api/tournaments/{tournament_id}/leaderboard/rebuild"),
    ("post", "/api/organisers"),
    ("get", "/api/organisers"),
    ("delete", "/api/organisers/{organiser_id}"),
}
# The owner's admin token or an organiser's (its token, or a session of the account it is).
ORGANISER_ROUTES = {
    ("post", "/api/tournaments"),
    ("patch", "/api/tournaments/{tournament_id}"),
    ("post", "/api/tournaments/{tournament_id}/close"),
    ("post", "/api/tournaments/{tournament_id}/cancel"),
    ("get", "/api/tournaments/{tournament_id}/entries"),
    ("post", "/api/tournaments/{tournament_id}/entries/{entry_id}/disqualify"),
    ("post", "/api/schedules"),
    ("get", "/api/schedules"),
    ("delete", "/api/schedules/{schedule_id}"),
    ("get", "/api/tournaments/{tournament_id}/integrity"),
    ("post", "/api/clubs"),
    ("post", "/api/clubs/{club_id}/organisers"),
    ("get", "/api/clubs/{club_id}/invite"),
    ("post", "/api/clubs/{club_id}/invite"),
    ("post", "/api/clubs/{club_id}/roster"),
    ("post", "/api/clubs/{club_id}/members/{player_id}/code"),
    ("patch", "/api/clubs/{club_id}/members/{player_id}/profile"),
    ("get", "/api/clubs/{club_id}/results.csv"),
    ("post", "/api/series"),
    ("post", "/api/series/{series_id}/tournaments"),
    ("post", "/api/brackets"),
    ("patch", "/api/brackets/{bracket_id}"),
    ("post", "/api/brackets/{bracket_id}/cancel"),
    ("post", "/api/brackets/{bracket_id}/disqualify"),
    ("get", "/api/brackets/{bracket_id}/entries"),
    ("get", "/api/me/organised"),
    ("patch", "/api/clubs/{club_id}"),
    ("post", "/api/clubs/{club_id}/codes"),
    ("get", "/api/clubs/{club_id}/progress"),
}
PLAYER_ROUTES = {
    ("post", "/api/tournaments/{tournament_id}/entries"),
    ("get", "/api/me/entries"),
    ("patch", "/api/me/profile"),
    ("post", "/api/tournaments/{tournament_id}/practice"),
    ("get", "/api/me/practice"),
    ("get", "/api/tournaments/{tournament_id}/entries/{entry_id}/analysis"),
    ("post", "/api/clubs/{club_id}/members"),
    ("get", "/api/me"),
    ("patch", "/api/me"),
    ("delete", "/api/sessions/current"),
    ("delete", "/api/sessions"),
    ("post", "/api/matches"),
    ("get", "/api/me/matches"),
    ("delete", "/api/matches/{match_id}/seat"),
    ("post", "/api/brackets/{bracket_id}/entries"),
    ("post", "/api/me/organiser"),
}
ORGANISER: list[dict[str, list[str]]] = [{"admin": []}, {"organiser": []}]
# Either: a club's organisers and members; its organisers (a token optional once finished).
MIXED_ROUTES: dict[tuple[str, str], list[dict[str, list[str]]]] = {
    ("get", "/api/clubs/{club_id}/members"): [*ORGANISER, {"player": []}],
    ("get", "/api/clubs"): [*ORGANISER, {"player": []}],
    ("get", "/api/tournaments/{tournament_id}/standings.csv"): [*ORGANISER, {}],
}
# Any valid token is welcome (each sees its own): 401 without one, never 403.
OWN_ONLY = {("get", "/api/clubs")}
# Anyone, no token: no security listed.
PUBLIC_ROUTES = {
    ("get", "/api/players/{player_id}"),
    ("get", "/api/matches/formats"),
    ("get", "/api/matches/{match_id}"),
    ("get", "/api/matches/{match_id}/replays"),
    ("get", "/api/brackets"),
    ("get", "/api/brackets/{bracket_id}"),
    ("get", "/api/brackets/{bracket_id}/replays"),
}


@pytest.fixture(scope="module")
def spec(api: Api) -> dict[str, Any]:
    r = api.http.get("/schema/openapi.json")
    assert r.status_code == 200
    return r.json()  # type: ignore[no-any-return]


def operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): op
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }


def test_bearer_schemes_are_declared_and_used(spec: dict[str, Any]) -> None:
    schemes = spec["components"]["securitySchemes"]
    assert schemes["admin"] == {**schemes["admin"], "type": "http", "scheme": "bearer"}
    assert schemes["player"] == {**schemes["player"], "type": "http", "scheme": "bearer"}
    assert schemes["organiser"] == {**schemes["organiser"], "type": "http", "scheme": "bearer"}
    ops = operations(spec)
    assert set(ops) >= ADMIN_ROUTES | ORGANISER_ROUTES | PLAYER_ROUTES | set(MIXED_ROUTES) | PUBLIC_ROUTES
    assert all(ops[key].get("security") is None for key in PUBLIC_ROUTES)
    for key, op in ops.items():
        expected: list[dict[str, list[str]]] | None = (
            [{"admin": []}]
            if key in ADMIN_ROUTES
            else ORGANISER
            if key in ORGANISER_ROUTES
            else [{"player": []}]
            if key in PLAYER_ROUTES
            else MIXED_ROUTES.get(key)
        )
        assert op.get("security") == expected, key


def test_the_team_standings_are_public(spec: dict[str, Any]) -> None:
    op = operations(spec)[("get", "/api/tournaments/{tournament_id}/teams")]
    assert op.get("security") is None and {"200", "404"} <= set(op["responses"])


def test_every_operation_documents_its_responses(spec: dict[str, Any]) -> None:
    for key, op in operations(spec).items():
        codes = set(op["responses"])
        assert any(c.startswith("2") for c in codes), key
        assert "503" in codes, key  # PostgreSQL or Redis out of reach, or a limit that could not be read
        for code, response in op["responses"].items():
            assert response.get("description"), (key, code)
        if key in ADMIN_ROUTES or key in ORGANISER_ROUTES or key in PLAYER_ROUTES:
            assert "401" in codes, key
        if key in ADMIN_ROUTES or key in ORGANISER_ROUTES or key in MIXED_ROUTES:
            assert ("403" in codes) != (key in OWN_ONLY), key
        if any(f"{{{name}_id}}" in key[1] for name in ("tournament", "schedule", "club", "organiser", "match")):
            assert "404" in codes, key


def test_the_errors_the_server_gives_are_documented(api: Api, spec: dict[str, Any]) -> None:
    """Requests that fail, each against its operation's documented responses."""
    ops = operations(spec)
    tid = api.create_tournament(name="openapi")["id"]
    _, token = api.register("openapi")
    cases = [
        ("post", "/api/tournaments", api.http.post("/api/tournaments", json={"name": "x"})),
        ("post", "/api/tournaments", api.http.post("/api/tournaments", json={"name": "x"}, headers=bearer(token))),
        ("post", "/api/tournaments", api.http.post("/api/tournaments", json={"name": ""}, headers=api.admin())),
        (
            "post",
            "/api/tournaments",
            api.http.post("/api/tournaments", content=b"{}", headers={**api.admin(), "content-type": "text/plain"}),
        ),
        ("get", "/api/tournaments/{tournament_id}", api.http.get("/api/tournaments/999999999")),
        ("get", "/api/tournaments", api.http.get("/api/tournaments", params={"status": "lost"})),
        ("post", "/api/players", api.http.post("/api/players", json={"name": ""})),
        ("post", "/api/tournaments/{tournament_id}/entries", api.http.post(f"/api/tournaments/{tid}/entries")),
        (
            "post",
            "/api/tournaments/{tournament_id}/entries",
            api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(token)),
        ),
        (
            "post",
            "/api/tournaments/{tournament_id}/entries",
            api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(token)),
        ),
        ("get", "/api/tournaments/{tournament_id}/replays", api.http.get(f"/api/tournaments/{tid}/replays")),
        (
            "patch",
            "/api/tournaments/{tournament_id}",
            api.http.patch(f"/api/tournaments/{tid}", json={"name": "y"}, headers=api.admin()),
        ),
        (
            "get",
            "/api/tournaments/{tournament_id}/leaderboard/around/{entry_id}",
            api.http.get(f"/api/tournaments/{tid}/leaderboard/around/{2**64}"),
        ),
        ("delete", "/api/schedules/{schedule_id}", api.http.delete("/api/schedules/999999", headers=api.admin())),
        ("get", "/api/tournaments/{tournament_id}/teams", api.http.get(f"/api/tournaments/{tid}/teams")),
        (
            "post",
            "/api/tournaments/{tournament_id}/entries",
            api.http.post(f"/api/tournaments/{tid}/entries", json={"team": 1}, headers=bearer(token)),
        ),
        (
            "post",
            "/api/tournaments/{tournament_id}/practice",
            api.http.post(f"/api/tournaments/{tid}/practice", headers=bearer(token)),
        ),
        (
            "get",
            "/api/tournaments/{tournament_id}/entries/{entry_id}/analysis",
            api.http.get(f"/api/tournaments/{tid}/entries/1/analysis"),
        ),
    ]
    seen = set()
    for method, path, response in cases:
        key = (method, path)
        code = str(response.status_code)
        seen.add(code)
        assert code in ops[key]["responses"], (key, code, response.text)
    assert {"400", "401", "403", "404", "409", "415"} <= seen
