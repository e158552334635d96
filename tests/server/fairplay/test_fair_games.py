"""The fair-play settings through a real server: no undo after a reveal with reveals_final; with
deal_variation two entries see different boards yet, playing mapped moves, score alike, and the
published replays re-score on each entry's renamed deal."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from spidertour.engine import End, Game, Settings
from spidertour.engine.deals.variation import Renaming
from spidertour.server.cli.verify import verify, verify_data
from tests.client import Api, Player

REVEAL: dict[str, Any] = {
    "type": "move",
    "from": 0,
    "count": 1,
    "to": 8,
}  # column 0's exposed card onto the free column
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}


async def test_undo_after_a_reveal_is_refused_with_reveals_final(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="reveals final", seed="final-seed", reveals_final=True, **SETTINGS)
    assert tour["settings"]["reveals_final"] is True
    _, token = api.register("no peeking")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    moved = await player.play(REVEAL)
    assert moved["type"] == "result" and moved["revealed"] == 1 and moved["view"]["can_undo"] is False
    refused = await player.play({"type": "undo"})
    assert refused["type"] == "error" and refused["code"] == "reveals_final"
    state = await player.request({"type": "sync"})
    assert state["view"]["score"] == 25 and state["moves"] == 1  # the card stays up, nothing changed
    await player.close()


async def until_finished(api: Api, tournament_id: int, timeout: float = 8.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (tour := api.tournament(tournament_id))["status"] != "finished":
        assert time.monotonic() < deadline, f"still {tour['status']}"
        await asyncio.sleep(0.1)
    return tour


async def test_renamed_deals_differ_and_mapped_play_scores_alike(api: Api, server: Any) -> None:
    seed = "renamed-seed"
    tour = api.create_tournament(name="renamed", seed=seed, closes_in=2.5, deal_variation=True, **SETTINGS)
    settings = Settings.from_json(tour["settings"])
    assert settings.deal_variation
    players = []
    for name in ("one", "two"):
        _, token = api.register(name)
        entry = api.join(tour["id"], token)
        player, _ = await Player.connect(server.ws_url, entry["id"], token)
        started = await player.start()
        players.append((entry, player, started["view"]))
    (e1, p1, v1), (e2, p2, v2) = players
    # Entries 1 and 2 (their ordinals) are dealt their own renamings of one deal.
    assert v1 != v2
    assert v1 == Game(settings, seed, entry=1).view() and v2 == Game(settings, seed, entry=2).view()

    one, two = Renaming.of(settings, seed, 1), Renaming.of(settings, seed, 2)
    local = Game(settings, seed, entry=1)
    rng = random.Random(9)
    for _ in range(25):
        legal = list(local.legal_moves())
        if not legal:
            break
        revealing = [m for m in legal if m.type == "move" and local.copy().play(m).revealed]
        move = rng.choice(revealing or legal)  # a walk that turns cards, so that scores move
        local.play(move)
        theirs = two.move(one.move_back(move))  # entry 1's move in entry 2's numbering
        a = await p1.play(move.to_json())
        b = await p2.play(theirs.to_json())
        assert a["type"] == b["type"] == "result"
        assert (a["view"]["score"], a["view"]["reveals"], a["view"]["sequences"]) == (
            b["view"]["score"],
            b["view"]["reveals"],
            b["view"]["sequences"],
        )
    assert local.score > 0  # the walk revealed something
    for p in (p1, p2):
        assert (await p.play(End().to_json()))["type"] == "result"
        assert (await p.recv())["type"] == "over"
        await p.close()

    await until_finished(api, tour["id"])
    lines = [json.loads(line) for line in api.http.get(f"/api/tournaments/{tour['id']}/replays").text.splitlines()]
    assert {g["entry_id"]: g["entry"] for g in lines} == {e1["id"]: 1, e2["id"]: 2}
    assert lines[0]["deal_variation"] is True
    report = verify(server.url, tour["id"])
    assert report.ok, report.problems
    assert {g.entry_id: g.recomputed for g in report.games} == {g["entry_id"]: g["final_score"] for g in lines}
    assert lines[0]["final_score"] == lines[1]["final_score"] > 0

    # A line that claims another entry's renamed deal no longer re-scores as published.
    published = api.tournament(tour["id"])
    standings = api.http.get(f"/api/tournaments/{tour['id']}/standings").json()
    swapped = [{**g, "entry": 3 - g["entry"]} for g in lines]
    tampered = verify_data(published, "".join(json.dumps(g) + "\n" for g in swapped), standings)
    assert not tampered.ok
    missing = [{k: v for k, v in g.items() if k != "entry"} for g in lines]
    unnamed = verify_data(published, "".join(json.dumps(g) + "\n" for g in missing), standings)
    assert any("names no entry ordinal" in p for p in unnamed.problems)
