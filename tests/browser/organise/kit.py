"""The organiser's pages driven like a person: a token pasted under the dashboard (as scripts and the
server's owner do), the short form with its "More options" opened, a summary read, then Create."""

from __future__ import annotations

from playwright.async_api import Locator, Page, expect


async def use_token(page: Page, token: str) -> None:
    """The dashboard with `token` pasted in this tab (kept in the tab's sessionStorage)."""
    await page.goto("/#/organise")
    fold = page.locator("[data-field=token-fold]")
    if not await fold.get_attribute("open"):
        await fold.locator("summary").click()
    await page.locator("#f-admin").fill(token)
    await page.locator("#f-admin").dispatch_event("change")
    await expect(page.locator("[data-field=token-note]")).to_be_visible()


async def more_options(page: Page) -> None:
    """Unfold the form's "More options"."""
    fold = page.locator("details[data-field=more-options]")
    if not await fold.get_attribute("open"):
        await fold.locator("summary").click()


async def new_tournament(page: Page, more: bool = False) -> None:
    """The short form for a new tournament, its "More options" unfolded if `more`."""
    if page.url.endswith("#/organise/new"):
        await page.goto("/#/organise")  # a fresh form: the same route again would keep the page as it is
    await page.goto("/#/organise/new")
    await expect(page.locator("#f-name")).to_be_visible()
    if more:
        await more_options(page)


async def create(page: Page, timeout: float = 5000) -> Locator:
    """Check the summary, then Create: the confirmation of what was made."""
    await page.locator("[data-action=review]").click()
    await expect(page.locator("[data-field=summary]")).not_to_be_empty()
    await page.locator("[data-action=create]").click()
    created = page.locator(".created [data-tournament]")
    await expect(created).to_be_visible(timeout=timeout)
    return created


async def live_page(page: Page, tid: int) -> Locator:
    """A tournament's live page: its card of actions."""
    await page.goto(f"/#/organise/tournament/{tid}")
    card = page.locator(f"[data-tournament-row='{tid}']")
    await expect(card).to_be_visible()
    return card


async def create_reviewed(page: Page, timeout: float = 5000) -> Locator:
    """Create, the summary already shown: the confirmation of what was made."""
    await page.locator("[data-action=create]").click()
    created = page.locator(".created [data-tournament]")
    await expect(created).to_be_visible(timeout=timeout)
    return created
