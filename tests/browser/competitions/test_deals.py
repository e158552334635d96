"""Several deals in one event in Chromium: deal after deal on the game page ("Deal 2 of 2", the running
total, "Next deal"), rounds that start together, matchpoints explained, per-deal replays on the
finished page, and the organiser's "Deals" and "Scoring" fields; on a phone and a desktop."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import expect_board, sign_in
from tests.browser.organise.kit import create_reviewed, new_tournament, use_token
from tests.client import Api
from tests.serverproc import ServerProcess

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}


async def no_sideways_scroll(page: Page) -> None:
    width = await page.evaluate("window.innerWidth")
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


async def end_game(page: Page) -> None:
    """End the game as its End button would, past the confirmation."""
    await page.evaluate("window.spidertour.socket.send({type: 'end'})")


def wait_finished(api: Api, tid: int) -> None:
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=api.admin())
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 15
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_deal_after_deal_on_the_game_page(
    browser: Browser, server: ServerProcess, api: Api, viewport: Any, shots: Path
) -> None:
    settings = {**SETTINGS, "deals": 2, "scoring": "matchpoints"}
    tour = api.create_tournament(name="Two deals", seed="browser-deals", **settings)
    context = await new_context(browser, server, viewport=viewport)
    page = await context.new_page()
    errors = js_errors(page)
    me = await sign_in(page, api, "dealer")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await page.locator("[data-action=start]").click()
    await expect_board(page, Game(Settings(**SETTINGS), "browser-deals/1").view())
    await expect(page.locator("[data-stat=deal]")).to_have_text("1/2")
    await expect(page.locator("[data-field=rules]")).to_contain_text("2 deals")
    await no_sideways_scroll(page)

    await end_game(page)
    over = page.locator(".over-panel")
    await expect(over.locator("[data-field=deals-total]")).to_contain_text("Deal 1 of 2. Total so far: 0")
    await no_sideways_scroll(page)
    await snap(page, shots, f"deals-over-{viewport['width']}")
    await over.locator("[data-action=next-deal]").click()
    second = Game(Settings(**SETTINGS), "browser-deals/2")
    await expect_board(page, second.view())
    await expect(page.locator("[data-stat=deal]")).to_have_text("2/2")
    await expect(over).to_be_hidden()
    await expect(page.locator("[data-action=end]")).to_be_enabled()
    await snap(page, shots, f"deals-second-{viewport['width']}")

    await end_game(page)
    await expect(over.locator("[data-field=deals-total]")).to_contain_text("that was the last deal")
    await expect(over.locator("[data-action=next-deal]")).to_have_count(0)

    # The leaderboard explains matchpoints in plain words; the live board shows the total so far.
    await page.goto(f"/#/board/{tour['id']}")
    note = page.locator("[data-field=deals-note]")
    await expect(note).to_contain_text("one lucky deal counts for little")
    await expect(note).to_contain_text("the matchpoints are counted at the finish")
    await no_sideways_scroll(page)

    # Finished: the points, the total, and a replay per deal dealt from "<seed>/<k>".
    wait_finished(api, tour["id"])
    await page.goto(f"/#/finished/{tour['id']}")
    row = page.locator(f"tr[data-entry='{entry['id']}']")
    await expect(row.locator("[data-field=matchpoints]")).to_have_text("0")
    await expect(page.locator("[data-field=deals-note]")).to_contain_text("a point for every player")
    await row.locator("[data-action=replay][data-deal='2']").click()
    await expect(page.locator(".replay h2")).to_contain_text("deal 2")
    await expect_board(page, second.view())
    await no_sideways_scroll(page)
    await snap(page, shots, f"deals-finished-{viewport['width']}", full_page=True)
    assert errors == [], errors
    await context.close()


async def test_rounds_wait_for_everyone(page: Page, api: Api) -> None:
    opens = datetime.now(UTC) + timedelta(seconds=2)
    body = {
        "name": "Rounds",
        "start": "together",
        "seed": "browser-rounds",
        "opens_at": opens.isoformat(),
        "settings": {**SETTINGS, "time_limit": 4, "deals": 2},
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    me = await sign_in(page, api, "rounder")
    entry = api.join(r.json()["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await expect_board(page, Game(Settings(**SETTINGS), "browser-rounds/1").view(), timeout=10)
    await end_game(page)
    over = page.locator(".over-panel")
    await expect(over.locator("[data-field=deals-total]")).to_contain_text("Deal 2 starts for everyone in")
    await expect(over.locator("[data-action=next-deal]")).to_have_count(0)
    # The server starts deal 2 at its round's time, unasked.
    await expect_board(page, Game(Settings(**SETTINGS), "browser-rounds/2").view(), timeout=10)
    await expect(page.locator("[data-stat=deal]")).to_have_text("2/2")
    await expect(over).to_be_hidden()


async def test_the_organiser_sets_deals_and_scoring(page: Page, api: Api, admin_token: str) -> None:
    await use_token(page, admin_token)
    await new_tournament(page, more=True)
    await page.locator("#f-name").fill("Three deals by points")
    await page.locator("#f-deals").fill("3")
    await page.locator("#f-scoring").select_option("matchpoints")
    await page.locator("[data-action=review]").click()
    await expect(page.locator("[data-field=summary]")).to_contain_text("3 deals, scored by matchpoints")
    created = await create_reviewed(page)
    await expect(created).to_contain_text("3 deals")
    tid = int(await created.get_attribute("data-tournament") or 0)
    settings = api.tournament(tid)["settings"]
    assert settings["deals"] == 3 and settings["scoring"] == "matchpoints"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_practise_is_offered_per_deal_on_the_results_page(
    browser: Browser, server: ServerProcess, api: Api, viewport: Any
) -> None:
    """A finished tournament of one deal offers "Practise this deal" on its page and its lobby card;
    one of several deals offers "Practise deal N" for each deal on its page (the card links there)."""
    one = api.create_tournament(name="One deal", **SETTINGS)["id"]
    two = api.create_tournament(name="Two deals", **SETTINGS, deals=2)["id"]
    for tid in (one, two):
        wait_finished(api, tid)
    context = await new_context(browser, server, viewport=viewport)
    page = await context.new_page()
    errors = js_errors(page)
    await sign_in(page, api, "Practiser")
    for tid, offered in ((one, ["Practise this deal"]), (two, ["Practise deal 1", "Practise deal 2"])):
        await page.goto(f"/#/finished/{tid}")
        await expect(page.locator("[data-action=standings-csv]")).to_be_visible()
        await expect(page.locator("[data-action=practise]")).to_have_text(offered)
    await page.goto("/#/lobby")
    for tid, count in ((one, 1), (two, 0)):
        card = page.locator(f"article[data-tournament='{tid}']")
        await expect(card.locator("[data-action=results]")).to_be_visible()
        await expect(card.locator("[data-action=practise]")).to_have_count(count)
    assert errors == []
    await context.close()
