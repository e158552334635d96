"""The organiser's pages fit a phone held either way and a desktop: no sideways scroll on the
dashboard, the short form with every option unfolded, a sitting's live page with its entrants and
another's edit form open; every action in reach with a tap target of 40 px at least; a
disqualification's reason shown whole."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context
from tests.browser.organise.kit import live_page, new_tournament, use_token
from tests.client import Api
from tests.server.helpers import unique
from tests.serverproc import ServerProcess

SIZES = [
    pytest.param({"width": 360, "height": 740}, True, id="phone"),
    pytest.param({"width": 740, "height": 360}, True, id="landscape"),
    pytest.param({"width": 1280, "height": 800}, False, id="desktop"),
]
REASON = (
    "Played from two accounts on the same evening: the second account scouted the deal first, "
    "then the first one played it through without a single mistake"
)

# What sticks out past the right edge, and every action of the organiser's pages that is too small or
# out of reach (its box, rounded).
OUT_OF_REACH = """() => [...document.querySelectorAll(
    '.organise-page button, .organise-page input, .organise-page select, .organise-page a.btn')]
  .filter((n) => n.offsetParent !== null && n.type !== 'checkbox')
  .map((n) => ({n, r: n.getBoundingClientRect()}))
  .filter(({r}) => r.height < 40 || r.right > innerWidth + 0.5 || r.left < -0.5)
  .map(({n, r}) => `${n.tagName}[${n.dataset.action || n.dataset.field || n.id || n.textContent}] `
    + `${Math.round(r.left)}..${Math.round(r.right)} h${Math.round(r.height)}`)"""
WIDE = """() => [...document.querySelectorAll('main *')]
  .filter((n) => n.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 6)
  .map((n) => `${n.tagName}.${n.className}[${Math.round(n.getBoundingClientRect().right)}]`)"""


async def fits(page: Page) -> None:
    width = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}, past the edge: {await page.evaluate(WIDE)}"


async def open_manage(page: Page, token: str) -> None:
    """The dashboard with a token pasted in the tab (the owner's or an organiser's)."""
    await use_token(page, token)


def entered(api: Api, tid: int, name: str) -> dict[str, Any]:
    _, token = api.register(name)
    entry: dict[str, Any] = api.join(tid, token)
    return entry


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
async def test_the_organisers_page_fits_with_everything_open(
    browser: Browser, server: ServerProcess, api: Api, admin_token: str, viewport: dict[str, int], touch: bool
) -> None:
    later = api.create_tournament(name=unique("fit-later"), opens_in=3600, closes_in=7200)
    running = api.create_tournament(name=unique("fit-open-with-a-long-name-for-a-small-screen"))
    cheat = entered(api, running["id"], "fit-cheat")
    fair = entered(api, running["id"], "fit-fair")
    r = api.http.post(
        f"/api/tournaments/{running['id']}/entries/{cheat['id']}/disqualify",
        json={"reason": REASON},
        headers=api.admin(),
    )
    assert r.status_code == 200, r.text
    context = await new_context(browser, server, viewport=viewport, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        await open_manage(page, admin_token)
        await expect(page.locator(f"[data-item='tournament-{running['id']}']")).to_be_visible()
        await fits(page)
        assert await page.evaluate(OUT_OF_REACH) == []
        await new_tournament(page, more=True)
        fair_play = await page.locator(".organise-form .fair-play").first.bounding_box()
        assert fair_play is not None and fair_play["x"] + fair_play["width"] <= viewport["width"]
        await fits(page)
        assert await page.evaluate(OUT_OF_REACH) == []

        await live_page(page, running["id"])
        await expect(page.locator(".live-head [data-field=status]")).to_have_text("open")
        entries = page.locator(f"[data-entries-of='{running['id']}']")
        shown = entries.locator(f"[data-entry='{cheat['id']}'] [data-field=state]")
        await expect(shown).to_have_text(f"disqualified ({REASON})")
        await expect(entries.locator(f"[data-entry='{fair['id']}'] [data-action=disqualify]")).to_be_visible()
        await entries.locator(f"[data-entry='{fair['id']}'] [data-action=disqualify]").click()
        await expect(entries.locator(f"[data-entry='{fair['id']}'] [data-field=reason]")).to_be_visible()
        whole = await shown.evaluate(
            """(n) => { const r = n.getBoundingClientRect();
              for (let up = n.parentElement; up; up = up.parentElement) {  // no box around it cuts it off
                const box = up.getBoundingClientRect();
                const cut = r.right > box.right + 1 || r.left < box.left - 1;
                if (getComputedStyle(up).overflowX !== 'visible' && cut) {
                  return false;
                }
              }
              return n.scrollWidth <= n.clientWidth + 1 && n.scrollHeight <= n.clientHeight + 1
                && r.left >= 0 && r.right <= innerWidth; }"""
        )
        assert whole, "the disqualification's reason is clipped"
        await fits(page)
        assert await page.evaluate(OUT_OF_REACH) == []
        await live_page(page, later["id"])
        await page.locator(f"[data-tournament-row='{later['id']}'] [data-action=edit]").click()
        await expect(page.locator(f"[data-edit='{later['id']}']")).to_be_visible()
        await fits(page)
        assert await page.evaluate(OUT_OF_REACH) == []
        assert errors == []
    finally:
        await context.close()
