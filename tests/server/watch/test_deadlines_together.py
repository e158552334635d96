"""Games that reach their deadlines in one sweep of the clock, in several tournaments at once, are
written to each tournament's board together and reach its watchers."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.client import Api
from tests.server.helpers import fetch, new_player, next_update, watcher

PLAYERS = 6


async def test_games_timed_out_together_reach_every_board_and_watcher(api: Api, server: Any, database_url: str) -> None:
    tours = [api.create_tournament(name=f"deadline-{k}", seed="deadline", variant="spider78", suits=1) for k in (1, 2)]
    players, entries = [], {}
    for tour in tours:
        for i in range(PLAYERS):
            player, entry = await new_player(api, server.ws_url, tour["id"], f"due-{tour['id']}-{i}")
            players.append(player)
            entries[entry["id"]] = tour["id"]
    watchers = [await watcher(server.ws_url, tour["id"]) for tour in tours]
    for _, first in watchers:
        assert {r["status"] for r in first["top"]} == {"playing"} and first["entrants"] == PLAYERS
    # Every game's deadline now: the next sweep times them all out.
    await fetch(database_url, "UPDATE entries SET deadline = now() WHERE id = ANY($1::bigint[])", list(entries))
    for (ws, _), tour in zip(watchers, tours, strict=True):
        seen: dict[int, dict[str, Any]] = {}
        while len(seen) < PLAYERS or any(r["status"] != "timed_out" for r in seen.values()):
            update = await next_update(ws, timeout=15)
            seen.update({r["entry_id"]: r for r in update["changed"]})
        assert {entries[e] for e in seen} == {tour["id"]}
        assert sorted(r["rank"] for r in seen.values()) == list(range(1, PLAYERS + 1))
        board = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()
        assert [r["status"] for r in board["rows"]] == ["timed_out"] * PLAYERS
        await ws.close()
    await asyncio.gather(*(p.close() for p in players))
