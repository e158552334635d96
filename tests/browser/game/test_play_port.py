"""The game page finds the play socket where the server says (GET /api/play/socket: the play port),
and plays on the page's own port when the play port cannot be reached."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, Route, expect

from spidertour.engine import Game, Settings
from tests.browser.helpers import card_moves, click_move, expect_board, sign_in
from tests.client import Api
from tests.serverproc import ServerProcess, free_port, silent_listener

SEED = "browser-play-port"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}


async def play_one_move(page: Page, api: Api, name: str) -> str:
    """Join, open the game page, start and make a move; the play socket's URL."""
    tour = api.create_tournament(name=name, seed=SEED, **SETTINGS)
    game = Game(Settings(**SETTINGS), SEED)
    me = await sign_in(page, api, name)
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await page.locator("[data-action=start]").click()
    await expect_board(page, game.view())
    move = card_moves(game)[0]
    await click_move(page, move.src, len(game.columns[move.src]) - move.count, move.dst)
    game.play(move)
    await expect_board(page, game.view())
    return str(await page.evaluate("window.spidertour.socket.ws.url"))


async def test_the_page_plays_on_the_play_port(page: Page, api: Api, server: ServerProcess) -> None:
    url = await play_one_move(page, api, "porter")
    assert url.startswith(f"ws://127.0.0.1:{server.play_port}/ws/play/"), url


@pytest.mark.parametrize("reachable", ["closed", "silent"])
async def test_a_play_port_out_of_reach_falls_back_to_the_pages_own(
    page: Page, api: Api, server: ServerProcess, reachable: str
) -> None:
    """``closed``: nothing listens at the play port (a proxy or firewall that refuses it); ``silent``:
    it connects and never answers (one that drops what follows), given four seconds."""
    with silent_listener() as silent:
        port = free_port() if reachable == "closed" else silent.getsockname()[1]

        async def elsewhere(route: Route) -> None:
            await route.fulfill(json={"port": port})

        await page.route("**/api/play/socket", elsewhere)
        url = await play_one_move(page, api, f"fallback-{reachable}")
    assert url.startswith(f"ws://127.0.0.1:{server.port}/ws/play/"), url
    await expect(page.locator(".conn")).to_be_hidden()
