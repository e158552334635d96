"""The organiser's fair-play options in the browser, and the countdown to a start together in the lobby,
on the game page and on the leaderboard."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.async_api import Page, expect

from tests.browser.organise.kit import create, new_tournament, use_token
from tests.client import Api


def local_minute(at: datetime) -> str:
    """A datetime-local value (minutes) for the browser, whose zone is the machine's."""
    return at.astimezone().strftime("%Y-%m-%dT%H:%M")


async def test_organiser_offers_the_fair_play_options(page: Page, api: Api, admin_token: str) -> None:
    await use_token(page, admin_token)
    await new_tournament(page, more=True)
    form = page.get_by_role("group", name="Fair play")
    await expect(form).to_contain_text("Stops the undo peek")
    await expect(form).to_contain_text("nothing to read off a neighbour's screen")
    await expect(form).to_contain_text("cannot scout it first")
    await page.locator("#f-name").fill("Fair cup")
    await page.locator("#f-start").select_option("together")
    await expect(page.locator("#f-closes_at")).to_be_disabled()
    await expect(page.locator("#f-closes_at")).to_be_hidden()
    await page.locator("#f-reveals_final").check()
    await page.locator("#f-deal_variation").check()
    opens = (datetime.now(UTC) + timedelta(minutes=3)).replace(second=0, microsecond=0)
    await page.locator("#f-opens_at").fill(local_minute(opens))
    created = await create(page)
    starts = re.compile(r"^Starts at \d\d:\d\d, in [23] min; entries close then\.$")
    await expect(created.locator("[data-field=starts]")).to_have_text(starts)
    tour = api.tournament(int(await created.get_attribute("data-tournament") or 0))
    assert tour["start"] == "together" and tour["status"] == "scheduled"
    assert tour["settings"]["reveals_final"] is True and tour["settings"]["deal_variation"] is True
    assert datetime.fromisoformat(tour["opens_at"]) == opens
    assert datetime.fromisoformat(tour["closes_at"]) == opens + timedelta(seconds=tour["settings"]["time_limit"])


async def test_countdowns_to_a_start_together(page: Page, api: Api, server: Any) -> None:
    opens = datetime.now(UTC) + timedelta(minutes=5)
    r = api.http.post(
        "/api/tournaments",
        headers=api.admin(),
        json={
            "name": "Countdown cup",
            "start": "together",
            "opens_at": opens.isoformat(),
            "settings": {"variant": "spider78", "suits": 2, "time_limit": 300},
        },
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]

    await page.goto("/#/lobby")
    await page.locator("input[name=name]").fill("early bird")
    await page.locator("[data-form=register] button").click()
    card = page.locator(f'article[data-tournament="{tid}"]')
    await expect(card.locator("[data-field=start] [data-field=countdown]")).to_contain_text("starts in 4:")
    await card.locator("[data-action=join]").click()  # a together tournament takes entries while scheduled
    await expect(page.locator(".big-countdown [data-field=countdown]")).to_contain_text("Your game starts in 4:")
    await expect(page.locator("[data-action=start]")).to_have_count(0)  # the server starts it, not a button

    await page.goto(f"/#/board/{tid}")
    await expect(page.locator("[data-field=countdown]")).to_contain_text("starts in 4:")
