"""The first page's "playing now" and "waiting": counted by PostgreSQL at most once a second per
process, whoever reads it, the figures of a count of the entries; past its second a figure is
served while the next count runs."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from spidertour.server.watch import store
from spidertour.server.watch.counts import LiveCounts
from tests.client import Api

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1}


async def test_counts_are_kept_for_their_window_then_counted_again(api: Api, database_url: str) -> None:
    tour = api.create_tournament(name="counted", seed="counts", **SETTINGS)
    for name in ("count-a", "count-b"):
        api.join(tour["id"], api.register(name)[1])
    db = await asyncpg.create_pool(database_url, min_size=1, max_size=4)
    try:
        counts = LiveCounts(seconds=3600)
        assert await counts.get(db, tour["id"]) == (0, 2) == await store.live_counts(db, tour["id"])
        api.join(tour["id"], api.register("count-c")[1])
        # Within the window the figure counted stands; readers at once share one count.
        assert await asyncio.gather(*(counts.get(db, tour["id"]) for _ in range(5))) == [(0, 2)] * 5
        counts.seconds = 0  # the window over: the last figure at once, a new count for the next reads
        assert await counts.get(db, tour["id"]) == (0, 2)
        await asyncio.gather(*counts.counting.values())
        counts.seconds = 3600
        assert await counts.get(db, tour["id"]) == (0, 3) and not counts.counting
        together = LiveCounts(seconds=0)
        answers = await asyncio.gather(*(together.get(db, tour["id"]) for _ in range(5)))
        assert answers == [(0, 3)] * 5  # the first reads wait for one count
        api.join(tour["id"], api.register("count-d")[1])
        together.known[tour["id"]] = (0.0, (9, 9))  # a figure long past STALE_SECONDS: never served
        assert await together.get(db, tour["id"]) == (0, 4)
        assert await LiveCounts().get(db, -1) == (0, 0)  # no such tournament: nobody
    finally:
        await db.close()


async def test_the_first_page_says_the_counts(api: Api) -> None:
    tour = api.create_tournament(name="counted-page", seed="counts", **SETTINGS)
    api.join(tour["id"], api.register("count-page")[1])
    board = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()
    assert (board["playing"], board["waiting"], board["entrants"]) == (0, 1, 1)
