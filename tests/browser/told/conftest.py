"""What the tests of being told share: a page at each size whose sounds and notifications are
recorded by wrapping (never replacing) the browser's own AudioContext oscillators and Notification."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page

from tests.browser.conftest import js_errors, new_context
from tests.serverproc import ServerProcess

SIZES = {
    "phone": ({"width": 360, "height": 740}, True),
    "landscape": ({"width": 740, "height": 360}, True),
    "desktop": ({"width": 1280, "height": 800}, False),
}
START_TONE = 880  # the second note of sound.js's "start", in no other of its tunes

RECORD = """
window.told = { tones: [], notes: [] };
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.told.tones.push(this.frequency.value);
  return realStart.apply(this, args);
};
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class Notification extends Real {
    constructor(title, options) {
      super(title, options);
      window.told.notes.push({ title, body: (options && options.body) || "" });
    }
  };
}
"""


@dataclass
class Told:
    page: Page
    context: BrowserContext
    touch: bool

    async def press(self, selector: str) -> None:
        target = self.page.locator(selector)
        await (target.tap() if self.touch else target.click())

    async def prefs(self, **settings: Any) -> None:
        """The player's settings, as Settings would keep them, from the first load."""
        stored = json.dumps(json.dumps(settings))
        await self.context.add_init_script(f"localStorage.setItem('spidertour.settings', {stored});")

    async def look_away(self) -> Page:
        """Another tab in front: the game's page is no longer the focused one (the browser's own
        focus, as the player's window would have it, rather than the test driver's emulated focus)."""
        cdp = await self.context.new_cdp_session(self.page)
        await cdp.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
        other = await self.context.new_page()
        await other.goto("/#/lobby")
        await other.bring_to_front()
        return other

    async def notes(self) -> list[dict[str, str]]:
        found: list[dict[str, str]] = await self.page.evaluate("window.told.notes")
        return found

    async def tones(self) -> list[float]:
        found: list[float] = await self.page.evaluate("window.told.tones")
        return found


@pytest_asyncio.fixture(params=list(SIZES))
async def told(request: pytest.FixtureRequest, full_browser: Browser, server: ServerProcess) -> AsyncIterator[Told]:
    size, touch = SIZES[request.param]
    context = await new_context(full_browser, server, viewport=size, has_touch=touch, is_mobile=touch)
    await context.add_init_script(RECORD)
    page = await context.new_page()
    errors = js_errors(page)
    yield Told(page, context, touch)
    await context.close()
    assert errors == [], f"JavaScript errors: {errors}"
