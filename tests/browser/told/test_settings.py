"""Settings' "Notify me", on a phone held either way (touch) and a desktop: turned on, it asks the
browser; granted, it stays on (kept on this device); refused, it turns itself off again and says so
in plain words."""

from __future__ import annotations

import json

from playwright.async_api import expect

from tests.browser.told.conftest import Told

REFUSED = (
    "Your browser refused notifications for this site. To have them, allow notifications for this site in "
    "the browser's settings, then turn this on again."
)


async def test_notify_me_asks_the_browser(told: Told) -> None:
    page = told.page
    await told.context.grant_permissions(["notifications"])
    await page.goto("/#/settings")
    box = page.locator("input[name=notify]")
    await expect(box).not_to_be_checked()
    await told.press(".notify-setting label.toggle")
    await expect(box).to_be_checked()
    await expect(page.locator("[data-field=notify-note]")).to_be_hidden()
    kept = json.loads(await page.evaluate("() => localStorage.getItem('spidertour.settings')"))
    assert kept["notify"] is True
    await page.reload()
    await expect(page.locator("input[name=notify]")).to_be_checked()
    await told.press(".notify-setting label.toggle")
    await expect(page.locator("input[name=notify]")).not_to_be_checked()
    kept = json.loads(await page.evaluate("() => localStorage.getItem('spidertour.settings')"))
    assert kept["notify"] is False


async def test_a_refusal_is_said_and_leaves_it_off(told: Told) -> None:
    page = told.page  # no permission granted: the browser refuses
    await page.goto("/#/settings")
    await told.press(".notify-setting label.toggle")
    note = page.locator("[data-field=notify-note]")
    await expect(note).to_have_text(REFUSED)
    await expect(page.locator("input[name=notify]")).not_to_be_checked()
    kept = json.loads(await page.evaluate("() => localStorage.getItem('spidertour.settings')"))
    assert kept["notify"] is False
    box = await note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]
