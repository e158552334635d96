"""Ratings in the browser, on a phone and on a desktop: a player's public profile (ratings per game,
latest results linked to the standings), the finished standings linking names to profiles, the
player's own page linking to its profile, and the organiser's form making a tournament unrated or
limited to a rating range."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.communities.test_accounts import no_sideways_scroll
from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import sign_in
from tests.browser.organise.kit import create, create_reviewed, new_tournament, use_token
from tests.client import Api
from tests.server.competitions.rating_kit import Plan, finished, profile
from tests.server.helpers import unique
from tests.serverproc import ServerProcess

VIEWPORTS = [
    pytest.param({"width": 360, "height": 740}, id="phone"),
    pytest.param({"width": 1280, "height": 800}, id="desktop"),
]
LONG = "Maximiliana-Wolkensteiner"  # a long name must not widen the phone's page


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_profiles_from_the_standings_and_my_page(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    context = await new_context(browser, server, viewport=viewport)
    try:
        page = await context.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, unique(LONG))
        other_id, other = api.register(unique("Rival"))
        tour = await finished(api, server.ws_url, [Plan(me["token"], reveal=True), Plan(other)])
        rating = profile(api, me["id"])["ratings"]["spider78/2"]

        # The finished standings (and the podium above them) link each name to its profile.
        await page.goto(f"/#/finished/{tour['id']}")
        links = page.locator(f"a[data-action=profile][href='#/player/{other_id}']")
        await expect(links).to_have_count(2)
        await expect(page.locator(f".standings a[data-action=profile][href='#/player/{other_id}']")).to_have_count(1)
        await no_sideways_scroll(page)
        await links.last.click()
        await expect(page.locator(".profile-page [data-field=name]")).to_have_text(api_name(api, other_id))
        row = page.locator(".profile-page [data-field=ratings] [data-game='spider78/2']")
        theirs = profile(api, other_id)["ratings"]["spider78/2"]["rating"]
        await expect(row.locator("[data-field=rating]")).to_have_text(f"{theirs:,} provisional")
        await expect(row.locator("[data-field=games]")).to_have_text("1")
        await no_sideways_scroll(page)

        # My page links to my own profile; its results link back to the standings.
        await page.goto("/#/me")
        await page.locator("a[data-action=profile]").click()
        mine = page.locator(f".profile-page[data-player='{me['id']}']")
        await expect(mine.locator("[data-field=name]")).to_have_text(me["name"])
        await expect(mine).to_contain_text("Your public profile")
        await expect(mine.locator("[data-game='spider78/2'] [data-field=rating]")).to_have_text(
            f"{rating['rating']:,} provisional"
        )
        result = mine.locator(f"[data-field=recent] [data-tournament='{tour['id']}']")
        await expect(result.locator("[data-field=rank]")).to_have_text("1/2")
        await expect(result.locator("[data-field=rating]")).to_have_text(
            f"{rating['rating']:,} (+{rating['rating'] - 1000:,})"
        )
        await no_sideways_scroll(page)
        await result.locator(f"a[href='#/finished/{tour['id']}']").click()
        await expect(page.locator(f".standings a[data-action=profile][href='#/player/{me['id']}']")).to_have_count(1)

        # An unknown player: a clear line, no error thrown.
        await page.goto("/#/player/999999999")
        await expect(page.locator(".profile-page [data-field=error]")).to_contain_text("no player")
        assert errors == []
    finally:
        await context.close()


def api_name(api: Api, player_id: int) -> str:
    return str(profile(api, player_id)["name"])


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_the_organiser_s_form_sets_rated_and_limits(
    browser: Browser, server: ServerProcess, api: Api, admin_token: str, viewport: dict[str, int]
) -> None:
    context = await new_context(browser, server, viewport=viewport)
    try:
        page: Page = await context.new_page()
        errors = js_errors(page)
        await use_token(page, admin_token)
        await new_tournament(page, more=True)
        name = unique("Ranked cup")
        await page.locator("#f-name").fill(name)
        rated = page.locator("#f-rated")
        await expect(rated).to_be_checked()
        await rated.uncheck()
        # Typed as players see ratings (a new player has 1,000), stored on the model's scale.
        await page.locator("#f-rating_min").fill("900")
        await page.locator("#f-rating_max").fill("1600")
        await no_sideways_scroll(page)
        await page.locator("[data-action=review]").click()
        await expect(page.locator("[data-field=summary]")).to_contain_text("; unrated")
        created = await create_reviewed(page)
        await expect(created).to_contain_text(name)
        tid = int(await created.get_attribute("data-tournament") or 0)
        made: dict[str, Any] = api.tournament(tid)
        assert (made["rated"], made["rating_min"], made["rating_max"]) == (False, -2.5, 15)
        # Left as they come: rated, no limits.
        await new_tournament(page, more=True)
        await page.locator("#f-name").fill(unique("Open cup"))
        await rated.check()
        await page.locator("#f-rating_min").fill("")
        await page.locator("#f-rating_max").fill("")
        await create(page)
        await expect(created).not_to_have_attribute("data-tournament", str(tid))
        second = api.tournament(int(await created.get_attribute("data-tournament") or 0))
        assert (second["rated"], second["rating_min"], second["rating_max"]) == (True, None, None)
        assert errors == []
    finally:
        await context.close()
