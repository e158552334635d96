"""What the communities' tests share: organisers, clubs, accounts and tournaments made over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from tests.client import Api, bearer
from tests.server.helpers import unique


def new_organiser(api: Api, name: str = "organiser") -> tuple[int, str]:
    r = api.http.post("/api/organisers", json={"name": unique(name)}, headers=api.admin())
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def tournament_as(api: Api, token: str, **fields: Any) -> dict[str, Any]:
    now = datetime.now(UTC)
    body = {
        "name": unique("t"),
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        **fields,
    }
    r = api.http.post("/api/tournaments", json=body, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def new_club(api: Api, token: str, name: str = "club") -> dict[str, Any]:
    r = api.http.post("/api/clubs", json={"name": unique(name)}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def account(api: Api, database_url: str, name: str = "member") -> tuple[int, str]:
    """A player with an account (a handle): registered, its handle set in the database."""
    pid, token = api.register(name)
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("UPDATE players SET handle = $2 WHERE id = $1", pid, unique("h").lower())
    finally:
        await conn.close()
    return pid, token


def signed_in(api: Api, name: str = "teacher") -> tuple[int, str, str]:
    """An account with a password: its id, handle and first session's token."""
    handle = unique("t").lower()
    r = api.http.post("/api/players", json={"name": name, "handle": handle, "password": "a long password"})
    assert r.status_code == 201, r.text
    return r.json()["id"], handle, r.json()["token"]


def account_organiser(api: Api, name: str = "teacher") -> tuple[int, int, str]:
    """An account the owner made an organiser: the organiser's id, the account's id and a session."""
    player_id, handle, session = signed_in(api, name)
    r = api.http.post("/api/organisers", json={"handle": handle}, headers=api.admin())
    assert r.status_code == 201, r.text
    return r.json()["id"], player_id, session


async def count(database_url: str, sql: str, *args: Any) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval(sql, *args))
    finally:
        await conn.close()
