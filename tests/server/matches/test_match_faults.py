"""Matches under load and faults: many asks at once through two server processes on one database
never seat two players in the last seat, a player twice in one match, or more players than seats;
PostgreSQL out of reach answers 503 with Retry-After and makes nothing."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.client import Api, bearer
from tests.faults.proxy import TcpProxy
from tests.server.helpers import fetch
from tests.serverproc import ServerProcess

from .kit import env as kit_env
from .kit import play, players, start_server, wait_for


@pytest.fixture(scope="module")
def second_server(match_db: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    yield from start_server(match_db, redis_url, admin_token, redis_prefix + "m")


async def _ask_all(asks: list[tuple[str, str, str]]) -> list[int]:
    """(base url, token, format) asked all at once; the answers' status codes."""
    async with httpx.AsyncClient(timeout=30) as client:
        answers = await asyncio.gather(
            *(client.post(f"{url}/api/matches", json={"format": fmt}, headers=bearer(t)) for url, t, fmt in asks)
        )
    return [r.status_code for r in answers]


async def _check_seats(match_db: str) -> list[tuple[int, int, str]]:
    """Every match's seats as PostgreSQL holds them: (seats, players, status), after checking that no
    match holds more players than seats, a player twice, or two players in one seat."""
    rows = await fetch(
        match_db,
        """SELECT m.id, m.seats, m.taken, m.status, array_agg(e.player_id) AS players, array_agg(e.ordinal) AS seated
             FROM matches m JOIN entries e ON e.tournament_id = m.tournament_id AND NOT e.practice
            WHERE m.format LIKE 'race%' GROUP BY m.id""",
    )
    for r in rows:
        assert len(r["players"]) == r["taken"] <= r["seats"], dict(r)
        assert len(set(r["players"])) == len(r["players"]) and len(set(r["seated"])) == len(r["seated"]), dict(r)
        assert (r["status"] == "playing") == (r["taken"] == r["seats"]), dict(r)
    return [(r["seats"], r["taken"], r["status"]) for r in rows]


async def test_the_seat_race_through_two_processes(
    mapi: Api, match_server: ServerProcess, second_server: ServerProcess, match_db: str
) -> None:
    group = players(mapi, 40, "race")
    urls = (match_server.url, second_server.url)
    asks = [(urls[i % 2], t, fmt) for i, (_, t) in enumerate(group) for fmt in ("race2", "race3")]
    codes = await _ask_all(asks)
    assert codes == [201] * len(asks)
    seats = await _check_seats(match_db)
    assert sum(taken for _, taken, _ in seats) == len(asks)
    # One player asking many times at once, through both: at most MATCH_OPEN_PER_PLAYER (3) seats,
    # never twice in one match.
    [(pid, token)] = players(mapi, 1, "eager")
    codes = await _ask_all([(urls[i % 2], token, "race2") for i in range(12)])
    assert Counter(codes) == Counter({201: 3, 429: 9})
    await _check_seats(match_db)
    mine = await fetch(match_db, "SELECT tournament_id FROM entries WHERE player_id = $1", pid)
    assert len(mine) == len({r["tournament_id"] for r in mine}) == 3


async def test_postgres_out_of_reach_is_503_and_makes_nothing(
    match_db: str, redis_url: str, admin_token: str, redis_prefix: str, mapi: Api
) -> None:
    [(_, token)] = players(mapi, 1, "cut")
    with TcpProxy.for_database(match_db) as proxy:
        env = {**kit_env(redis_prefix + "cut"), "DB_TIMEOUT": "1"}
        proc = ServerProcess(proxy.url, redis_url, admin_token, env=env).start()
        try:
            before = await fetch(match_db, "SELECT count(*) AS n FROM matches")
            proxy.cut()
            async with httpx.AsyncClient(base_url=proc.url, timeout=30) as client:
                r = await client.post("/api/matches", json={"format": "duo15"}, headers=bearer(token))
            assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1, r.text
            proxy.restore()
            assert await fetch(match_db, "SELECT count(*) AS n FROM matches") == before
            async with httpx.AsyncClient(base_url=proc.url, timeout=30) as client:
                r = await client.post("/api/matches", json={"format": "duo15"}, headers=bearer(token))
            assert r.status_code == 201, r.text
        finally:
            proc.stop()


JOIN_BURST = 3


@pytest.fixture(scope="module")
def redis_proxy(redis_url: str) -> Iterator[TcpProxy]:
    with TcpProxy.for_redis(redis_url) as proxy:
        yield proxy


@pytest.fixture(scope="module")
def limited(
    match_db: str, redis_proxy: TcpProxy, admin_token: str, redis_prefix: str, match_server: ServerProcess
) -> Iterator[ServerProcess]:
    """Redis through a proxy that cuts; JOIN_BURST joins from an address, then almost nothing; each
    test speaks for an address of its own (X-Forwarded-For from a trusted proxy)."""
    yield from start_server(
        match_db,
        redis_proxy.url,
        admin_token,
        redis_prefix + "lim",
        JOIN_BURST=str(JOIN_BURST),
        JOIN_PER_MINUTE="0.01",
        TRUSTED_PROXIES="127.0.0.1/32",
    )


async def test_asking_counts_against_the_join_allowance(limited: ServerProcess, match_db: str) -> None:
    api = Api(limited.url, "")
    group = players(api, JOIN_BURST + 1, "burst")
    address = {"x-forwarded-for": "203.0.113.40"}
    for _, token in group[:JOIN_BURST]:
        r = api.http.post("/api/matches", json={"format": "duo12"}, headers={**address, **bearer(token)})
        assert r.status_code == 201, r.text
    before = await fetch(match_db, "SELECT count(*) AS n FROM entries")
    r = api.http.post("/api/matches", json={"format": "duo12"}, headers={**address, **bearer(group[-1][1])})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1, r.text
    assert "joins" in r.json()["detail"]
    assert await fetch(match_db, "SELECT count(*) AS n FROM entries") == before  # nothing made
    assert api.http.get("/api/me/matches", headers=bearer(group[-1][1])).json() == []
    # Another address still has its allowance.
    other = {"x-forwarded-for": "203.0.113.41", **bearer(group[-1][1])}
    assert api.http.post("/api/matches", json={"format": "duo12"}, headers=other).status_code == 201


async def test_redis_out_of_reach_an_ask_goes_on_and_the_match_is_played(
    limited: ServerProcess, redis_proxy: TcpProxy
) -> None:
    """Asking needs PostgreSQL only; the join allowance lets people in while Redis is out of reach
    (docs/operating.md, under faults), so the ask goes on and the match plays to its end."""
    api = Api(limited.url, "")
    (a, ta), (b, tb) = players(api, 2, "noredis")
    redis_proxy.cut()
    try:
        address = {"x-forwarded-for": "203.0.113.42"}
        asks = [
            api.http.post("/api/matches", json={"format": "duo0"}, headers={**address, **bearer(t)}) for t in (ta, tb)
        ]
        assert [r.status_code for r in asks] == [201, 201], [r.text for r in asks]
        host, guest = (r.json() for r in asks)
        assert guest["match"]["id"] == host["match"]["id"]
        await play(limited.ws_url, host["entry"]["id"], ta, reveal=True)
        await play(limited.ws_url, guest["entry"]["id"], tb)
        done = wait_for(api, host["match"]["id"], "over")  # while Redis is still out of reach
    finally:
        redis_proxy.restore()
    assert [(p["player_id"], p["rank"]) for p in done["players"]] == [(a, 1), (b, 2)]
    assert done["players"][0]["rating_after"] is not None and done["seed"]
