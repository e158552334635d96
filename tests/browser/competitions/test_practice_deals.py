"""Practice and analysis per deal in Chromium: a finished tournament of several deals offers "Practise
deal N" for each deal on its results page; the practice game plays that deal (as the entrants were
dealt it) and its result says "Deal N of M", where it would have ranked among that deal's results and
that deal's analysis; each deal's replay shows its own analysis. Phones (touch) and a desktop."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import expect_board, sign_in
from tests.client import Api
from tests.server.competitions.practice_kit import wait_finished_with_par
from tests.server.perdeal.kit import SETTINGS, two_deal_tournament
from tests.serverproc import ServerProcess

SIZES = [
    ({"width": 360, "height": 740}, True),
    ({"width": 740, "height": 360}, True),
    ({"width": 1280, "height": 800}, False),
]


@pytest.fixture(scope="module")
def finished(api: Api, server: ServerProcess) -> dict[str, Any]:
    """Two deals, finished: ann 25 and 50, bob 0 and 25."""
    made = asyncio.run(two_deal_tournament(api, server.ws_url))
    made["finish"]()
    wait_finished_with_par(api, made["id"])
    return made


async def press(target: Locator, touch: bool) -> None:
    await (target.tap() if touch else target.click())


async def no_sideways_scroll(page: Page) -> None:
    width = await page.evaluate("window.innerWidth")
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("size", "touch"), SIZES, ids=["phone", "phone-landscape", "desktop"])
async def test_practise_each_deal_and_see_its_analysis(
    browser: Browser, api: Api, server: ServerProcess, finished: dict[str, Any], size: dict[str, int], touch: bool
) -> None:
    tid, seed, ann = finished["id"], finished["seed"], finished["people"]["ann"]
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    context = await new_context(browser, server, viewport=size, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        await sign_in(page, api, f"practiser{size['width']}")
        await page.goto(f"/#/finished/{tid}")
        offered = page.locator(".finished-page [data-field=practise-deals] [data-action=practise]")
        await expect(offered).to_have_text(["Practise deal 1", "Practise deal 2"])
        await no_sideways_scroll(page)

        # Each deal's replay has that deal's analysis (ann: one reveal on deal 1, two on deal 2).
        for deal, positions in ((1, 2), (2, 3)):
            await press(
                page.locator(f'tr[data-entry="{ann["entry"]}"] [data-action=replay][data-deal="{deal}"]'), touch
            )
            line = page.locator(".replay [data-field=analysis]")
            await expect(line).to_have_attribute("data-status", "ready", timeout=45_000)
            await expect(line.locator(".cell")).to_have_count(positions)

        await press(offered.nth(1), touch)
        await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
        await expect(page.locator("[data-field=practice-unranked]")).to_contain_text("Deal 2 of 2 of the finished")
        await press(page.get_by_role("button", name="Start the game"), touch)
        # Deal 2 as entry 1 was dealt it (a player without an entry plays entry 1's deal).
        await expect_board(page, Game(Settings.from_json(SETTINGS), f"{seed}/2", 1).view())
        await expect(page.locator("[data-stat=deal]")).to_have_text("2/2")
        await press(page.locator("[data-action=end]"), touch)
        await press(page.locator("dialog.confirm-dialog [data-action=confirm]"), touch)
        panel = page.locator(".over-panel")
        await expect(panel.locator("[data-field=practice-deal]")).to_have_text("Deal 2 of 2.")
        await expect(panel.locator("[data-field=would-rank]")).to_have_text("This would have ranked 3rd of 3.")
        await expect(panel.locator("[data-field=practice-par]")).to_have_text("No par for this deal.")
        await expect(panel.locator("[data-action=next-deal]")).to_have_count(0)
        await expect(panel.locator("[data-field=analysis]")).to_have_attribute("data-status", "ready", timeout=45_000)
        await no_sideways_scroll(page)

        await page.goto("/#/me")
        await expect(page.locator("table[data-field=practice] [data-field=deal]")).to_have_text(["deal 2 of 2"])
        await no_sideways_scroll(page)
    finally:
        await context.close()
    assert errors == []
    assert api.http.get(f"/api/tournaments/{tid}/standings").json() == standings
