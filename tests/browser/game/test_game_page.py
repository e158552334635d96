"""The game page around the table, on a phone (both ways up, by touch) and a desktop: the player's
place while playing and the tournament's end, the rules and scoring in the help, the free column's
bonus while it lasts, and keyboard focus frames that show only on keyboard use and stay in their column."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, MoveCards, Settings
from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import card, card_moves, column, drop_point, expect_board, grab_point, reveals, sign_in
from tests.client import Api, Player
from tests.serverproc import ServerProcess

SIZES = {
    "phone": ({"width": 360, "height": 740}, True),
    "landscape": ({"width": 740, "height": 360}, True),
    "desktop": ({"width": 1280, "height": 800}, False),
}
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


class Screen:
    """One page at one size; `touch` pages are tapped, the others clicked."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.upright = page.viewport_size is not None and page.viewport_size["width"] < 600

    async def press(self, selector: str) -> None:
        target = self.page.locator(selector)
        await (target.tap() if self.touch else target.click())

    async def at(self, x: float, y: float) -> None:
        await (self.page.touchscreen.tap(x, y) if self.touch else self.page.mouse.click(x, y))

    async def fits(self) -> None:
        assert await self.page.evaluate(NO_SIDEWAYS), "the page scrolls sideways"


@pytest_asyncio.fixture(params=list(SIZES))
async def screen(request: pytest.FixtureRequest, browser: Browser, server: ServerProcess) -> AsyncIterator[Screen]:
    size, touch = SIZES[request.param]
    context = await new_context(browser, server, viewport=size, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    yield Screen(page, touch)
    await context.close()
    assert errors == [], f"JavaScript errors: {errors}"


async def play(screen: Screen, api: Api, tour: dict[str, Any], name: str) -> dict[str, Any]:
    """This page's player joins the tournament and starts the game."""
    me = await sign_in(screen.page, api, name)
    entry = api.join(tour["id"], me["token"])
    await screen.page.goto(f"/#/play/{entry['id']}")
    await screen.press("[data-action=start]")
    return entry


async def test_the_place_and_the_closing_while_playing(screen: Screen, api: Api, server: ServerProcess) -> None:
    # Open five more minutes, while a game lasts ten: the closing comes before this game's clock runs out.
    tour = api.create_tournament(name="Place cup", seed="place", closes_in=300, **SETTINGS)
    page = screen.page
    me = await sign_in(page, api, "ann")
    entry = api.join(tour["id"], me["token"])  # the first entry: first of equals
    _, bert_token = api.register("bert")
    bert_entry = api.join(tour["id"], bert_token)
    api.join(tour["id"], api.register("cleo")[1])  # joined, not started: an entrant all the same
    await page.goto(f"/#/play/{entry['id']}")
    await screen.press("[data-action=start]")
    await expect_board(page, Game(Settings(**SETTINGS), "place").view())

    place = page.locator("[data-field=standing]")
    await expect(place).to_have_text("Place 1st of 3")
    ends = page.locator("[data-field=ends-in]")
    await expect(ends).to_have_text(re.compile(r"^closes in 4:[45]\d$"))
    await expect(page.locator("[data-stat=clock]")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    for part in (place, ends):
        box = await part.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]
    if screen.upright:  # a phone upright: the line shares the title's row, the table keeps its height
        line, title = (
            await page.locator("[data-field=hud-line]").bounding_box(),
            await page.locator(".hud-title").bounding_box(),
        )
        assert line is not None and title is not None and abs(line["y"] - title["y"]) < 12, (line, title)
    await screen.fits()

    # Another entrant turns two cards: the place follows without a reload.
    bert, _ = await Player.connect(server.ws_url, bert_entry["id"], bert_token)
    await bert.start()
    game = Game(Settings(**SETTINGS), "place")
    for _ in range(2):
        move = next(m for m in card_moves(game) if reveals(game, m))
        assert (await bert.play(move.to_json()))["type"] == "result"
        game.play(move)
    await bert.close()
    if screen.touch:  # a phone comes back into view: the place is asked for at once
        await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        await expect(place).to_have_text("Place 2nd of 3")
    else:  # left in view, the page asks again every 12 s
        await expect(place).to_have_text("Place 2nd of 3", timeout=20_000)
    assert await place.get_attribute("data-rank") == "2"
    await screen.fits()


async def test_a_sitting_together_says_when_it_ends(screen: Screen, api: Api) -> None:
    # Two deals of a minute, everyone together: the sitting ends a minute after this deal's clock.
    opens = datetime.now(UTC) + timedelta(seconds=2)
    settings = {**SETTINGS, "time_limit": 60, "deals": 2}
    r = api.http.post(
        "/api/tournaments",
        headers=api.admin(),
        json={
            "name": "Together cup",
            "start": "together",
            "opens_at": opens.isoformat(),
            "seed": "together",
            "settings": settings,
        },
    )
    assert r.status_code == 201, r.text
    me = await sign_in(screen.page, api, "dana")
    entry = api.join(r.json()["id"], me["token"])
    await screen.page.goto(f"/#/play/{entry['id']}")
    await expect_board(screen.page, Game(Settings(**SETTINGS), "together/1").view(), timeout=15)
    await expect(screen.page.locator("[data-stat=clock]")).to_have_text(re.compile(r"^0:[45]\d$"))
    await expect(screen.page.locator("[data-field=ends-in]")).to_have_text(re.compile(r"^ends in 1:[45]\d$"))
    await expect(screen.page.locator("[data-field=standing]")).to_have_text("Place 1st of 1")
    await screen.fits()


async def test_the_help_says_the_rules_in_play_and_the_scoring(screen: Screen, api: Api) -> None:
    settings: dict[str, Any] = {
        "variant": "spider78",
        "suits": 1,
        "time_limit": 300,
        "free_column": True,
        "undo_limit": 3,
        "draw_pile_choice": False,
    }
    tour = api.create_tournament(name="Rules cup", seed="rules", **settings)
    await play(screen, api, tour, "eve")
    await expect_board(screen.page, Game(Settings(**settings), "rules").view())
    await screen.press("[data-action=help]")
    help_box = screen.page.locator(".help")
    await expect(help_box).to_be_visible()
    rules = help_box.locator("[data-field=help-rules]")
    for said in (
        "78 cards",
        "1 suit (all spades)",
        "6 sequences win",
        "The piles are dealt in order",
        "A free column",
        "at most 3 times",
        "5 min on the server",
    ):
        await expect(rules).to_contain_text(said)
    scoring = help_box.locator("[data-field=help-scoring]")
    for said in (
        "+25 for every card turned face up",
        "+100 for every completed sequence",
        "+100 at a win if the free column was never used",
        "\u00f7 6, rounded down",
        "A win with 2:00 left adds 120",
    ):
        await expect(scoring).to_contain_text(said)
    await expect(help_box).to_contain_text("show or hide these keys")  # the keys stay
    box = await help_box.bounding_box()
    width = screen.page.viewport_size["width"]  # type: ignore[index]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    await screen.fits()
    await screen.press("[data-action=close-help]")
    await expect(help_box).to_be_hidden()


async def test_every_game_has_its_rules_and_scoring_in_words(page: Page, server: ServerProcess) -> None:
    await page.goto("/")
    said = await page.evaluate("""async () => {
      const m = await import('/js/game/rules_text.js');
      const games = ['spider78', 'spider', 'huge_spider', 'black_widow', 'curds_and_whey'];
      return Object.fromEntries(games.map((g) => [g, {rules: m.rulesLines({variant: g}).join(' '),
        scoring: m.scoringLines({variant: g}).join(' ')}]));
    }""")
    assert "5 draw piles of 8" in said["spider78"]["rules"] and "\u00f7 6" in said["spider78"]["scoring"]
    assert "+100 at a win if the free column was never used" in said["spider78"]["scoring"]
    assert "The stock deals 5 times" in said["spider"]["rules"] and "\u00f7 8" in said["spider"]["scoring"]
    assert "20 columns" in said["huge_spider"]["rules"] and "\u00f7 16" in said["huge_spider"]["scoring"]
    assert "in any suits" in said["black_widow"]["rules"]
    curds = said["curds_and_whey"]
    assert "Nothing to deal" in curds["rules"] and "Only a King" in curds["rules"]
    assert "+25" not in curds["scoring"] and "\u00f7 4" in curds["scoring"]
    for game in said.values():
        assert "free column was never used" in game["scoring"] or "No free column" in game["rules"]


async def test_the_free_column_bonus_shows_until_the_column_is_used(screen: Screen, api: Api) -> None:
    settings = {**SETTINGS, "free_column": True}
    tour = api.create_tournament(name="Free cup", seed="free", **settings)
    await play(screen, api, tour, "finn")
    page = screen.page
    game = Game(Settings(**settings), "free")
    await expect_board(page, game.view())
    bonus = page.locator("[data-field=free-bonus]")
    # Upright on a phone it says it short, in the title's row.
    unused, gone = (
        ("free col. +100", "free col. bonus gone")
        if screen.upright
        else ("Free column: +100 if unused", "Free column: bonus gone")
    )
    await expect(bonus).to_have_text(unused, use_inner_text=True)
    await expect(bonus).to_be_visible()
    await screen.fits()

    # A card into the free column: the bonus is gone; undo brings it back.
    free = game.free_column
    assert free is not None
    src = next(c for c in range(len(game.columns)) if c != free and game.columns[c])
    await screen.at(*await grab_point(page, card(src, len(game.columns[src]) - 1)))
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{src}:1")
    await screen.at(*await drop_point(page, free))
    game.play(MoveCards(src, 1, free))
    await expect_board(page, game.view())
    await expect(bonus).to_have_text(gone, use_inner_text=True)
    await expect(bonus).to_have_attribute("data-used", "true")
    await screen.fits()
    await screen.press("[data-action=undo]")
    await expect(bonus).to_have_text(unused, use_inner_text=True)


FRAMES = """() => {
  const board = document.querySelector('.game-page .board');
  const wrap = document.querySelector('.game-page .board-wrap');
  const cursor = document.querySelector('.tableau .column.cursor');
  const after = cursor ? getComputedStyle(cursor, '::after') : null;
  return {
    focused: document.activeElement === board, visible: board.matches(':focus-visible'),
    boardFrame: getComputedStyle(board).boxShadow, wrapFrame: getComputedStyle(wrap).outlineStyle,
    cursor: cursor ? Number(cursor.dataset.col) : null,
    cursorFrame: after ? after.display : null,
    inset: after ? ['top', 'right', 'bottom', 'left'].map((side) => parseFloat(after[side])) : null,
  };
}"""


async def test_the_focus_frame_shows_on_keyboard_use_only_and_inside_its_column(screen: Screen, api: Api) -> None:
    tour = api.create_tournament(name="Focus cup", seed="focus", **SETTINGS)
    await play(screen, api, tour, "gus")
    page = screen.page
    game = Game(Settings(**SETTINGS), "focus")
    await expect_board(page, game.view())
    # Back to the game later: the page puts the focus on the table, with no key pressed.
    await page.reload()
    await expect_board(page, game.view())
    frames = await page.evaluate(FRAMES)
    assert frames["focused"] and frames["visible"], frames  # the browser counts it as a visible focus
    assert frames["boardFrame"] == "none", "a frame is drawn across the table before any key"
    assert frames["wrapFrame"] == "none"
    await screen.fits()

    # A key: the cursor's frame, inside the column it marks, and the felt framed as a whole.
    await page.keyboard.press("ArrowRight")
    await expect(page.locator(column(1))).to_have_class(re.compile(r"\bcursor\b"))
    frames = await page.evaluate(FRAMES)
    assert frames["cursorFrame"] == "block" and frames["cursor"] == 1
    assert min(frames["inset"]) >= 0, f"the cursor's frame reaches out of its column: {frames['inset']}"
    assert frames["boardFrame"] == "none" and frames["wrapFrame"] == "solid"
    await screen.fits()

    # A tap or a click on the table: no keyboard frame any more.
    box = await page.locator(".game-page .board-wrap").bounding_box()
    assert box is not None
    await screen.at(box["x"] + box["width"] / 2, box["y"] + box["height"] - 12)
    frames = await page.evaluate(FRAMES)
    assert frames["cursorFrame"] in (None, "none") and frames["wrapFrame"] == "none", frames
