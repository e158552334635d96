"""What the tests of practice and analysis per deal share: a finished tournament of two deals with
two entrants, and moves worked out with the engine for a given deal and entry."""

from __future__ import annotations

from typing import Any

from spidertour.engine import Game, Settings
from tests.client import Api, Player
from tests.server.competitions.practice_kit import revealing
from tests.server.competitions.test_deals import create, finish

END: dict[str, Any] = {"type": "end"}
# A seed whose deals have the reveals the tests play (a card revealed a move, twice on each deal for
# entry 1, once on deal 2 for entries 2 and 3): fixed, as not every seed's deal has them.
SEED = "perdeal-0"
# Two deals, renamed per entry (deal_variation): entry 2's deal k is entry 1's renamed.
SETTINGS: dict[str, Any] = {
    "variant": "spider78",
    "suits": 2,
    "time_limit": 600,
    "deals": 2,
    "deal_variation": True,
    "free_column": False,
}


def reveals(seed: str, entry: int, count: int, settings: dict[str, Any] = SETTINGS) -> list[dict[str, Any]]:
    """Moves that reveal ``count`` cards one after the other on ``seed`` as dealt to ``entry``."""
    return revealing(Game(Settings.from_json(settings), seed, entry), count)


def columns(seed: str, entry: int, settings: dict[str, Any] = SETTINGS) -> Any:
    return Game(Settings.from_json(settings), seed, entry).view()["columns"]


async def play_deals(ws_url: str, entry_id: int, token: str, deals: list[list[dict[str, Any]]]) -> None:
    """Play each deal's moves and end it, deal after deal, on one play socket."""
    player, _ = await Player.connect(ws_url, entry_id, token)
    try:
        for moves in deals:
            started = await player.start()
            assert started["type"] == "state" and started["status"] == "playing", started
            for move in moves:
                assert (await player.play(move))["type"] == "result"
            assert (await player.play(END))["type"] == "result"
            assert (await player.recv())["type"] == "over"
    finally:
        await player.close()


async def two_deal_tournament(api: Api, ws_url: str) -> dict[str, Any]:
    """Finished: ann (entry 1) scores 25 on deal 1 and 50 on deal 2, bob (entry 2) 0 and 25.
    Answers the tournament, its seed, and each entrant's token and entry id."""
    seed = SEED
    tour = create(api, seed=seed, settings=SETTINGS)
    tid = tour["id"]
    people: dict[str, Any] = {}
    for name in ("ann", "bob"):
        _, token = api.register(name)
        people[name] = {"token": token, "entry": api.join(tid, token)["id"]}
    await play_deals(
        ws_url, people["ann"]["entry"], people["ann"]["token"], [reveals(f"{seed}/1", 1, 1), reveals(f"{seed}/2", 1, 2)]
    )
    await play_deals(ws_url, people["bob"]["entry"], people["bob"]["token"], [[], reveals(f"{seed}/2", 2, 1)])
    return {"tournament": tour, "id": tid, "seed": seed, "people": people, "finish": lambda: finish(api, tid)}
