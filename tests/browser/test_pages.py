"""The lobby (registering, the token shown once, tournaments by status, my entries), the organiser's
page, the settings, and the leaderboard and table on a phone-sized screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from playwright.async_api import Browser, BrowserContext, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import expect_board, sign_in
from tests.browser.organise.kit import create, new_tournament, use_token
from tests.client import Api, bearer
from tests.serverproc import ServerProcess


async def test_register_join_and_my_entries(
    page: Page, context: BrowserContext, api: Api, server: ServerProcess, shots: Path
) -> None:
    open_tour = api.create_tournament(
        name="Lobby open cup", seed="lobby", variant="black_widow", suits=2, time_limit=300
    )
    later = api.create_tournament(name="Lobby later cup", opens_in=3600, closes_in=7200)
    await context.grant_permissions(["clipboard-read", "clipboard-write"])

    await page.goto("/#/lobby")
    await page.locator("[data-form=register] input[name=name]").fill("  carol  ")
    await page.locator("[data-form=register] button[type=submit]").click()
    token_box = page.locator("[data-field=token]")
    await expect(token_box).to_be_visible()
    token = await token_box.text_content()
    assert token and len(token) >= 20
    stored = json.loads(await page.evaluate("localStorage.getItem('spidertour.player')"))
    assert stored["token"] == token and stored["name"] == "carol"
    assert httpx.get(f"{server.url}/api/me/entries", headers=bearer(token)).json() == []  # the server knows it
    await page.locator("[data-action=copy-token]").click()
    await expect(page.locator("[data-action=copy-token]")).to_have_text("Copied")
    assert await page.evaluate("navigator.clipboard.readText()") == token
    await expect(page.locator("[data-field=player-name]")).to_have_text("carol")

    # Tournaments by status, with their game, settings, time limit and entrants (the commitment is on
    # the tournament's own page, tests/browser/arriving).
    card = page.locator(f'[data-status=open] .tournament[data-tournament="{open_tour["id"]}"]')
    await expect(card.locator("[data-field=rules]")).to_have_text("Black Widow \u00b7 2 suits \u00b7 undo")
    await expect(card.locator("[data-field=time-limit]")).to_have_text("5:00")
    await expect(card.locator("[data-field=entrants]")).to_have_text("0")
    await expect(card.locator("[data-field=commitment]")).to_have_count(0)
    upcoming = page.locator(f'[data-status=scheduled] .tournament[data-tournament="{later["id"]}"]')
    await expect(upcoming).to_be_visible()
    await expect(upcoming.locator("[data-action=join]")).to_have_count(0)
    await expect(upcoming.locator("[data-action=leaderboard]")).to_have_attribute("href", f"#/board/{later['id']}")

    await card.locator("[data-action=join]").click()
    await page.wait_for_url(re.compile(r"#/play/\d+$"))
    entry_id = int(page.url.rsplit("/", 1)[1])
    await expect(page.locator("[data-action=start]")).to_be_visible()

    # Back in the lobby: the entry is listed with a link to start it, and the token is not shown again.
    await page.goto("/#/lobby")
    await page.reload()
    mine = page.locator(f'.my-entries li[data-entry="{entry_id}"]')
    await expect(mine.locator("[data-action=play]")).to_have_attribute("href", f"#/play/{entry_id}")
    await expect(mine.locator("[data-action=play]")).to_have_text("Start")
    await expect(card.locator("[data-field=entrants]")).to_have_text("1")
    await expect(card.locator("[data-action=play]")).to_have_attribute("href", f"#/play/{entry_id}")
    await expect(page.locator("[data-field=token]")).to_have_count(0)
    await snap(page, shots, "lobby")


async def test_organiser_creates_a_tournament(page: Page, api: Api, admin_token: str) -> None:
    await use_token(page, "not-the-admin-token")
    await new_tournament(page)
    await page.locator("#f-name").fill("Organised cup")
    await page.locator("[data-action=review]").click()
    await page.locator("[data-action=create]").click()
    needed = "the admin token or an organiser's token is needed for this"
    await expect(page.locator("[data-field=error]")).to_have_text(needed)

    await use_token(page, admin_token)
    await new_tournament(page, more=True)
    await page.locator("#f-name").fill("Organised cup")
    await page.locator("#f-variant").select_option("spider")
    await page.locator("#f-suits").select_option("2")
    await page.locator("#f-time_limit").fill("2")
    await page.locator("#f-undo_limit").fill("3")
    await page.locator("#f-seed").fill("organised-seed")
    created = await create(page)
    tour = api.tournament(int(await created.get_attribute("data-tournament") or 0))
    assert tour["name"] == "Organised cup" and tour["status"] == "open"
    assert tour["settings"] == {
        "variant": "spider",
        "suits": 2,
        "free_column": False,
        "undo": True,
        "undo_limit": 3,
        "reveals_final": False,
        "time_limit": 120,
        "draw_pile_choice": True,
        "draw_pile_tops_up": True,
        "deal_variation": False,
    }
    await expect(page.locator(".created [data-field=commitment]")).to_have_text(tour["commitment"])
    # The admin token lives in this tab's sessionStorage only.
    assert await page.evaluate("sessionStorage.getItem('spidertour.admin')") == admin_token
    assert admin_token not in json.dumps(await page.evaluate("({...localStorage})"))


async def test_settings_are_kept_and_applied(page: Page) -> None:
    await page.goto("/#/settings")
    body = page.locator("body")
    await expect(body).to_have_class(re.compile(r"\bfaces-classic\b"))
    await page.locator("input[name=simple]").check()
    await page.locator("input[name=sound]").check()
    await page.locator("input[name=faces][value=bold]").check()
    await page.locator("input[name=portrait][value=on]").check()
    await page.reload()
    for cls in ("simple", "faces-bold", "portrait"):
        await expect(body).to_have_class(re.compile(rf"\b{cls}\b"))
    await expect(page.locator("input[name=simple]")).to_be_checked()
    await expect(page.locator("input[name=faces][value=bold]")).to_be_checked()
    saved = json.loads(await page.evaluate("localStorage.getItem('spidertour.settings')"))
    assert saved == {"simple": True, "faces": "bold", "portrait": "on", "sound": True, "notify": False}
    # Simple mode draws the cards without their centre art.
    await expect(page.locator("#face-preview .card .pip").first).to_be_hidden()
    await page.locator("input[name=portrait][value=off]").check()
    await expect(body).not_to_have_class(re.compile(r"\bportrait\b"))


async def test_phone_sized_leaderboard_and_table(
    browser: Browser, server: ServerProcess, api: Api, shots: Path
) -> None:
    seed = "phone"
    tour = api.create_tournament(name="Pocket cup", seed=seed, variant="spider78", suits=1)
    for name in ("dan", "eve", "fay"):
        _, token = api.register(name)
        api.join(tour["id"], token)
    phone = await new_context(browser, server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = await phone.new_page()
    errors = js_errors(page)
    me = await sign_in(page, api, "gus")
    entry = api.join(tour["id"], me["token"])

    await page.goto(f"/#/board/{tour['id']}")
    await expect(page.locator(".live-board tbody tr")).to_have_count(4)
    await expect(page.locator(f'.live-board tr[data-entry="{entry["id"]}"]')).to_have_class(re.compile(r"\bmine\b"))
    await expect(page.locator(".live-board th.opt").first).to_be_hidden()  # fewer columns on a phone
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await snap(page, shots, "leaderboard-phone")

    # The game in portrait: every column fits the width, the buttons sit at the bottom.
    await page.goto(f"/#/play/{entry['id']}")
    await page.locator("[data-action=start]").tap()
    await expect_board(page, Game(Settings(variant="spider78", suits=1), seed).view())
    await expect(page.locator("body")).to_have_class(re.compile(r"\bportrait\b"))
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    end = await page.locator("[data-action=end]").bounding_box()
    assert end and end["y"] > 844 - 80
    await snap(page, shots, "game-phone")
    await phone.close()
    assert errors == []


async def test_the_leaderboard_leads_back_to_my_game(page: Page, api: Api) -> None:
    """A player who looks at the leaderboard mid-game finds the way back to its own game."""
    tour = api.create_tournament(name="Back and forth")
    me = await sign_in(page, api, "back-and-forth")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/board/{tour['id']}")
    back = page.locator("[data-action=my-game]")
    await expect(back).to_have_attribute("href", f"#/play/{entry['id']}")
    await back.click()
    await page.wait_for_url(f"**/#/play/{entry['id']}")
    other = api.create_tournament(name="Not mine")
    await page.goto(f"/#/board/{other['id']}")
    await expect(page.locator("[data-field=live]")).to_have_text(re.compile("live"))
    await expect(page.locator("[data-action=my-game]")).to_have_count(0)
