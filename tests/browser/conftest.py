"""Browser fixtures: one headless Chromium for the session, a fresh context (its own storage) a test."""

from __future__ import annotations

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

CHROMIUM = "/usr/bin/chromium"
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


@pytest_asyncio.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        options: dict[str, Any] = {"args": ARGS}
        if os.path.exists(CHROMIUM):
            options["executable_path"] = CHROMIUM
        launched = await pw.chromium.launch(**options)
        yield launched
        await launched.close()


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
