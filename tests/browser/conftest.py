"""Browser fixtures: one headless Chromium for the session, a fresh context (its own storage) a test."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from tests import paths
from tests.serverproc import ServerProcess

# Debian's Chromium: its headless shell when installed (what Playwright itself runs for a headless
# browser: the same Blink without the full browser's window machinery; the browser tests spend about
# a third less CPU in it), else the full browser in its headless mode; else Playwright's own build.
# The full browser where a test needs what only it has (notifications: ``full_browser``).
SHELL, FULL = "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOCS = paths.DOCS
GAMES = ("spider78", "spider", "huge_spider", "black_widow", "curds_and_whey")
# The pictures docs/ keeps: the pages, and every game on a desktop and on a phone (test_screens.py),
# and the pages on a phone held either way and on a desktop (phones/test_every_page.py).
DOCS_SHOTS = (
    {"lobby", "game", "leaderboard", "finished"}
    | {f"game-{game}{phone}" for game in GAMES for phone in ("", "-phone")}
    | {
        f"page-{name}-phone"
        for name in (
            "lobby",
            "game",
            "board",
            "finished",
            "organise",
            "me",
            "play-now",
            "match",
            "bracket",
            "first-game",
            "profile",
        )
    }
    | {f"page-{name}-sideways" for name in ("game", "board", "bracket")}
    | {"game-spider78-long-landscape"}
    | {f"page-{name}-desktop" for name in ("lobby", "organise", "finished", "bracket")}
)
VIEWPORT = {"width": 1280, "height": 860}


@contextlib.asynccontextmanager
async def launched(full: bool) -> AsyncIterator[Browser]:
    """A headless Chromium: the full browser when ``full``, else the lightest there is."""
    paths = (FULL,) if full else (SHELL, FULL)
    options: dict[str, Any] = {"args": ARGS}
    if found := next((path for path in paths if os.path.exists(path)), None):
        options["executable_path"] = found
    elif full:
        options["channel"] = "chromium"  # Playwright's own full build, in its new headless mode
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(**options)
        yield browser
        await browser.close()


@pytest_asyncio.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with launched(full=False) as started:
        yield started


@pytest_asyncio.fixture(scope="session")
async def full_browser() -> AsyncIterator[Browser]:
    """The full browser: the headless shell has no notifications."""
    async with launched(full=True) as started:
        yield started


async def new_context(browser: Browser, server: ServerProcess, **options) -> BrowserContext:
    return await browser.new_context(base_url=server.url, viewport=options.pop("viewport", VIEWPORT), **options)


@pytest_asyncio.fixture
async def context(browser: Browser, server: ServerProcess) -> AsyncIterator[BrowserContext]:
    ctx = await new_context(browser, server)
    yield ctx
    await ctx.close()


def js_errors(page: Page) -> list[str]:
    """The page's uncaught JavaScript errors, collected from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


@pytest_asyncio.fixture
async def page(context: BrowserContext) -> AsyncIterator[Page]:
    """A page that fails its test on any uncaught JavaScript error."""
    page = await context.new_page()
    errors = js_errors(page)
    yield page
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Screenshots of this run. With SPIDERTOUR_DOCS_SCREENSHOTS=1 those of DOCS_SHOTS go to docs/ as well."""
    return tmp_path_factory.mktemp("screenshots")


async def snap(page: Page, shots: Path, name: str, full_page: bool = False) -> Path:
    path = shots / f"{name}.png"
    await page.screenshot(path=str(path), full_page=full_page)
    assert path.stat().st_size > 5000  # a real picture, not a blank page
    if os.environ.get("SPIDERTOUR_DOCS_SCREENSHOTS") == "1" and name in DOCS_SHOTS:
        DOCS.mkdir(exist_ok=True)
        shutil.copy(path, DOCS / path.name)
    return path
