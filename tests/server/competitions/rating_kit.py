"""What the ratings' tests share: rated tournaments finished by real play over the websocket."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.client import Api, Player
from tests.server.helpers import reveal_move, unique

TWO_SUITS = {"variant": "spider78", "suits": 2}
ONE_SUIT = {"variant": "spider78", "suits": 1}


@dataclass
class Plan:
    """One entrant: who plays and how. ``reveal``: one card revealed (25 points) before ending;
    ``start`` False: joins and never starts (absent at the finish)."""

    token: str
    reveal: bool = False
    start: bool = True
    moves: list[dict[str, Any]] = field(default_factory=list)


def create(api: Api, seed: str, settings: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    now = datetime.now(UTC)
    body = {
        "name": unique("rated"),
        "seed": seed,
        "settings": settings or TWO_SUITS,
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        **fields,
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def play(api: Api, ws_url: str, tid: int, seed: str, plan: Plan) -> int:
    """Join, and play as planned; the entry's id."""
    entry = api.join(tid, plan.token)
    if plan.start:
        player, _ = await Player.connect(ws_url, entry["id"], plan.token)
        await player.start()
        moves = [reveal_move(seed)] if plan.reveal else []
        for move in [*moves, *plan.moves, {"type": "end"}]:
            answer = await player.play(move)
            assert answer["type"] in ("result", "over"), answer
        await player.close()
    return int(entry["id"])


def finish(api: Api, tid: int, timeout: float = 15) -> dict[str, Any]:
    """Close the tournament now and wait for the clock to finish it."""
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=api.admin())
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + timeout
    while (tour := api.tournament(tid))["status"] != "finished":
        assert time.monotonic() < deadline, f"tournament {tid} never finished: {tour['status']}"
        time.sleep(0.1)
    return tour


async def finished(
    api: Api, ws_url: str, plans: list[Plan], settings: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """A tournament played as planned (in that order of entry) and finished."""
    seed = unique("seed")
    tour = create(api, seed, settings, **fields)
    for plan in plans:
        await play(api, ws_url, tour["id"], seed, plan)
    return finish(api, tour["id"])


def profile(api: Api, player_id: int) -> dict[str, Any]:
    r = api.http.get(f"/api/players/{player_id}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def players(api: Api, count: int, name: str = "rated") -> list[tuple[int, str]]:
    return [api.register(unique(name)) for _ in range(count)]
