"""No peeking: whole games played over the socket; no message carries the seed or a hidden card."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from spidertour.engine import Game, Settings, move_from_json
from spidertour.engine.cards import card_text
from tests.client import Api, Player

CARD = re.compile(r"\b[A23456789TJQK][SHDC]\b")


def visible_cards(game: Game) -> set[str]:
    """Every card the player may see now: face-up column cards and shown pile tops."""
    seen = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[d:]}
    if game.piles is not None and game.settings.draw_pile_tops_up:
        seen |= {card_text(p[0]) for p in game.piles if p}
    return seen


def hidden_only(game: Game) -> set[str]:
    """Cards present only face down or inside piles (no copy visible anywhere)."""
    hidden = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    for pile in game.piles or []:
        hidden |= {card_text(c) for c in (pile[1:] if game.settings.draw_pile_tops_up else pile)}
    hidden |= {card_text(c) for c in game.stock or []}
    return hidden - visible_cards(game)


@pytest.mark.parametrize(
    "settings",
    [
        {"variant": "spider78", "suits": 2},
        {"variant": "spider78", "suits": 2, "draw_pile_tops_up": False, "draw_pile_choice": False},
        {"variant": "spider", "suits": 4},
        {"variant": "black_widow", "suits": 4},
    ],
)
async def test_no_message_reveals_seed_or_hidden_cards(api: Api, server, settings: dict[str, Any]) -> None:
    # A fixed seed keeps the game long enough to check many messages (a random one can stall early).
    seed = "no-peeking-secret-1"
    tour = api.create_tournament(name="no peeking", seed=seed, **settings)
    assert seed not in json.dumps(api.tournament(tour["id"]))
    _, token = api.register("peeker")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    game = Game(Settings(**settings), seed)
    await player.start()
    rng = random.Random(3)
    leaks = 0
    played = 0
    for _ in range(150):
        legal = list(game.legal_moves())
        if not legal or game.over:
            break
        move = rng.choice(legal).to_json()
        answer = await player.play(move)
        assert answer["type"] == "result", answer
        game.play(move_from_json(move))
        assert answer["view"] == game.view()
        text = player.received[-1]
        shown = set(CARD.findall(text))
        assert shown <= visible_cards(game), shown - visible_cards(game)
        leaks += len(shown & hidden_only(game))
        played += 1
    await player.play({"type": "end"})
    await player.recv()
    assert leaks == 0
    everything = "\n".join(player.received)
    assert seed not in everything
    assert played >= 100
    assert len(player.received) > played
    await player.close()
