"""Registering players: the token shown once, only its hash stored, bad names refused."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import asyncpg
import pytest

from tests.client import Api, bearer
from tests.server.helpers import assert_error

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
        assert row is not None and row["name"] == "Ann" and row["token_hash"] is None
        session = await conn.fetchrow("SELECT * FROM sessions WHERE player_id = $1", body["id"])
        assert session is not None
        assert bytes(session["token_hash"]) == hashlib.sha256(token.encode()).digest()
        leaks = await conn.fetchval("SELECT count(*) FROM players p WHERE strpos(row_to_json(p)::text, $1) > 0", token)
        leaks += await conn.fetchval(
            "SELECT count(*) FROM sessions s WHERE strpos(row_to_json(s)::text, $1) > 0", token
        )
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
