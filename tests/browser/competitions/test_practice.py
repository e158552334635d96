"""Practice and analysis in the browser: a finished tournament's "Practise this deal" (finished page and
lobby card) opening an unranked game whose end panel says where it would have ranked; the replay's
analysis line, green while a win exists, red after the turning point, at phone and desktop sizes."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.game.test_result_panel import ARIA
from tests.browser.helpers import sign_in
from tests.client import Api
from tests.server.competitions.practice_kit import ONE_SUIT, losing_line, play, wait_finished_with_par
from tests.serverproc import ServerProcess

SEED = "browser-practice"  # its losing line reveals a card: the practice game that ends at once ranks last
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
GREEN, RED = "rgb(46, 125, 50)", "rgb(184, 50, 39)"


async def no_sideways_scroll(page: Page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.fixture(scope="module")
def finished(api: Api, server: ServerProcess) -> tuple[int, int, int]:
    """A finished tournament whose one entrant gave its win away: (tournament, entry, turning point)."""
    line = losing_line(SEED, ONE_SUIT)
    tid = api.create_tournament(name="Practice cup", seed=SEED, closes_in=3, **ONE_SUIT)["id"]
    _, token = api.register("ann")
    eid = api.join(tid, token)["id"]
    over = asyncio.run(play(api, server.ws_url, eid, token, line))
    assert over["final_score"] > 0
    wait_finished_with_par(api, tid)
    return tid, eid, len(line)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_the_replay_shows_where_the_win_was_lost(
    browser: Browser, api: Api, server: ServerProcess, finished: tuple[int, int, int], size: dict[str, int], shots: Path
) -> None:
    tid, eid, turning = finished
    context = await new_context(browser, server, viewport=size)
    page = await context.new_page()
    errors = js_errors(page)
    await sign_in(page, api, "viewer")  # an analysis is asked for with a player's token
    try:
        await page.goto(f"/#/finished/{tid}")
        await page.locator(f'.standings.final tr[data-entry="{eid}"] [data-action=replay]').click()
        line = page.locator(".replay [data-field=analysis]")
        await expect(line).to_have_attribute("data-status", "ready", timeout=30_000)
        await expect(line).to_have_attribute("data-turning-point", str(turning))
        cells = line.locator(".cell")
        await expect(cells).to_have_count(turning + 1)
        kinds = await cells.evaluate_all("cells => cells.map((c) => c.dataset.kind)")
        assert kinds == ["win"] * turning + ["lost"]
        assert await page.evaluate(ARIA) == []  # the bar of buttons a group, not an image
        colours = await cells.evaluate_all("cells => cells.map((c) => getComputedStyle(c).backgroundColor)")
        assert colours == [GREEN] * turning + [RED]
        assert await cells.nth(turning).evaluate("c => c.classList.contains('turning')")
        box = await cells.first.bounding_box()
        assert box is not None and box["height"] >= 10
        note = line.locator("[data-field=turning-point]")
        await expect(note).to_have_text(f"move {turning}: the win was lost here")
        await note.click()
        await expect(page.locator(".replay .board")).to_have_attribute("data-step", str(turning))
        await expect(cells.nth(turning)).to_have_class("cell lost turning here")
        await no_sideways_scroll(page, size["width"])
        await snap(page, shots, f"analysis-{size['width']}")
    finally:
        await context.close()
    assert errors == []


async def test_a_visitor_is_asked_to_sign_in_for_the_analysis(
    browser: Browser, server: ServerProcess, finished: tuple[int, int, int]
) -> None:
    tid, eid, _ = finished
    context = await new_context(browser, server, viewport=PHONE)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        await page.goto(f"/#/finished/{tid}")
        await page.locator(f'.standings.final tr[data-entry="{eid}"] [data-action=replay]').click()
        line = page.locator(".replay [data-field=analysis]")
        await expect(line).to_have_attribute("data-status", "signed-out")
        await expect(line.locator("[data-field=analysis-hint]")).to_have_text("Sign in to see where the win was lost")
    finally:
        await context.close()
    assert errors == []


async def test_practise_this_deal(
    browser: Browser, api: Api, server: ServerProcess, finished: tuple[int, int, int]
) -> None:
    tid, _, _ = finished
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    for size in (PHONE, DESKTOP):
        context = await new_context(browser, server, viewport=size)
        page = await context.new_page()
        errors = js_errors(page)
        try:
            await sign_in(page, api, "bea")
            await page.goto("/#/lobby")
            card = page.locator(f'article.tournament[data-tournament="{tid}"]')
            await expect(card.locator("[data-action=practise]")).to_be_visible()
            await page.goto(f"/#/finished/{tid}")
            await page.locator(".finished-page [data-action=practise]").click()
            await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
            game = page.locator(".game-page")
            await expect(game).to_have_attribute("data-practice", "true")
            await page.get_by_role("button", name="Start the game").click()
            await page.locator("[data-action=end]").click()
            await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
            panel = page.locator(".over-panel")
            await expect(panel.locator("[data-field=would-rank]")).to_have_text("This would have ranked 2nd of 2.")
            await expect(panel.locator("[data-field=practice-par]")).to_contain_text("Par: ")
            await no_sideways_scroll(page, size["width"])
        finally:
            await context.close()
        assert errors == []
    assert api.http.get(f"/api/tournaments/{tid}/standings").json() == standings


async def test_a_visitor_is_shown_the_way_in_to_practise(
    browser: Browser, server: ServerProcess, finished: tuple[int, int, int]
) -> None:
    """Signed out, "practise this deal" is a way in (it was a grey line that looked like a dead button)."""
    tid, _, _ = finished
    context = await new_context(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        await page.goto(f"/#/finished/{tid}")
        hint = page.locator(".finished-page [data-field=practise-hint]")
        await expect(hint).to_have_attribute("href", "#/account")
        await expect(hint).to_have_class(re.compile(r"\bbtn\b"))
        await hint.click()
        await expect(page).to_have_url(re.compile(r"#/account$"))
        await no_sideways_scroll(page, PHONE["width"])
    finally:
        await context.close()
    assert errors == []
