"""A finished tournament's Redis keys expire once PostgreSQL holds its final standings, and
everything that shows those standings answers the same once the keys are gone."""

from __future__ import annotations

from typing import Any

import asyncpg
from redis.asyncio import Redis

from spidertour.server.watch.boards import Boards
from spidertour.server.watch.leaderboard import FINISHED_SECONDS
from tests.client import Api
from tests.server.helpers import new_player, next_update, reveal_move, unique, wait_status, watcher

SEED = "finished-keys"
PARTS = ("built", "rank", "rows")


def keys_of(prefix: str, tournament_id: int) -> list[str]:
    return [f"{prefix}:{{t:{tournament_id}}}:{part}" for part in PARTS]


async def ttls(redis_url: str, keys: list[str]) -> list[int]:
    redis = Redis.from_url(redis_url)
    try:
        return [int(await redis.ttl(key)) for key in keys]
    finally:
        await redis.aclose()


async def delete(redis_url: str, keys: list[str]) -> None:
    redis = Redis.from_url(redis_url)
    try:
        await redis.delete(*keys)
    finally:
        await redis.aclose()


async def finished_tournament(api: Api, server: Any) -> tuple[int, int, int]:
    """A finished tournament of two entries: (its id, the winner's entry, the other's)."""
    tid = api.create_tournament(name=unique("keys"), seed=SEED, variant="spider78", suits=2, closes_in=2)["id"]
    first, first_entry = await new_player(api, server.ws_url, tid, "first")
    await first.play(reveal_move(SEED))
    await first.play({"type": "end"})
    second, second_entry = await new_player(api, server.ws_url, tid, "second")
    await second.play({"type": "end"})
    await first.close()
    await second.close()
    wait_status(api, tid, "finished", timeout=10)
    return tid, first_entry["id"], second_entry["id"]


async def test_a_finished_tournaments_keys_expire_and_its_standings_still_answer(
    api: Api, server: Any, redis_url: str, redis_prefix: str
) -> None:
    tid, winner, other = await finished_tournament(api, server)
    keys = keys_of(redis_prefix, tid)
    left = await ttls(redis_url, keys)
    assert all(0 < t <= FINISHED_SECONDS for t in left), left

    path = f"/api/tournaments/{tid}/leaderboard"
    board = api.http.get(path).json()
    near = api.http.get(f"{path}/around/{other}", params={"k": 1}).json()
    await delete(redis_url, keys)  # as their expiry does
    assert api.http.get(path).json() == board
    assert [(r["rank"], r["entry_id"], r["score"]) for r in board["rows"]] == [(1, winner, 25), (2, other, 0)]
    assert api.http.get(f"{path}/around/{other}", params={"k": 1}).json() == near
    ws, snapshot = await watcher(server.ws_url, tid)
    assert snapshot["status"] == "finished" and snapshot["top"] == board["rows"] and snapshot["entrants"] == 2

    # Disqualified after the finish: the watcher's update ranks what is left, from a board rebuilt for it.
    r = api.http.post(f"/api/tournaments/{tid}/entries/{winner}/disqualify", headers=api.admin(), json={"reason": "x"})
    assert r.status_code == 200, r.text
    update = await next_update(ws)
    assert [(row["rank"], row["entry_id"]) for row in update["top"]] == [(1, other)] and update["entrants"] == 1
    await ws.close()
    assert all(0 < t <= FINISHED_SECONDS for t in await ttls(redis_url, keys))
    assert [(r["rank"], r["entry_id"]) for r in api.http.get(path).json()["rows"]] == [(1, other)]

    # The rebuild on demand still works, and what it builds expires too.
    await delete(redis_url, keys)
    r = api.http.post(f"{path}/rebuild", headers=api.admin())
    assert r.status_code == 200 and r.json()["entries"] == 1, r.text
    assert all(0 < t <= FINISHED_SECONDS for t in await ttls(redis_url, keys))


async def test_keys_that_missed_their_expiry_are_given_one(
    api: Api, server: Any, database_url: str, redis_url: str, redis_prefix: str
) -> None:
    """Redis unavailable at the finish (or keys left by an older server, or of a tournament PostgreSQL
    no longer has): the clock's look for them gives them a lifetime; a running tournament's keep
    theirs unbounded."""
    tid, _, _ = await finished_tournament(api, server)
    live = api.create_tournament(name=unique("keys-live"), seed=SEED, variant="spider78", suits=2)["id"]
    player, _ = await new_player(api, server.ws_url, live, "live")
    await player.close()
    done_keys, live_keys = keys_of(redis_prefix, tid), keys_of(redis_prefix, live)
    redis = Redis.from_url(redis_url)
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    try:
        for key in done_keys:
            await redis.persist(key)
        unknown_keys = keys_of(redis_prefix, 2**40)  # a tournament PostgreSQL does not have
        await redis.set(unknown_keys[0], "1")
        assert await ttls(redis_url, done_keys) == [-1, -1, -1]
        assert await Boards(redis, redis_prefix).expire_over(pool) >= 4
        assert all(0 < t <= FINISHED_SECONDS for t in await ttls(redis_url, done_keys + unknown_keys[:1]))
        assert (await ttls(redis_url, live_keys))[1:] == [-1, -1]  # rank and rows of the running one
    finally:
        await pool.close()
        await redis.aclose()
