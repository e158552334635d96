"""docs/protocol.md: the token is checked before the body (or the query) is read. On every route that
needs a token, a request without one, or with one nobody holds, and with a malformed body and
query, gets its 401 (a token of the wrong kind on an organiser's or the owner's route: 403), never
a 400; and ``?status=`` takes the five statuses only, a 400 naming them otherwise."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.client import Api, bearer
from tests.server.helpers import assert_error

BAD_QUERY = "?limit=0&offset=-1&mine=maybe&status=bogus&k=x"
BAD_BODIES = [b"{", b'{"unknown": 1}', b"[]", b'"x"']
STATUSES = ["scheduled", "open", "closing", "finished", "cancelled"]


def secured(api: Api) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Every route of the API document that needs a token (not those where one is optional)."""
    spec = api.http.get("/schema/openapi.json").json()
    found = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            security = op.get("security") or []
            if security and {} not in security:
                found.append((method.upper(), re.sub(r"\{[^}]+\}", "1", path), security))
    return found


def test_every_route_answers_the_missing_token_before_the_bad_body(api: Api) -> None:
    routes = secured(api)
    assert len(routes) > 20 and ("POST", "/api/clubs/1/members", [{"player": []}]) in routes
    wrong = []
    for method, path, security in routes:
        players_only = {name for scheme in security for name in scheme} == {"player"}
        for body in BAD_BODIES:
            for headers, expected in (
                ({}, {401}),
                (bearer("nobody-holds-this"), {401} if players_only else {401, 403}),
            ):
                r = api.http.request(
                    method, path + BAD_QUERY, content=body, headers={**headers, "content-type": "application/json"}
                )
                if r.status_code not in expected:
                    wrong.append((method, path, bool(headers), body, r.status_code, r.text[:120]))
    assert not wrong, wrong


def test_an_unknown_status_is_a_400_naming_the_statuses(api: Api) -> None:
    for value in ("bogus", "", "OPEN", "open%0A", "open%20", "cancelled,open"):
        body = assert_error(api.http.get(f"/api/tournaments?status={value}"), 400, "status", *STATUSES)
        assert "Traceback" not in body["detail"]
    assert_error(api.http.get("/api/tournaments?status=open&status=finished"), 400, "one value", *STATUSES)


@pytest.mark.parametrize("status", STATUSES)
def test_each_status_lists_those_only(api: Api, status: str) -> None:
    if status == "cancelled":
        tour = api.create_tournament(name="called off", suits=1)
        assert api.http.post(f"/api/tournaments/{tour['id']}/cancel", headers=api.admin()).status_code == 200
    r = api.http.get(f"/api/tournaments?status={status}&limit=500")
    assert r.status_code == 200, r.text
    assert all(t["status"] == status for t in r.json())
    if status == "cancelled":
        assert tour["id"] in {t["id"] for t in r.json()}
