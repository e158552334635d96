"""One game's replay and analysis one link away: #/finished/TID/ENTRY opens the finished page with
that entry's replay open, in view, its analysis under it (on a fresh load, for the player and for a
watcher); the result panel, My page and the lobby's finished card link to it; and a game stopped
(End, or the clock) while a win still existed says so in plain words. At 360x740 and 740x360
(touch) and 1280x800."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from spidertour.engine.solver import solve_game
from tests.browser.conftest import snap
from tests.browser.helpers import BAD_WORDS, SCREENS, Screen, open_screen, sign_in
from tests.client import Api, Player
from tests.server.competitions.practice_kit import ONE_SUIT, play, wait_finished_with_par
from tests.serverproc import ServerProcess

SEED = "replay-link"


@pytest_asyncio.fixture(params=list(SCREENS))
async def screen(request: pytest.FixtureRequest, browser: Browser, server: ServerProcess) -> AsyncIterator[Screen]:
    async with open_screen(browser, server, request.param) as opened:
        yield opened


@pytest.fixture(scope="module")
def cup(api: Api, server: ServerProcess) -> dict[str, Any]:
    """A finished tournament of a 2-second clock: ann played three moves of a win and pressed End,
    bob played the same three and let the clock run out, cy and dee played a move each (standings
    above the replays), eve never came."""
    won = solve_game(Game(Settings(**ONE_SUIT), SEED), seconds=5, clock=time.process_time)
    assert won.won
    start = [m.to_json() for m in won.moves[:3]]
    tid = api.create_tournament(name="Replay link cup", seed=SEED, closes_in=4, time_limit=2, **ONE_SUIT)["id"]
    players: dict[str, dict[str, Any]] = {}
    for name in ("ann", "bob", "cy", "dee", "eve"):
        pid, token = api.register(name)
        players[name] = {"id": pid, "name": name, "token": token, "entry": api.join(tid, token)["id"]}

    async def games() -> None:
        ann, bob = players["ann"], players["bob"]
        assert (await play(api, server.ws_url, ann["entry"], ann["token"], start))["outcome"] == "ended"
        for name in ("cy", "dee"):
            await play(api, server.ws_url, players[name]["entry"], players[name]["token"], start[:1])
        player, _ = await Player.connect(server.ws_url, bob["entry"], bob["token"])
        await player.start()
        for move in start:
            assert (await player.play(move))["type"] == "result"
        over = await player.recv(timeout=10)
        assert over["type"] == "over" and over["outcome"] == "timed_out", over
        await player.close()

    asyncio.run(games())
    wait_finished_with_par(api, tid)
    return {"id": tid, **players}


def player(who: dict[str, Any]) -> dict[str, Any]:
    return {"id": who["id"], "name": who["name"], "token": who["token"]}


async def replay_in_view(page: Page, entry: int, note: str) -> None:
    """The entry's replay open (the only one), its heading and its analysis in the window, the note said."""
    replay = page.locator(".finished-page .replay")
    await expect(replay).to_have_count(1)
    await expect(replay).to_have_attribute("data-entry", str(entry))
    await expect(replay.locator("h2")).to_be_in_viewport()
    analysis = replay.locator("[data-field=analysis]")
    await expect(analysis).to_have_attribute("data-status", "ready", timeout=60_000)
    await expect(analysis.locator("[data-field=still-winnable]")).to_have_text(note)
    await expect(analysis).to_be_in_viewport()
    assert await page.evaluate("window.scrollY") > 0  # brought into view: it is under the standings
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not re.search(BAD_WORDS, await page.locator("#main").inner_text())


async def test_the_link_opens_a_watchers_fresh_page_on_that_replay(
    screen: Screen, api: Api, cup: dict[str, Any], shots: Path
) -> None:
    """A player who is not ann, on a fresh load of ann's link: her replay in view, the analysis
    naming her; the same page's Replay buttons make the address their replay's own."""
    page = screen.page
    await sign_in(page, api, "watcher")
    tid, ann, bob = cup["id"], cup["ann"]["entry"], cup["bob"]["entry"]
    await page.goto(f"/#/finished/{tid}/{ann}")
    await replay_in_view(page, ann, "ann stopped while the game was still winnable.")
    await expect(page).to_have_title("Replay link cup \u00b7 replay of ann")
    await snap(page, shots, f"replay-link-{screen.name}")
    await page.evaluate("window.scrollTo(0, 0)")
    await screen.press(f'.standings.final tr[data-entry="{bob}"] [data-action=replay]')
    await expect(page).to_have_url(re.compile(rf"#/finished/{tid}/{bob}$"))
    await replay_in_view(page, bob, "Time ran out while the game was still winnable.")


async def test_a_visitor_gets_the_replay_and_is_asked_to_sign_in_for_the_analysis(
    screen: Screen, cup: dict[str, Any]
) -> None:
    page = screen.page
    tid, bob = cup["id"], cup["bob"]["entry"]
    await page.goto(f"/#/finished/{tid}/{bob}")
    replay = page.locator(".finished-page .replay")
    await expect(replay).to_have_attribute("data-entry", str(bob))
    await expect(replay.locator("h2")).to_be_in_viewport()
    await expect(replay.locator("[data-field=analysis]")).to_have_attribute("data-status", "signed-out")


async def test_a_link_to_no_replay_says_so(screen: Screen, cup: dict[str, Any]) -> None:
    """An entry that never played, or one of another tournament: plain words, the page as it is."""
    page = screen.page
    for entry in (cup["eve"]["entry"], 999_999_999):
        await page.goto("about:blank")
        await page.goto(f"/#/finished/{cup['id']}/{entry}")
        await expect(page.locator("[data-field=no-replay]")).to_have_text(
            f"No replay of entry {entry} here: it never played, or it is not in this tournament. "
            "Every game played is in the standings below (its Replay button)."
        )
        await expect(page.locator(".finished-page .replay")).to_have_count(0)
        await expect(page.locator(".standings.final tbody tr")).to_have_count(5)


async def test_the_result_panel_links_to_the_analysis(screen: Screen, cup: dict[str, Any]) -> None:
    page = screen.page
    await screen.as_player(player(cup["bob"]))
    tid, bob = cup["id"], cup["bob"]["entry"]
    await page.goto(f"/#/play/{bob}")
    line = page.locator(".over-panel [data-field=analysis-link]")
    await expect(line).to_have_attribute("data-open", "true")
    link = line.locator("[data-action=analysis]")
    await expect(link).to_have_attribute("href", f"#/finished/{tid}/{bob}")
    await expect(link).to_have_text("Where the win was lost")
    await screen.press(".over-panel [data-action=analysis]")
    await replay_in_view(page, bob, "Time ran out while the game was still winnable.")


async def test_my_page_links_each_finished_game_to_its_analysis(screen: Screen, cup: dict[str, Any]) -> None:
    page = screen.page
    await screen.as_player(player(cup["ann"]))
    tid, ann = cup["id"], cup["ann"]["entry"]
    await page.goto("/#/me")
    link = page.locator(f'[data-field=results] tr[data-entry="{ann}"] [data-action=replay]')
    await expect(link).to_have_attribute("href", f"#/finished/{tid}/{ann}")
    await expect(link).to_have_text("Replay & analysis")
    await screen.press(f'[data-field=results] tr[data-entry="{ann}"] [data-action=replay]')
    await replay_in_view(page, ann, "You stopped while the game was still winnable.")


async def test_the_lobby_links_a_finished_tournament_to_my_analysis(screen: Screen, cup: dict[str, Any]) -> None:
    page = screen.page
    await screen.as_player(player(cup["ann"]))
    tid, ann = cup["id"], cup["ann"]["entry"]
    await page.goto("/#/lobby")
    card = f'article.tournament[data-tournament="{tid}"]'
    link = page.locator(f"{card} [data-action=my-replay]")
    await expect(link).to_have_attribute("href", f"#/finished/{tid}/{ann}")
    await expect(link).to_have_text("My replay & analysis")
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    await screen.press(f"{card} [data-action=my-replay]")
    await replay_in_view(page, ann, "You stopped while the game was still winnable.")


async def test_the_lobby_links_no_replay_for_an_entry_that_never_played(screen: Screen, cup: dict[str, Any]) -> None:
    page = screen.page
    await screen.as_player(player(cup["eve"]))
    await page.goto("/#/lobby")
    card = page.locator(f'article.tournament[data-tournament="{cup["id"]}"]')
    await expect(card.locator("[data-action=results]")).to_be_visible()
    await expect(card.locator("[data-action=my-replay]")).to_have_count(0)
