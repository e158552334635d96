"""What opens over a page, checked by axe-core as the every-page test checks the pages: a finished
tournament's replay with its analysis bar (where a win existed, a position a button), the par's replay,
and the game's help, on a phone upright and sideways (touch) and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import sign_in
from tests.browser.phones.axe import violations
from tests.browser.phones.test_every_page import SIZES
from tests.client import Api
from tests.server.competitions.practice_kit import ONE_SUIT, finished_pair
from tests.serverproc import ServerProcess

SEED = "axe-open"


@pytest.fixture(scope="module")
def finished(api: Api, server: ServerProcess) -> int:
    """A finished tournament of two players (one suit, its par worked out)."""
    return finished_pair(api, server.ws_url, "Replay cup", SEED)


@pytest.mark.parametrize("size", list(SIZES))
async def test_replays_and_help(browser: Browser, server: ServerProcess, api: Api, finished: int, size: str) -> None:
    context = await new_context(browser, server, **SIZES[size])
    page = await context.new_page()
    errors = js_errors(page)
    found: dict[str, list[str]] = {}
    try:
        me = await sign_in(page, api, f"eve-{size}")  # signed in: the replay's analysis is shown
        await page.goto(f"/#/finished/{finished}")
        await page.locator(".finished-page tr[data-entry] [data-action=replay]").first.click()
        analysis = page.locator(".replay [data-field=analysis]")
        await expect(analysis).to_have_attribute("data-status", "ready", timeout=30_000)
        await expect(page.locator(".replay [data-field=rescore]")).to_have_attribute("data-ok", "true")
        found["replay"] = await violations(page)
        await page.locator("[data-action=replay-par]").click()
        await expect(page.locator('.replay[data-entry="par"] [data-field=rescore]')).to_have_attribute(
            "data-ok", "true"
        )
        found["par"] = await violations(page)

        tour: dict[str, Any] = api.create_tournament(name="Help cup", seed=SEED, **ONE_SUIT)
        entry = api.join(tour["id"], me["token"])
        await page.goto(f"/#/play/{entry['id']}")
        await page.locator("[data-action=start]").click()
        await expect(page.locator(".game-page .board .card").first).to_be_visible()
        await page.locator(".game-page [data-action=help]").click()
        await expect(page.get_by_role("dialog", name="How to play")).to_be_visible()
        found["help"] = await violations(page)
    finally:
        await context.close()
    assert {name: said for name, said in found.items() if said} == {}
    assert errors == []
