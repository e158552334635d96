"""The live board watches on the server's play port when it has one (GET /api/play/socket), as the
game page plays there, and on the page's own port when the play port cannot be reached; live either
way: a move's new score reaches the board."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, Route, WebSocket, expect

from spidertour.engine import Game, Settings
from tests.client import Api, Player
from tests.server.helpers import FREE
from tests.serverproc import ServerProcess, free_port, silent_listener

SEED = "browser-board-socket"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}


async def watched_live(page: Page, api: Api, server: ServerProcess, name: str) -> str:
    """Open a running tournament's board, see a move's score arrive live; the watch socket's URL."""
    tour = api.create_tournament(name=name, seed=SEED, **SETTINGS)
    _, token = api.register(name)
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    sockets: list[WebSocket] = []

    def seen(socket: WebSocket) -> None:
        sockets.append(socket)

    page.on("websocket", seen)
    await page.goto(f"/#/board/{tour['id']}")
    await expect(page.locator("[data-field=live]")).to_have_text("\u25cf live", timeout=15_000)
    game = Game(Settings(**SETTINGS), SEED)
    move = {"type": "move", "from": 0, "count": 1, "to": FREE}  # column 0's card onto the free column
    result = game.play_json(move)
    assert result.revealed == 1
    answer = await player.play(move)
    assert answer["type"] == "result", answer
    await expect(page.locator(f"tr[data-entry='{entry['id']}'] [data-field=score]")).to_have_text(
        str(game.score), timeout=10_000
    )
    await player.close()
    opened = [s.url for s in sockets if "/ws/watch/" in s.url and not s.is_closed()]
    assert len(opened) == 1, [s.url for s in sockets]
    return opened[0]


@pytest.mark.parametrize("reachable", ["yes", "closed", "silent"])
async def test_the_board_watches_on_the_play_port_or_its_own(
    page: Page, api: Api, server: ServerProcess, reachable: str
) -> None:
    """``closed``: nothing listens at the play port (a proxy or firewall that refuses it); ``silent``:
    it connects and never answers (one that drops what follows), given four seconds."""
    with silent_listener() as silent:
        if reachable != "yes":
            port = free_port() if reachable == "closed" else silent.getsockname()[1]

            async def elsewhere(route: Route) -> None:
                await route.fulfill(json={"port": port})

            await page.route("**/api/play/socket", elsewhere)
        url = await watched_live(page, api, server, f"board-socket-{reachable}")
    port = server.play_port if reachable == "yes" else server.port
    assert url.startswith(f"ws://127.0.0.1:{port}/ws/watch/"), url
